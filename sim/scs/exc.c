/* Exceptions as the Armv7-M ARM defines them (B1.5): priorities and masking (B1.5.4), entry with
 * stacking (B1.5.6 PushStack, ExceptionTaken), return and tail-chaining (B1.5.8
 * ExceptionReturn, PopStack), the FP context and lazy stacking (B1.5.7, FPCCR B3.2.22), fault
 * escalation to HardFault (B1.5.14, HFSR.FORCED) and lockup (B1.5.15).
 *
 * unicorn 2.0.1 does none of this for M-profile: it stops with interrupt 2 on SVC and 8 on a branch
 * to an EXC_RETURN value, and this file does the rest through register writes. QEMU keeps the
 * current SP in r13 and swaps it with the other stack pointer only when CONTROL.SPSEL is written
 * in privileged thread mode, so the order of the writes below matters. */
#include "bus/bus.h"
#include "scs/debug.h"
#include "scs/dwt.h"
#include "scs/exc.h"
#include "scs/scs_state.h"
#include "timing/cycles.h"

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

/* The basic frame's registers in stacking order (B1.5.6 PushStack), then the return address and xPSR. */
static const enum scs_regno stacked[6] = {SCS_REG_R0,     SCS_REG_R0 + 1,  SCS_REG_R0 + 2,
                                          SCS_REG_R0 + 3, SCS_REG_R0 + 12, SCS_REG_LR};

void exc_reset(struct scs *s)
{
	memset(s->exc.pending, 0, sizeof(s->exc.pending));
	memset(s->exc.active, 0, sizeof(s->exc.active));
	memset(s->exc.enabled, 0, sizeof(s->exc.enabled));
	memset(s->exc.prio, 0, sizeof(s->exc.prio));
	for (int e = EXC_NMI; e < EXC_IRQ0; e++)
		s->exc.enabled[e] = true;
	s->exc.enabled[EXC_MEMMANAGE] = s->exc.enabled[EXC_BUSFAULT] = s->exc.enabled[EXC_USAGEFAULT] = false;
	s->scb.aircr_prigroup = 0;
	s->scb.shcsr = 0;
	s->scb.fpccr = 0xC0000000u; /* ASPEN | LSPEN (B3.2.22) */
	s->exc.tail_chain = false;
}

/* Priority of an exception (B1.5.4): fixed for Reset, NMI, HardFault; otherwise the implemented
 * upper bits of its priority byte. */
int exc_priority(const struct scs *s, int exc)
{
	switch (exc) {
	case EXC_RESET:
		return -3;
	case EXC_NMI:
		return -2;
	case EXC_HARDFAULT:
		return -1;
	default:
		return s->exc.prio[exc] & s->exc.prio_mask;
	}
}

int exc_group_priority(const struct scs *s, int prio)
{
	if (prio < 0)
		return prio;
	unsigned groupvalue = 2u << s->scb.aircr_prigroup;
	return prio - (int)((unsigned)prio % groupvalue);
}

int exc_current(struct scs *s)
{
	return (int)(scs_reg(s, SCS_REG_IPSR) & 0x1FFu);
}

int exc_execution_priority(struct scs *s)
{
	int highest = 256;
	for (int e = EXC_RESET; e < s->num_exc; e++)
		if (s->exc.active[e] && exc_priority(s, e) < highest)
			highest = exc_priority(s, e);
	highest = exc_group_priority(s, highest);
	int boosted = 256;
	uint32_t basepri = scs_reg(s, SCS_REG_BASEPRI) & 0xFFu;
	if (basepri)
		boosted = exc_group_priority(s, (int)(basepri & s->exc.prio_mask));
	if (scs_reg(s, SCS_REG_PRIMASK) & 1u)
		boosted = 0;
	if (scs_reg(s, SCS_REG_FAULTMASK) & 1u)
		boosted = -1;
	return highest < boosted ? highest : boosted;
}

static bool masked_by_debug(const struct scs *s, int exc)
{
	/* C1.6.3 C_MASKINTS: PendSV, SysTick and external interrupts do not preempt. */
	return debug_masking_ints(s) && (exc == EXC_PENDSV || exc >= EXC_SYSTICK);
}

bool exc_any_pending(const struct scs *s)
{
	for (int e = EXC_NMI; e < s->num_exc; e++)
		if (s->exc.pending[e] && s->exc.enabled[e] && !masked_by_debug(s, e))
			return true;
	return false;
}

int exc_pending_preempting(struct scs *s)
{
	int best = 0, best_prio = 0;
	for (int e = EXC_NMI; e < s->num_exc; e++) {
		if (!s->exc.pending[e] || !s->exc.enabled[e] || masked_by_debug(s, e))
			continue;
		int p = exc_priority(s, e);
		if (!best || p < best_prio) {
			best = e;
			best_prio = p;
		}
	}
	if (!best)
		return 0;
	return exc_group_priority(s, best_prio) < exc_execution_priority(s) ? best : 0;
}

bool exc_may_preempt(struct scs *s, int exc)
{
	/* B1.5.4: an exception preempts when enabled and of higher group priority than the execution
	 * priority (which PRIMASK, BASEPRI and FAULTMASK raise). */
	if (exc <= 0 || exc >= s->num_exc || !s->exc.enabled[exc] || masked_by_debug(s, exc))
		return false;
	return exc_group_priority(s, exc_priority(s, exc)) < exc_execution_priority(s);
}

void exc_set_pending(struct scs *s, int exc)
{
	if (exc <= 0 || exc >= s->num_exc)
		return;
	s->exc.pending[exc] = true;
	s->ops->pended(s->core); /* stops the slice; learns the site of a store that pended it */
}

bool fp_access_allowed(const struct scs *s)
{
	/* CPACR.CP10 (B3.2.20): 0b00 denied, 0b01 privileged, 0b11 full. Unprivileged code with
	 * 0b01 is not modelled (benchmarks run privileged). */
	unsigned cp10 = (s->scb.cpacr >> 20) & 3u;
	return cp10 == 1u || cp10 == 3u;
}

void exc_update_fp_trap(struct scs *s)
{
	s->ops->set_fp_trap(s->core, !fp_access_allowed(s) || (s->scb.fpccr & FPCCR_LSPACT));
}

static bool push_word(struct scs *s, uint32_t addr, uint32_t v)
{
	return bus_write(s->bus, addr, 4, BUS_CORE, v) == BUS_OK;
}

static bool pop_word(struct scs *s, uint32_t addr, uint32_t *v)
{
	return bus_read(s->bus, addr, 4, BUS_CORE, v) == BUS_OK;
}

/* Writes the FP half of an extended frame: S0-S15 and FPSCR (B1.5.7). */
static bool push_fp(struct scs *s, uint32_t at)
{
	bool ok = true;
	for (unsigned i = 0; i < 16; i++)
		ok &= push_word(s, at + 4 * i, scs_reg(s, (enum scs_regno)(SCS_REG_S0 + i)));
	ok &= push_word(s, at + 64, scs_reg(s, SCS_REG_FPSCR));
	return ok;
}

void exc_preserve_lazy_fp(struct scs *s)
{
	/* B1.5.7 PreserveFPState: the first FP instruction in the handler writes the reserved space. */
	if (!push_fp(s, s->scb.fpcar))
		s->scb.cfsr |= CFSR_LSPERR;
	s->scb.fpccr &= ~FPCCR_LSPACT;
	exc_update_fp_trap(s);
}

static void lockup(struct scs *s)
{
	/* B1.5.15: a fault at priority -1 or higher: the core stops at 0xEFFFFFFE. */
	s->ops->lockup(s->core);
}

static uint32_t vector_catch_bit(const struct scs *s, int exc, uint32_t cfsr_bits)
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
		(void)s;
		return 0;
	}
}

/* Switch to handler mode for exception `exc`, the frame already written at `frameptr` on the
 * stack the interrupted code used. */
static void enter_handler(struct scs *s, int exc, uint32_t frameptr, bool from_thread, uint32_t ctrl)
{
	bool psp = from_thread && (ctrl & CONTROL_SPSEL);
	if (from_thread && (ctrl & CONTROL_NPRIV)) {
		/* MSR to CONTROL is ignored unprivileged: pass through handler mode to clear nPRIV. */
		scs_set_reg(s, SCS_REG_IPSR, (uint32_t)exc);
		scs_set_reg(s, SCS_REG_CONTROL, ctrl & ~CONTROL_NPRIV);
		scs_set_reg(s, SCS_REG_IPSR, 0);
	}
	if (psp) {
		scs_set_reg(s, SCS_REG_CONTROL, ctrl & ~(CONTROL_NPRIV | CONTROL_SPSEL)); /* r13 <- MSP */
		scs_set_reg(s, SCS_REG_PSP, frameptr);
	} else {
		scs_set_reg(s, SCS_REG_SP, frameptr);
	}
	scs_set_reg(s, SCS_REG_IPSR, (uint32_t)exc);
	scs_set_reg(s, SCS_REG_CONTROL, ctrl & ~(CONTROL_SPSEL | CONTROL_FPCA));
}

static bool jump_to_vector(struct scs *s, int exc)
{
	uint32_t vec = 0;
	if (bus_read(s->bus, s->scb.vtor + 4u * (uint32_t)exc, 4, BUS_CORE, &vec) != BUS_OK)
		return false;
	/* EPSR.IT cleared on entry: rewrite xPSR with IPSR kept and the T bit from the vector. */
	uint32_t xpsr = scs_reg(s, SCS_REG_XPSR);
	scs_set_reg(s, SCS_REG_XPSR, (xpsr & 0xF80F01FFu & ~0x0600FC00u) | 0x01000000u);
	scs_set_reg(s, SCS_REG_PC, vec & ~1u);
	return true;
}

/* The overhead `full` (with the FP frame when fp) of `base` (without it), each part under its
 * ledger reason: `why`, and exc-fp-context for the FP frame's words (B1.5.7). */
static void charge_overhead(struct scs *s, uint32_t base, uint32_t full, enum cyc_why why)
{
	/* the handler or the return address is fetched afresh */
	s->ops->charge_exception(s->core, base, why);
	if (full > base)
		s->ops->charge_exception(s->core, full - base, CYC_WHY_EXC_FP_CONTEXT);
	dwt_count_exception(s, full);
}

static void take(struct scs *s, int exc, uint32_t ret_pc, uint32_t vc_bit)
{
	uint32_t ctrl = scs_reg(s, SCS_REG_CONTROL);
	bool from_thread = exc_current(s) == 0;
	bool fpca = (ctrl & CONTROL_FPCA) != 0;
	bool lazy = fpca && (s->scb.fpccr & FPCCR_LSPEN);
	uint32_t sp = scs_reg(s, SCS_REG_SP);
	uint32_t framesize = fpca ? 0x68u : 0x20u;
	bool force_align = (s->scb.ccr & CCR_STKALIGN) != 0;
	uint32_t align = ((sp >> 2) & 1u) & (force_align ? 1u : 0u);
	uint32_t frameptr = (sp - framesize) & ~(force_align ? 4u : 0u);
	uint32_t xpsr = (scs_reg(s, SCS_REG_XPSR) & ~(1u << 9)) | 0x01000000u | (align << 9);
	bool ok = true;
	for (unsigned i = 0; i < 6; i++)
		ok &= push_word(s, frameptr + 4 * i, scs_reg(s, stacked[i]));
	ok &= push_word(s, frameptr + 24, ret_pc & ~1u);
	ok &= push_word(s, frameptr + 28, xpsr);
	if (fpca) {
		if (lazy) {
			/* B1.5.7 UpdateFPCCR: reserve the space, stack it when the handler first uses FP. */
			s->scb.fpcar = frameptr + 0x20;
			s->scb.fpccr = (s->scb.fpccr & ~(FPCCR_USER | FPCCR_THREAD)) | FPCCR_LSPACT | FPCCR_HFRDY |
			               (from_thread ? FPCCR_THREAD : 0) |
			               ((ctrl & CONTROL_NPRIV) && from_thread ? FPCCR_USER : 0);
		} else {
			ok &= push_fp(s, frameptr + 0x20);
		}
	}
	if (!ok)
		s->scb.cfsr |= CFSR_STKERR; /* derived fault not modelled further: the handler still runs */
	uint32_t excret = 0xFFFFFFE1u | (fpca ? 0 : 0x10u) | (from_thread ? 0x8u : 0) |
	                  (from_thread && (ctrl & CONTROL_SPSEL) ? 0x4u : 0);
	enter_handler(s, exc, frameptr, from_thread, ctrl);
	scs_set_reg(s, SCS_REG_LR, excret);
	charge_overhead(s, cyc_exception_entry(s->cyc, false), cyc_exception_entry(s->cyc, fpca && !lazy),
	                CYC_WHY_EXC_ENTRY);
	s->exc.pending[exc] = false;
	s->exc.active[exc] = true;
	s->exc.taken++;
	if (lazy)
		exc_update_fp_trap(s);
	if (!jump_to_vector(s, exc)) {
		s->scb.hfsr |= HFSR_VECTTBL;
		if (exc == EXC_HARDFAULT || exc_execution_priority(s) < 0) {
			lockup(s);
			return;
		}
		s->exc.active[exc] = false;
		take(s, EXC_HARDFAULT, ret_pc, DEMCR_VC_HARDERR);
		return;
	}
	if (vc_bit && debug_vector_catch(s, vc_bit))
		debug_halt(s, DFSR_VCATCH);
}

void exc_take(struct scs *s, int exc, uint32_t ret_pc)
{
	if (exc <= 0 || exc >= s->num_exc)
		return;
	s->exc.tail_chain = false;
	take(s, exc, ret_pc, 0);
}

void exc_take_sync(struct scs *s, int exc, uint32_t ret_pc)
{
	s->exc.pending[exc] = true;
	if (exc_group_priority(s, exc_priority(s, exc)) < exc_execution_priority(s)) {
		take(s, exc, ret_pc, 0);
		return;
	}
	/* B1.5.14: a synchronous exception that cannot preempt escalates to HardFault. */
	s->exc.pending[exc] = false;
	s->scb.hfsr |= HFSR_FORCED;
	if (exc_execution_priority(s) <= -1) {
		lockup(s);
		return;
	}
	take(s, EXC_HARDFAULT, ret_pc, DEMCR_VC_HARDERR);
}

void exc_fault(struct scs *s, int exc, uint32_t cfsr_bits, uint32_t hfsr_bits, uint32_t pc)
{
	scs_set_reg(s, SCS_REG_PC, pc);
	s->scb.cfsr |= cfsr_bits;
	if (!(cfsr_bits & CFSR_BFARVALID) && exc == EXC_BUSFAULT)
		s->scb.cfsr &= ~CFSR_BFARVALID;
	s->scb.hfsr |= hfsr_bits;
	int target = exc;
	uint32_t vc = vector_catch_bit(s, exc, cfsr_bits);
	if (exc != EXC_HARDFAULT &&
	    (!s->exc.enabled[exc] || exc_group_priority(s, exc_priority(s, exc)) >= exc_execution_priority(s))) {
		target = EXC_HARDFAULT;
		s->scb.hfsr |= HFSR_FORCED;
		vc |= DEMCR_VC_HARDERR;
	}
	if (target == EXC_HARDFAULT && exc_execution_priority(s) <= -1) {
		lockup(s);
		return;
	}
	take(s, target, pc, vc);
}

/* B1.5.8 ExceptionReturn with B1.5.12 tail-chaining. */
void exc_return(struct scs *s, uint32_t excret)
{
	int cur = exc_current(s);
	unsigned mode = excret & 0xFu;
	if ((excret & 0xFFFFFFE0u) != 0xFFFFFFE0u || (mode != 0x1u && mode != 0x9u && mode != 0xDu) || cur == 0 ||
	    !s->exc.active[cur]) {
		exc_fault(s, EXC_USAGEFAULT, CFSR_INVPC, 0, excret & ~1u);
		return;
	}
	s->exc.active[cur] = false;
	bool fp_frame = !(excret & 0x10u);
	bool to_thread = (excret & 0x8u) != 0;
	bool to_psp = (excret & 0x4u) != 0;
	int next = exc_pending_preempting(s);
	if (next) {
		/* Tail-chain: the frame stays, the next handler runs with the same EXC_RETURN. */
		charge_overhead(s, cyc_tail_chain(s->cyc), cyc_tail_chain(s->cyc), CYC_WHY_EXC_TAIL_CHAIN);
		s->exc.pending[next] = false;
		s->exc.active[next] = true;
		s->exc.taken++;
		scs_set_reg(s, SCS_REG_IPSR, (uint32_t)next);
		scs_set_reg(s, SCS_REG_LR, excret);
		if (!jump_to_vector(s, next)) {
			s->scb.hfsr |= HFSR_VECTTBL;
			lockup(s);
		}
		return;
	}
	uint32_t ctrl = scs_reg(s, SCS_REG_CONTROL);
	uint32_t frameptr = to_psp ? scs_reg(s, SCS_REG_PSP) : scs_reg(s, SCS_REG_SP);
	uint32_t w[8] = {0};
	bool ok = true;
	for (unsigned i = 0; i < 8; i++)
		ok &= pop_word(s, frameptr + 4 * i, &w[i]);
	bool lazy_pending = fp_frame && (s->scb.fpccr & FPCCR_LSPACT);
	if (fp_frame) {
		if (lazy_pending) {
			s->scb.fpccr &= ~FPCCR_LSPACT; /* the handler never used FP: nothing to restore */
		} else {
			for (unsigned i = 0; i < 16; i++) {
				uint32_t v = 0;
				ok &= pop_word(s, frameptr + 0x20 + 4 * i, &v);
				scs_set_reg(s, (enum scs_regno)(SCS_REG_S0 + i), v);
			}
			uint32_t fpscr = 0;
			ok &= pop_word(s, frameptr + 0x60, &fpscr);
			scs_set_reg(s, SCS_REG_FPSCR, fpscr);
		}
	}
	if (!ok)
		s->scb.cfsr |= CFSR_UNSTKERR;
	uint32_t sp = frameptr + (fp_frame ? 0x68u : 0x20u);
	if ((s->scb.ccr & CCR_STKALIGN) && (w[7] & (1u << 9)))
		sp |= 4u;
	uint32_t fpca = fp_frame ? CONTROL_FPCA : 0;
	uint32_t xpsr = (w[7] & ~(1u << 9)) | 0x01000000u;
	if (to_psp)
		scs_set_reg(s, SCS_REG_PSP, sp);
	else
		scs_set_reg(s, SCS_REG_SP, sp);
	if (to_thread) {
		/* Privileged thread mode first, so the CONTROL write may move r13 to PSP. */
		scs_set_reg(s, SCS_REG_CONTROL, (ctrl & ~(CONTROL_NPRIV | CONTROL_FPCA)) | fpca);
		scs_set_reg(s, SCS_REG_XPSR, xpsr & ~0x1FFu);
		scs_set_reg(s, SCS_REG_CONTROL,
		            (ctrl & ~(CONTROL_SPSEL | CONTROL_FPCA)) | fpca | (to_psp ? CONTROL_SPSEL : 0));
	} else {
		scs_set_reg(s, SCS_REG_CONTROL, (ctrl & ~CONTROL_FPCA) | fpca);
		scs_set_reg(s, SCS_REG_XPSR, xpsr);
	}
	for (unsigned i = 0; i < 6; i++)
		scs_set_reg(s, stacked[i], w[i]);
	scs_set_reg(s, SCS_REG_PC, w[6] & ~1u);
	charge_overhead(s, cyc_exception_return(s->cyc, false), cyc_exception_return(s->cyc, fp_frame && !lazy_pending),
	                CYC_WHY_EXC_RETURN);
	exc_update_fp_trap(s);
	/* B1.5.18 SCR.SLEEPONEXIT: back in thread mode the core sleeps as after a WFI (the next
	 * exception is taken from there with a full entry, not the tail-chain silicon may use). */
	if (to_thread && (s->scb.scr & 2u) && !exc_pending_preempting(s))
		s->ops->sleep(s->core);
}

uint64_t exc_taken(const struct scs *s)
{
	return s->exc.taken;
}

uint32_t exc_vtor(const struct scs *s)
{
	return s->scb.vtor;
}

bool exc_div0_trap(const struct scs *s)
{
	return (s->scb.ccr & CCR_DIV_0_TRP) != 0;
}

void exc_set_bfar(struct scs *s, uint32_t addr)
{
	s->scb.bfar = addr;
}

void exc_imprecise_bus_fault(struct scs *s)
{
	s->scb.cfsr |= CFSR_IMPRECISERR;
	exc_set_pending(s, EXC_BUSFAULT);
}
