/* The core's side of the seam to the system-control-space devices (scs/scs_state.h): the
 * registers, the cycle count, the run state and the unicorn hooks they ask for. The devices keep
 * their state in c->scs and never see struct sim_core or unicorn. */
#include "core/core_internal.h"
#include "core/core_blk_hooks.h"
#include "core/core_blocks.h"
#include "scs/dwt.h"
#include "scs/fpb.h"

static struct sim_core *core_of(void *core)
{
	return core;
}

/* unicorn's id of each register the devices name (enum scs_regno), S0-S31 aside. */
static const int uc_regs[SCS_REG_S0] = {
    [SCS_REG_R0] = UC_ARM_REG_R0,           [SCS_REG_R0 + 1] = UC_ARM_REG_R1,
    [SCS_REG_R0 + 2] = UC_ARM_REG_R2,       [SCS_REG_R0 + 3] = UC_ARM_REG_R3,
    [SCS_REG_R0 + 4] = UC_ARM_REG_R4,       [SCS_REG_R0 + 5] = UC_ARM_REG_R5,
    [SCS_REG_R0 + 6] = UC_ARM_REG_R6,       [SCS_REG_R0 + 7] = UC_ARM_REG_R7,
    [SCS_REG_R0 + 8] = UC_ARM_REG_R8,       [SCS_REG_R0 + 9] = UC_ARM_REG_R9,
    [SCS_REG_R0 + 10] = UC_ARM_REG_R10,     [SCS_REG_R0 + 11] = UC_ARM_REG_R11,
    [SCS_REG_R0 + 12] = UC_ARM_REG_R12,     [SCS_REG_SP] = UC_ARM_REG_SP,
    [SCS_REG_LR] = UC_ARM_REG_LR,           [SCS_REG_PC] = UC_ARM_REG_PC,
    [SCS_REG_XPSR] = UC_ARM_REG_XPSR,       [SCS_REG_MSP] = UC_ARM_REG_MSP,
    [SCS_REG_PSP] = UC_ARM_REG_PSP,         [SCS_REG_IPSR] = UC_ARM_REG_IPSR,
    [SCS_REG_CONTROL] = UC_ARM_REG_CONTROL, [SCS_REG_PRIMASK] = UC_ARM_REG_PRIMASK,
    [SCS_REG_BASEPRI] = UC_ARM_REG_BASEPRI, [SCS_REG_FAULTMASK] = UC_ARM_REG_FAULTMASK,
    [SCS_REG_FPSCR] = UC_ARM_REG_FPSCR,
};

static uint32_t op_reg(void *core, enum scs_regno r)
{
	struct sim_core *c = core_of(core);
	if (r >= SCS_REG_S0)
		return core_read_s(c, (unsigned)(r - SCS_REG_S0));
	if (r == SCS_REG_PC)
		return core_pc(c);
	return core_reg(c, uc_regs[r]);
}

static void op_set_reg(void *core, enum scs_regno r, uint32_t v)
{
	struct sim_core *c = core_of(core);
	if (r >= SCS_REG_S0)
		core_write_s(c, (unsigned)(r - SCS_REG_S0), v);
	else if (r == SCS_REG_PC)
		core_set_pc(c, v);
	else
		core_set_reg(c, uc_regs[r], v);
}

static uint64_t op_now(void *core, uint32_t access_addr)
{
	return core_now(core_of(core), access_addr);
}

static uint64_t op_cycles(void *core)
{
	return core_of(core)->now;
}

static void op_request_stop(void *core)
{
	core_request_stop(core_of(core));
}

/* Read by the program itself (an MMIO load during emulation): its own PC, as before; by the
 * debugger between slices: a sample of the last slice. */
static uint32_t op_pc_sample(void *core)
{
	struct sim_core *c = core_of(core);
	return c->in_emu ? core_pc(c) : core_pcsr_sample(c);
}

static enum scs_cpu op_cpu(void *core)
{
	switch (core_of(core)->state) {
	case CORE_HALTED:
		return SCS_CPU_HALTED;
	case CORE_SLEEPING:
		return SCS_CPU_SLEEPING;
	case CORE_LOCKUP:
		return SCS_CPU_LOCKUP;
	case CORE_RUNNING:
	default:
		return SCS_CPU_RUNNING;
	}
}

static bool op_locked(void *core)
{
	return core_of(core)->locked;
}

static void op_halt(void *core)
{
	struct sim_core *c = core_of(core);
	/* A resumed run is measured from its first instruction (docs/cycle-model.md). */
	c->entry_refill = false;
	c->fetch_next = CYC_FETCH_FULL;
	if (c->state == CORE_HALTED)
		return;
	c->state = CORE_HALTED;
	c->halts++;
	if (c->rec)
		core_rec_halted(c);
}

/* DHCSR read with S_HALT set: the debugger sees the halt now, the record must be in the file. */
static void op_halt_seen(void *core)
{
	struct sim_core *c = core_of(core);
	if (c->rec)
		core_rec_halt_seen(c);
}

static void op_resume(void *core)
{
	struct sim_core *c = core_of(core);
	if (c->rec)
		core_rec_resume(c); /* before code is dropped: the last block is counted first */
	(void)blk_check_rewritten(c);
	c->state = c->locked ? CORE_LOCKUP : CORE_RUNNING;
}

static void op_sleep(void *core)
{
	core_of(core)->state = CORE_SLEEPING;
}

static void op_lockup(void *core)
{
	struct sim_core *c = core_of(core);
	c->locked = true;
	c->state = CORE_LOCKUP;
	core_set_pc(c, CORE_LOCKUP_PC);
}

static void op_charge_exception(void *core, uint32_t cycles, unsigned why)
{
	struct sim_core *c = core_of(core);
	c->entry_refill = true; /* the handler or the return address is fetched afresh */
	if (c->rec)
		core_rec_exception(c);
	core_charge(c, c->ledger ? core_pc(c) : 0, (enum core_charge_why)why, cycles);
}

static void op_pended(void *core)
{
	struct sim_core *c = core_of(core);
	if (c->in_emu && c->cur)
		core_learn_pend_site(c, c->mmio_write_addr);
	core_request_stop(c);
}

static void op_set_fp_trap(void *core, bool trap)
{
	blk_set_fp_trap(core_of(core), trap);
}

static void op_step(void *core)
{
	core_step(core_of(core));
}

static void op_local_reset(void *core, bool system)
{
	core_local_reset(core_of(core), system);
}

/* A code hook on an address the FPB or a DWT PC comparator halts at (C1.11, C1.8.17): halt
 * before the instruction. */
static void hook_bp(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	(void)size;
	enum scs_point p = fpb_point_at(&c->scs, (uint32_t)address);
	if (p == SCS_POINT_NONE)
		return;
	c->stop = p == SCS_POINT_FPB ? STOP_FPB : STOP_DWT;
	c->stop_pc = (uint32_t)address;
	(void)uc_emu_stop(uc);
}

/* A data access inside a watched range (C1.8.17): the Cortex-M4 halts imprecisely, after the
 * access completes; here at the end of the block, never from inside the memory callback (see
 * core_request_stop). */
static void hook_watch(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	struct sim_core *c = ud;
	(void)uc, (void)value;
	uint32_t lo = (uint32_t)address, hi = lo + (uint32_t)(size > 0 ? size - 1 : 0);
	if (dwt_watch_access(&c->scs, type == UC_MEM_WRITE, lo, hi))
		core_request_stop(c);
}

static void op_set_points(void *core, const uint32_t *pcs, unsigned n_pcs, const struct scs_watch *w, unsigned n_w)
{
	struct sim_core *c = core_of(core);
	for (unsigned i = 0; i < c->n_bp_hooks; i++)
		(void)uc_hook_del(c->uc, c->bp_hooks[i]);
	for (unsigned i = 0; i < c->n_bp; i++)
		(void)uc_ctl_remove_cache(c->uc, c->bp[i], (uint64_t)c->bp[i] + 2);
	c->n_bp_hooks = 0;
	c->n_bp = 0;
	bool changed = c->n_wp_hooks != 0;
	for (unsigned i = 0; i < c->n_wp_hooks; i++)
		(void)uc_hook_del(c->uc, c->wp_hooks[i]);
	c->n_wp_hooks = 0;
	for (unsigned i = 0; i < n_w && i < CORE_DWT_NUM_COMP; i++) {
		int type = (w[i].read ? UC_HOOK_MEM_READ : 0) | (w[i].write ? UC_HOOK_MEM_WRITE : 0);
		if (uc_hook_add(c->uc, &c->wp_hooks[c->n_wp_hooks], type, (void *)hook_watch, c, w[i].lo, w[i].hi) ==
		    UC_ERR_OK) {
			c->n_wp_hooks++;
			changed = true;
		}
	}
	if (changed)
		blk_retranslate_all(c); /* translations made before carry no memory-hook calls */
	for (unsigned i = 0; i < n_pcs && i < sizeof(c->bp) / sizeof(c->bp[0]); i++) {
		uint32_t a = pcs[i];
		c->bp[c->n_bp++] = a;
		if (uc_hook_add(c->uc, &c->bp_hooks[c->n_bp_hooks], UC_HOOK_CODE, (void *)hook_bp, c, a, a) ==
		    UC_ERR_OK)
			c->n_bp_hooks++;
		(void)uc_ctl_remove_cache(c->uc, a, (uint64_t)a + 2);
	}
}

const struct scs_core_ops core_scs_ops = {
    .reg = op_reg,
    .set_reg = op_set_reg,
    .now = op_now,
    .cycles = op_cycles,
    .request_stop = op_request_stop,
    .cpu = op_cpu,
    .pc_sample = op_pc_sample,
    .locked = op_locked,
    .halt = op_halt,
    .halt_seen = op_halt_seen,
    .resume = op_resume,
    .sleep = op_sleep,
    .lockup = op_lockup,
    .charge_exception = op_charge_exception,
    .pended = op_pended,
    .set_fp_trap = op_set_fp_trap,
    .step = op_step,
    .local_reset = op_local_reset,
    .set_points = op_set_points,
};
