/* Exceptions as the Armv7-M ARM defines them (B1.5): priorities and masking (B1.5.4), entry with
 * stacking (B1.5.6 PushStack, ExceptionTaken), return and tail-chaining (B1.5.8
 * ExceptionReturn, PopStack), the FP context and lazy stacking (B1.5.7, FPCCR B3.2.22), fault
 * escalation to HardFault (B1.5.14, HFSR.FORCED) and lockup (B1.5.15).
 *
 * unicorn 2.0.1 does none of this for M-profile: it stops with interrupt 2 on SVC and 8 on a branch
 * to an EXC_RETURN value, and this file does the rest through register writes. QEMU keeps the
 * current SP in r13 and swaps it with the other stack pointer only when CONTROL.SPSEL is written
 * in privileged thread mode, so the order of the writes below matters. */
#include "core/core_internal.h"

#include <string.h>

#define CONTROL_NPRIV 1u
#define CONTROL_SPSEL 2u
#define CONTROL_FPCA  4u
#define FPCCR_LSPACT  (1u << 0)
#define FPCCR_USER    (1u << 1)
#define FPCCR_THREAD  (1u << 3)
#define FPCCR_HFRDY   (1u << 4)
#define FPCCR_LSPEN   (1u << 30)
#define CCR_STKALIGN  (1u << 9)
#define CCR_DIV_0_TRP (1u << 4)

void exc_reset(struct sim_core *c)
{
	memset(c->exc.pending, 0, sizeof(c->exc.pending));
	memset(c->exc.active, 0, sizeof(c->exc.active));
	memset(c->exc.enabled, 0, sizeof(c->exc.enabled));
	memset(c->exc.prio, 0, sizeof(c->exc.prio));
	for (int e = EXC_NMI; e < EXC_IRQ0; e++)
		c->exc.enabled[e] = true;
	c->exc.enabled[EXC_MEMMANAGE] = c->exc.enabled[EXC_BUSFAULT] = c->exc.enabled[EXC_USAGEFAULT] = false;
	scs_reset(c, false); /* VTOR, SCR, CCR, CFSR, HFSR, MMFAR, BFAR, AFSR, CPACR, FPCAR, FPDSCR */
	c->scb.aircr_prigroup = 0;
	c->scb.shcsr = 0;
	c->scb.fpccr = 0xC0000000u; /* ASPEN | LSPEN (B3.2.22) */
	c->exc.tail_chain = false;
}

/* Priority of an exception (B1.5.4): fixed for Reset, NMI, HardFault; otherwise the implemented
 * upper bits of its priority byte. */
int exc_priority(const struct sim_core *c, int exc)
{
	switch (exc) {
	case EXC_RESET:
		return -3;
	case EXC_NMI:
		return -2;
	case EXC_HARDFAULT:
		return -1;
	default:
		return c->exc.prio[exc] & c->exc.prio_mask;
	}
}

int exc_group_priority(const struct sim_core *c, int prio)
{
	if (prio < 0)
		return prio;
	unsigned groupvalue = 2u << c->scb.aircr_prigroup;
	return prio - (int)((unsigned)prio % groupvalue);
}

int exc_current(struct sim_core *c)
{
	return (int)(core_reg(c, UC_ARM_REG_IPSR) & 0x1FFu);
}

int exc_execution_priority(struct sim_core *c)
{
	int highest = 256;
	for (int e = EXC_RESET; e < c->num_exc; e++)
		if (c->exc.active[e] && exc_priority(c, e) < highest)
			highest = exc_priority(c, e);
	highest = exc_group_priority(c, highest);
	int boosted = 256;
	uint32_t basepri = core_reg(c, UC_ARM_REG_BASEPRI) & 0xFFu;
	if (basepri)
		boosted = exc_group_priority(c, (int)(basepri & c->exc.prio_mask));
	if (core_reg(c, UC_ARM_REG_PRIMASK) & 1u)
		boosted = 0;
	if (core_reg(c, UC_ARM_REG_FAULTMASK) & 1u)
		boosted = -1;
	return highest < boosted ? highest : boosted;
}

static bool masked_by_debug(const struct sim_core *c, int exc)
{
	/* C1.6.3 C_MASKINTS: PendSV, SysTick and external interrupts do not preempt. */
	return debug_masking_ints(c) && (exc == EXC_PENDSV || exc >= EXC_SYSTICK);
}

bool exc_any_pending(const struct sim_core *c)
{
	for (int e = EXC_NMI; e < c->num_exc; e++)
		if (c->exc.pending[e] && c->exc.enabled[e] && !masked_by_debug(c, e))
			return true;
	return false;
}

int exc_pending_preempting(struct sim_core *c)
{
	int best = 0, best_prio = 0;
	for (int e = EXC_NMI; e < c->num_exc; e++) {
		if (!c->exc.pending[e] || !c->exc.enabled[e] || masked_by_debug(c, e))
			continue;
		int p = exc_priority(c, e);
		if (!best || p < best_prio) {
			best = e;
			best_prio = p;
		}
	}
	if (!best)
		return 0;
	return exc_group_priority(c, best_prio) < exc_execution_priority(c) ? best : 0;
}

void exc_set_pending(struct sim_core *c, int exc)
{
	if (exc <= 0 || exc >= c->num_exc)
		return;
	c->exc.pending[exc] = true;
	if (c->in_emu && c->cur)
		core_learn_pend_site(c, c->mmio_write_addr);
	core_request_stop(c);
}

bool fp_access_allowed(const struct sim_core *c)
{
	/* CPACR.CP10 (B3.2.20): 0b00 denied, 0b01 privileged, 0b11 full. Unprivileged code with
	 * 0b01 is not modelled (benchmarks run privileged). */
	unsigned cp10 = (c->scb.cpacr >> 20) & 3u;
	return cp10 == 1u || cp10 == 3u;
}

void exc_update_fp_trap(struct sim_core *c)
{
	blk_set_fp_trap(c, !fp_access_allowed(c) || (c->scb.fpccr & FPCCR_LSPACT));
}

static uint32_t read_s(struct sim_core *c, unsigned n)
{
	uint64_t d = 0;
	if (uc_reg_read(c->uc, UC_ARM_REG_D0 + (int)(n / 2), &d) != UC_ERR_OK)
		return 0;
	return (uint32_t)(n & 1 ? d >> 32 : d);
}

static void write_s(struct sim_core *c, unsigned n, uint32_t v)
{
	uint64_t d = 0;
	if (uc_reg_read(c->uc, UC_ARM_REG_D0 + (int)(n / 2), &d) != UC_ERR_OK)
		return;
	if (n & 1)
		d = (d & 0xFFFFFFFFull) | (uint64_t)v << 32;
	else
		d = (d & ~0xFFFFFFFFull) | v;
	(void)uc_reg_write(c->uc, UC_ARM_REG_D0 + (int)(n / 2), &d);
}

uint32_t core_read_s(struct sim_core *c, unsigned n)
{
	return read_s(c, n);
}

void core_write_s(struct sim_core *c, unsigned n, uint32_t v)
{
	write_s(c, n, v);
}

static bool push_word(struct sim_core *c, uint32_t addr, uint32_t v)
{
	return bus_write(c->bus, addr, 4, BUS_CORE, v) == BUS_OK;
}

static bool pop_word(struct sim_core *c, uint32_t addr, uint32_t *v)
{
	return bus_read(c->bus, addr, 4, BUS_CORE, v) == BUS_OK;
}

/* Writes the FP half of an extended frame: S0-S15 and FPSCR (B1.5.7). */
static bool push_fp(struct sim_core *c, uint32_t at)
{
	bool ok = true;
	for (unsigned i = 0; i < 16; i++)
		ok &= push_word(c, at + 4 * i, read_s(c, i));
	ok &= push_word(c, at + 64, core_reg(c, UC_ARM_REG_FPSCR));
	return ok;
}

void exc_preserve_lazy_fp(struct sim_core *c)
{
	/* B1.5.7 PreserveFPState: the first FP instruction in the handler writes the reserved space. */
	if (!push_fp(c, c->scb.fpcar))
		c->scb.cfsr |= CFSR_LSPERR;
	c->scb.fpccr &= ~FPCCR_LSPACT;
	exc_update_fp_trap(c);
}

static void lockup(struct sim_core *c)
{
	/* B1.5.15: a fault at priority -1 or higher: the core stops at 0xEFFFFFFE. */
	c->locked = true;
	c->state = CORE_LOCKUP;
	core_set_pc(c, CORE_LOCKUP_PC);
}

static uint32_t vector_catch_bit(const struct sim_core *c, int exc, uint32_t cfsr_bits)
{
	switch (exc) {
	case EXC_HARDFAULT:
		return DEMCR_VC_HARDERR;
	case EXC_BUSFAULT:
		return DEMCR_VC_BUSERR;
	case EXC_MEMMANAGE:
		return DEMCR_VC_MMERR;
	case EXC_USAGEFAULT:
		if (cfsr_bits & CFSR_NOCP)
			return DEMCR_VC_NOCPERR;
		if (cfsr_bits & (CFSR_UNALIGNED | CFSR_DIVBYZERO))
			return DEMCR_VC_CHKERR;
		return DEMCR_VC_STATERR;
	default:
		(void)c;
		return 0;
	}
}

/* Switch to handler mode for exception `exc`, the frame already written at `frameptr` on the
 * stack the interrupted code used. */
static void enter_handler(struct sim_core *c, int exc, uint32_t frameptr, bool from_thread, uint32_t ctrl)
{
	bool psp = from_thread && (ctrl & CONTROL_SPSEL);
	if (from_thread && (ctrl & CONTROL_NPRIV)) {
		/* MSR to CONTROL is ignored unprivileged: pass through handler mode to clear nPRIV. */
		core_set_reg(c, UC_ARM_REG_IPSR, (uint32_t)exc);
		core_set_reg(c, UC_ARM_REG_CONTROL, ctrl & ~CONTROL_NPRIV);
		core_set_reg(c, UC_ARM_REG_IPSR, 0);
	}
	if (psp) {
		core_set_reg(c, UC_ARM_REG_CONTROL, ctrl & ~(CONTROL_NPRIV | CONTROL_SPSEL)); /* r13 <- MSP */
		core_set_reg(c, UC_ARM_REG_PSP, frameptr);
	} else {
		core_set_reg(c, UC_ARM_REG_SP, frameptr);
	}
	core_set_reg(c, UC_ARM_REG_IPSR, (uint32_t)exc);
	core_set_reg(c, UC_ARM_REG_CONTROL, ctrl & ~(CONTROL_SPSEL | CONTROL_FPCA));
}

static bool jump_to_vector(struct sim_core *c, int exc)
{
	uint32_t vec = 0;
	if (bus_read(c->bus, c->scb.vtor + 4u * (uint32_t)exc, 4, BUS_CORE, &vec) != BUS_OK)
		return false;
	/* EPSR.IT cleared on entry: rewrite xPSR with IPSR kept and the T bit from the vector. */
	uint32_t xpsr = core_reg(c, UC_ARM_REG_XPSR);
	core_set_reg(c, UC_ARM_REG_XPSR, (xpsr & 0xF80F01FFu & ~0x0600FC00u) | 0x01000000u);
	core_set_pc(c, vec & ~1u);
	return true;
}

static void charge_overhead(struct sim_core *c, uint32_t cycles)
{
	c->entry_refill = true; /* the handler or the return address is fetched afresh */
	c->now += cycles;
	dwt_count_exception(c, cycles);
}

static void take(struct sim_core *c, int exc, uint32_t ret_pc, uint32_t vc_bit)
{
	uint32_t ctrl = core_reg(c, UC_ARM_REG_CONTROL);
	bool from_thread = exc_current(c) == 0;
	bool fpca = (ctrl & CONTROL_FPCA) != 0;
	bool lazy = fpca && (c->scb.fpccr & FPCCR_LSPEN);
	uint32_t sp = core_reg(c, UC_ARM_REG_SP);
	uint32_t framesize = fpca ? 0x68u : 0x20u;
	bool force_align = (c->scb.ccr & CCR_STKALIGN) != 0;
	uint32_t align = ((sp >> 2) & 1u) & (force_align ? 1u : 0u);
	uint32_t frameptr = (sp - framesize) & ~(force_align ? 4u : 0u);
	uint32_t xpsr = (core_reg(c, UC_ARM_REG_XPSR) & ~(1u << 9)) | 0x01000000u | (align << 9);
	static const int stacked[6] = {UC_ARM_REG_R0, UC_ARM_REG_R1,  UC_ARM_REG_R2,
	                               UC_ARM_REG_R3, UC_ARM_REG_R12, UC_ARM_REG_LR};
	bool ok = true;
	for (unsigned i = 0; i < 6; i++)
		ok &= push_word(c, frameptr + 4 * i, core_reg(c, stacked[i]));
	ok &= push_word(c, frameptr + 24, ret_pc & ~1u);
	ok &= push_word(c, frameptr + 28, xpsr);
	if (fpca) {
		if (lazy) {
			/* B1.5.7 UpdateFPCCR: reserve the space, stack it when the handler first uses FP. */
			c->scb.fpcar = frameptr + 0x20;
			c->scb.fpccr = (c->scb.fpccr & ~(FPCCR_USER | FPCCR_THREAD)) | FPCCR_LSPACT | FPCCR_HFRDY |
			               (from_thread ? FPCCR_THREAD : 0) |
			               ((ctrl & CONTROL_NPRIV) && from_thread ? FPCCR_USER : 0);
		} else {
			ok &= push_fp(c, frameptr + 0x20);
		}
	}
	if (!ok)
		c->scb.cfsr |= CFSR_STKERR; /* derived fault not modelled further: the handler still runs */
	uint32_t excret = 0xFFFFFFE1u | (fpca ? 0 : 0x10u) | (from_thread ? 0x8u : 0) |
	                  (from_thread && (ctrl & CONTROL_SPSEL) ? 0x4u : 0);
	enter_handler(c, exc, frameptr, from_thread, ctrl);
	core_set_reg(c, UC_ARM_REG_LR, excret);
	charge_overhead(c, cyc_exception_entry(c->cyc, fpca && !lazy));
	c->exc.pending[exc] = false;
	c->exc.active[exc] = true;
	c->exceptions++;
	if (lazy)
		exc_update_fp_trap(c);
	if (!jump_to_vector(c, exc)) {
		c->scb.hfsr |= HFSR_VECTTBL;
		if (exc == EXC_HARDFAULT || exc_execution_priority(c) < 0) {
			lockup(c);
			return;
		}
		c->exc.active[exc] = false;
		take(c, EXC_HARDFAULT, ret_pc, DEMCR_VC_HARDERR);
		return;
	}
	if (vc_bit && debug_vector_catch(c, vc_bit))
		debug_halt(c, DFSR_VCATCH);
}

void exc_take(struct sim_core *c, int exc, uint32_t ret_pc)
{
	if (exc <= 0 || exc >= c->num_exc)
		return;
	c->exc.tail_chain = false;
	take(c, exc, ret_pc, 0);
}

void exc_take_sync(struct sim_core *c, int exc, uint32_t ret_pc)
{
	c->exc.pending[exc] = true;
	if (exc_group_priority(c, exc_priority(c, exc)) < exc_execution_priority(c)) {
		take(c, exc, ret_pc, 0);
		return;
	}
	/* B1.5.14: a synchronous exception that cannot preempt escalates to HardFault. */
	c->exc.pending[exc] = false;
	c->scb.hfsr |= HFSR_FORCED;
	if (exc_execution_priority(c) <= -1) {
		lockup(c);
		return;
	}
	take(c, EXC_HARDFAULT, ret_pc, DEMCR_VC_HARDERR);
}

void exc_fault(struct sim_core *c, int exc, uint32_t cfsr_bits, uint32_t hfsr_bits, uint32_t pc)
{
	core_set_pc(c, pc);
	c->scb.cfsr |= cfsr_bits;
	if (!(cfsr_bits & CFSR_BFARVALID) && exc == EXC_BUSFAULT)
		c->scb.cfsr &= ~CFSR_BFARVALID;
	c->scb.hfsr |= hfsr_bits;
	int target = exc;
	uint32_t vc = vector_catch_bit(c, exc, cfsr_bits);
	if (exc != EXC_HARDFAULT &&
	    (!c->exc.enabled[exc] || exc_group_priority(c, exc_priority(c, exc)) >= exc_execution_priority(c))) {
		target = EXC_HARDFAULT;
		c->scb.hfsr |= HFSR_FORCED;
		vc |= DEMCR_VC_HARDERR;
	}
	if (target == EXC_HARDFAULT && exc_execution_priority(c) <= -1) {
		lockup(c);
		return;
	}
	take(c, target, pc, vc);
}

/* B1.5.8 ExceptionReturn with B1.5.12 tail-chaining. */
void exc_return(struct sim_core *c, uint32_t excret)
{
	int cur = exc_current(c);
	unsigned mode = excret & 0xFu;
	if ((excret & 0xFFFFFFE0u) != 0xFFFFFFE0u || (mode != 0x1u && mode != 0x9u && mode != 0xDu) || cur == 0 ||
	    !c->exc.active[cur]) {
		exc_fault(c, EXC_USAGEFAULT, CFSR_INVPC, 0, excret & ~1u);
		return;
	}
	c->exc.active[cur] = false;
	bool fp_frame = !(excret & 0x10u);
	bool to_thread = (excret & 0x8u) != 0;
	bool to_psp = (excret & 0x4u) != 0;
	int next = exc_pending_preempting(c);
	if (next) {
		/* Tail-chain: the frame stays, the next handler runs with the same EXC_RETURN. */
		charge_overhead(c, cyc_tail_chain(c->cyc));
		c->exc.pending[next] = false;
		c->exc.active[next] = true;
		c->exceptions++;
		core_set_reg(c, UC_ARM_REG_IPSR, (uint32_t)next);
		core_set_reg(c, UC_ARM_REG_LR, excret);
		if (!jump_to_vector(c, next)) {
			c->scb.hfsr |= HFSR_VECTTBL;
			lockup(c);
		}
		return;
	}
	uint32_t ctrl = core_reg(c, UC_ARM_REG_CONTROL);
	uint32_t frameptr = to_psp ? core_reg(c, UC_ARM_REG_PSP) : core_reg(c, UC_ARM_REG_SP);
	uint32_t w[8] = {0};
	bool ok = true;
	for (unsigned i = 0; i < 8; i++)
		ok &= pop_word(c, frameptr + 4 * i, &w[i]);
	bool lazy_pending = fp_frame && (c->scb.fpccr & FPCCR_LSPACT);
	if (fp_frame) {
		if (lazy_pending) {
			c->scb.fpccr &= ~FPCCR_LSPACT; /* the handler never used FP: nothing to restore */
		} else {
			for (unsigned i = 0; i < 16; i++) {
				uint32_t v = 0;
				ok &= pop_word(c, frameptr + 0x20 + 4 * i, &v);
				write_s(c, i, v);
			}
			uint32_t fpscr = 0;
			ok &= pop_word(c, frameptr + 0x60, &fpscr);
			core_set_reg(c, UC_ARM_REG_FPSCR, fpscr);
		}
	}
	if (!ok)
		c->scb.cfsr |= CFSR_UNSTKERR;
	uint32_t sp = frameptr + (fp_frame ? 0x68u : 0x20u);
	if ((c->scb.ccr & CCR_STKALIGN) && (w[7] & (1u << 9)))
		sp |= 4u;
	uint32_t fpca = fp_frame ? CONTROL_FPCA : 0;
	uint32_t xpsr = (w[7] & ~(1u << 9)) | 0x01000000u;
	if (to_psp)
		core_set_reg(c, UC_ARM_REG_PSP, sp);
	else
		core_set_reg(c, UC_ARM_REG_SP, sp);
	if (to_thread) {
		/* Privileged thread mode first, so the CONTROL write may move r13 to PSP. */
		core_set_reg(c, UC_ARM_REG_CONTROL, (ctrl & ~(CONTROL_NPRIV | CONTROL_FPCA)) | fpca);
		core_set_reg(c, UC_ARM_REG_XPSR, xpsr & ~0x1FFu);
		core_set_reg(c, UC_ARM_REG_CONTROL,
		             (ctrl & ~(CONTROL_SPSEL | CONTROL_FPCA)) | fpca | (to_psp ? CONTROL_SPSEL : 0));
	} else {
		core_set_reg(c, UC_ARM_REG_CONTROL, (ctrl & ~CONTROL_FPCA) | fpca);
		core_set_reg(c, UC_ARM_REG_XPSR, xpsr);
	}
	static const int stacked[6] = {UC_ARM_REG_R0, UC_ARM_REG_R1,  UC_ARM_REG_R2,
	                               UC_ARM_REG_R3, UC_ARM_REG_R12, UC_ARM_REG_LR};
	for (unsigned i = 0; i < 6; i++)
		core_set_reg(c, stacked[i], w[i]);
	core_set_pc(c, w[6] & ~1u);
	charge_overhead(c, cyc_exception_return(c->cyc, fp_frame && !lazy_pending));
	exc_update_fp_trap(c);
	/* B1.5.18 SCR.SLEEPONEXIT: back in thread mode the core sleeps as after a WFI (the next
	 * exception is taken from there with a full entry, not the tail-chain silicon may use). */
	if (to_thread && (c->scb.scr & 2u) && !exc_pending_preempting(c))
		c->state = CORE_SLEEPING;
}

uint32_t exc_vtor(const struct sim_core *c)
{
	return c->scb.vtor;
}

bool exc_div0_trap(const struct sim_core *c)
{
	return (c->scb.ccr & CCR_DIV_0_TRP) != 0;
}

void exc_set_bfar(struct sim_core *c, uint32_t addr)
{
	c->scb.bfar = addr;
}

void exc_imprecise_bus_fault(struct sim_core *c)
{
	c->scb.cfsr |= CFSR_IMPRECISERR;
	exc_set_pending(c, EXC_BUSFAULT);
}
