/* bench-sim --record's view into the core (core.h struct core_rec_ops, docs/sim-record.md): which
 * instructions ran, calls, branches that may be returns, exception changes, the lowest stack
 * pointers, and the point where Debug state becomes visible. Present only while a recorder is
 * set: then a second block hook (after the clock's, core_clock.c) and a code hook on every
 * instruction; without one, the run has neither and the few places below that call in (a stop,
 * an exception, a reset, a halt, never per block) test one pointer.
 *
 * A block is counted once it is known how far it ran: at the next block's hook (all of it), at a
 * stop (core_settle: up to the first instruction not run), at an exception, a halt or when its
 * translation is dropped (all of it: the core only stops between blocks then). Its last
 * instruction says whether the move to the next block is a call (BL, BLX: Armv7-M ARM A7.7.18,
 * A7.7.19) or another taken branch, which the recorder checks against the return addresses. */
#include "core/core_internal.h"
#include "scs/dwt.h"

#include <stdio.h>

enum rec_end {
	REC_END_OTHER = 0,
	REC_END_MSR,    /* MSR (A7.7.83, B5.2.3): may move thread mode between MSP and PSP */
	REC_END_CALL,   /* BL, BLX (register): A7.7.18 T1, A7.7.19 T1 */
	REC_END_RETURN, /* a branch that may be a return: BX (A7.7.20), POP/LDM with PC (A7.7.99, A7.7.41,
	                 * A7.7.42), LDR PC (A7.7.43-45), MOV PC / ADD PC, Rm (A7.7.77, A7.7.4) */
};

/* How the block's last instruction leaves it. */
static enum rec_end block_end(const struct core_blk *b)
{
	const struct cyc_block *cb = b->cb;
	if (!cb->n_insn || !b->copy)
		return REC_END_OTHER;
	uint32_t off = cb->insn_offset[cb->n_insn - 1];
	uint16_t hw1 = (uint16_t)(b->copy[off] | b->copy[off + 1] << 8);
	if ((hw1 & 0xFF87u) == 0x4780u)
		return REC_END_CALL;
	if ((hw1 & 0xFF87u) == 0x4700u || (hw1 & 0xFF00u) == 0xBD00u || (hw1 & 0xFF87u) == 0x4687u ||
	    (hw1 & 0xFF87u) == 0x4487u)
		return REC_END_RETURN;
	if (off + 4 > b->size)
		return REC_END_OTHER;
	uint16_t hw2 = (uint16_t)(b->copy[off + 2] | b->copy[off + 3] << 8);
	if (((hw1 & 0xFFF0u) == 0xF380u && (hw2 & 0xD000u) == 0x8000u) ||
	    (hw1 == 0xF3BFu && (hw2 & 0xFFF0u) == 0x8F60u))
		return REC_END_MSR; /* or an ISB (A7.7.37), which an MSR to CONTROL needs (B5.2.3) */
	if ((hw1 & 0xF800u) == 0xF000u && (hw2 & 0xD000u) == 0xD000u)
		return REC_END_CALL;
	if (((hw1 & 0xFFD0u) == 0xE890u || (hw1 & 0xFFD0u) == 0xE910u) && (hw2 & 0x8000u))
		return REC_END_RETURN;
	if ((hw1 & 0xFF70u) == 0xF850u && (hw2 >> 12) == 0xFu)
		return REC_END_RETURN;
	return REC_END_OTHER;
}

/* A stack pointer in use: R13 when `current`, else the banked MSP or PSP (unicorn reads either). */
static void note_sp(struct sim_core *c, bool psp, bool current)
{
	uint32_t sp = core_reg(c, current ? UC_ARM_REG_R13 : psp ? UC_ARM_REG_PSP : UC_ARM_REG_MSP);
	uint32_t *min = psp ? &c->rec_psp_min : &c->rec_msp_min;
	if (sp < *min)
		*min = sp;
}

/* Which stack R13 is (B1.4.7: PSP in thread mode with CONTROL.SPSEL set). It changes only at an
 * exception entry or return, a reset, a debugger's write, or an MSR, which ends its block
 * (QEMU's trans_MSR_v7m looks the next block up afresh): it is read again at each of those,
 * so the hook on every instruction reads R13 alone. */
static void note_stack(struct sim_core *c)
{
	c->rec_psp = (core_reg(c, UC_ARM_REG_IPSR) & 0x1FFu) == 0 && (core_reg(c, UC_ARM_REG_CONTROL) & 2u);
}

/* The block the recorder saw start ran to its end; execution goes on at next_pc. */
static void resolve(struct sim_core *c, uint32_t next_pc)
{
	const struct core_blk *b = c->rec_prev;
	if (!b)
		return;
	c->rec_prev = NULL;
	c->rec->ran(c->rec_ctx, b->addr, b->cb->insn_offset, b->cb->n_insn);
	uint32_t ft = b->cb->fallthrough;
	enum rec_end e = block_end(b);
	if (e == REC_END_MSR)
		note_stack(c);
	if (next_pc == ft)
		return;
	if (e == REC_END_CALL)
		c->rec->call(c->rec_ctx, next_pc, ft);
	else if (e == REC_END_RETURN)
		c->rec->branch(c->rec_ctx, next_pc);
}

static void exceptions_changed(struct sim_core *c, uint32_t pc)
{
	c->rec_exc = false;
	unsigned ipsr = core_reg(c, UC_ARM_REG_IPSR) & 0x1FFu;
	c->rec->exceptions(c->rec_ctx, ipsr, c->scs.exc.active, (unsigned)c->num_exc, pc);
}

/* After the clock's block hook: the block at `address` runs now unless that hook stopped. */
static void hook_rec_block(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	(void)uc;
	(void)size;
	struct sim_core *c = ud;
	if (!c->cur || c->cur->addr != (uint32_t)address)
		return;
	resolve(c, (uint32_t)address);
	if (c->rec_exc)
		exceptions_changed(c, (uint32_t)address);
	c->rec->begin(c->rec_ctx, (uint32_t)address);
	c->rec_prev = c->cur;
}

/* Before every instruction: SP as the one before left it (the stack pointer writes: PUSH, SUB SP,
 * STMDB, MSR MSP/PSP... A7.7, B5.2.3), on the stack note_stack() last found in use. R13 alone:
 * reading MSP or PSP goes through unicorn's MRS helper, a third of the run when done here. */
static void hook_rec_sp(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	(void)uc;
	(void)address;
	(void)size;
	struct sim_core *c = ud;
	uint32_t sp = core_reg(c, UC_ARM_REG_R13);
	uint32_t *min = c->rec_psp ? &c->rec_psp_min : &c->rec_msp_min;
	if (sp < *min)
		*min = sp;
}

void core_rec_settle(struct sim_core *c, const struct core_blk *b, int ran, uint32_t pc)
{
	if (c->rec_prev != b) {
		resolve(c, b->addr); /* not seen starting: nothing of it counted yet */
		c->rec_prev = b;
	}
	if (ran >= b->cb->n_insn) {
		resolve(c, pc);
		return;
	}
	c->rec_prev = NULL;
	if (ran > 0)
		c->rec->ran(c->rec_ctx, b->addr, b->cb->insn_offset, (unsigned)ran);
}

void core_rec_dropped(struct sim_core *c, const struct core_blk *b)
{
	if (c->rec_prev == b)
		resolve(c, core_pc(c));
}

void core_rec_exception(struct sim_core *c)
{
	/* The block before ran (a call's branch included: the exception returns to its target). */
	resolve(c, core_pc(c));
	c->rec_exc = true;
	c->rec->exc_charge(c->rec_ctx);
	/* An entry: the frame just pushed on the stack the interrupted code used (B1.5.6), then
	 * the handler's; a return or tail-chain raises both. */
	note_sp(c, c->rec_psp, false);
	note_stack(c);
	note_sp(c, c->rec_psp, true);
}

void core_rec_reset(struct sim_core *c, uint32_t pc)
{
	c->rec_prev = NULL;
	c->rec_exc = false;
	c->rec->reset(c->rec_ctx, pc);
	note_stack(c);
	note_sp(c, c->rec_psp, true);
}

static int flush_halt(struct sim_core *c)
{
	c->rec_halted = false;
	resolve(c, core_pc(c));
	if (c->rec_exc)
		exceptions_changed(c, core_pc(c));
	note_sp(c, c->rec_psp, true); /* after the last instruction */
	if (c->rec->halt(c->rec_ctx, dwt_cyccnt(&c->scs, c->now)) != 0) {
		c->rec_failed = true;
		return -1;
	}
	return 0;
}

void core_rec_halted(struct sim_core *c)
{
	c->rec_halted = true;
}

void core_rec_halt_seen(struct sim_core *c)
{
	if (c->rec_halted)
		(void)flush_halt(c);
}

void core_rec_resume(struct sim_core *c)
{
	if (c->rec_halted)
		(void)flush_halt(c);
	/* From the stack in use now; the other counts once used (the debugger may have written
	 * CONTROL or xPSR meanwhile). */
	c->rec_msp_min = c->rec_psp_min = UINT32_MAX;
	note_stack(c);
	note_sp(c, c->rec_psp, true);
}

int core_rec_finish(struct sim_core *c)
{
	if (c->rec && c->rec_halted && flush_halt(c) != 0)
		return -1;
	return c->rec_failed ? -1 : 0;
}

void core_rec_sp_min(struct sim_core *c, uint32_t *msp, uint32_t *psp)
{
	/* A stack not used in the interval: its value now. */
	*msp = c->rec_msp_min != UINT32_MAX ? c->rec_msp_min : core_reg(c, UC_ARM_REG_MSP);
	*psp = c->rec_psp_min != UINT32_MAX ? c->rec_psp_min : core_reg(c, UC_ARM_REG_PSP);
}

int core_set_recorder(struct sim_core *c, const struct core_rec_ops *ops, void *ctx, char *err, size_t errlen)
{
	if (c->rec_block_hook)
		(void)uc_hook_del(c->uc, c->rec_block_hook);
	if (c->rec_sp_hook)
		(void)uc_hook_del(c->uc, c->rec_sp_hook);
	c->rec_block_hook = c->rec_sp_hook = 0;
	c->rec = NULL;
	c->rec_prev = NULL;
	if (!ops)
		return 0;
	/* Added after the clock's block hook (core_new): unicorn calls hooks in the order added. */
	if (uc_hook_add(c->uc, &c->rec_block_hook, UC_HOOK_BLOCK, (void *)hook_rec_block, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &c->rec_sp_hook, UC_HOOK_CODE, (void *)hook_rec_sp, c, 1, 0) != UC_ERR_OK) {
		(void)snprintf(err, errlen, "unicorn refused the recorder's hooks");
		(void)core_set_recorder(c, NULL, NULL, err, errlen);
		return -1;
	}
	c->rec = ops;
	c->rec_ctx = ctx;
	c->rec_exc = false;
	c->rec_halted = false;
	c->rec_failed = false;
	c->rec_msp_min = c->rec_psp_min = UINT32_MAX;
	note_stack(c);
	note_sp(c, c->rec_psp, true);
	ops->reset(ctx, core_pc(c)); /* the root: where the core starts */
	return 0;
}

bool core_rec_failed(const struct sim_core *c)
{
	return c->rec_failed;
}
