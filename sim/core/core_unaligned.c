/* Unaligned loads and stores (core_internal.h): the Cortex-M4 performs an unaligned LDR, LDRH,
 * LDRSH, STR or STRH as aligned accesses, "a byte, a halfword, and a byte" for a word at an odd
 * address (+2 cycles), two halfwords at 2 mod 4 (+1), two bytes for a halfword at an odd address
 * (+1) (TRM r0p1 3.3.2; timing/memops.h cyc_unaligned_extra). Only the run knows an access's
 * address, so a unicorn read/write hook sees every one and charges the extra cycles to the
 * instruction that made it (CORE_CHARGE_UNALIGNED), as LSU cycles (Armv7-M ARM C1.8.9: LSUCNT
 * counts the extra cycles of load/store instructions). */
#include "core/core_blocks.h"
#include "core/core_internal.h"
#include "scs/dwt.h"
#include "timing/memops.h"

/* The instruction of the running block that made an access of `size` bytes at addr: unicorn 2.0.1
 * leaves PC stale inside a memory hook (timing/memops.h), but the registers are the instruction's
 * own, so the first single load or store of that size whose operand, from them, is addr. The
 * block's first instruction when none is (a --record or ledger by address would show the cycles
 * there; the total is the same). */
static uint32_t access_pc(struct sim_core *c, const struct core_blk *b, uint32_t addr, unsigned size)
{
	for (unsigned k = 0; k < b->n_memops; k++) {
		const struct cyc_memop *m = &b->memops[k];
		if (m->span != size || !m->base || m->down)
			continue;
		uint32_t ea = blk_reg_value(c, b, m->idx, m->base) + (uint32_t)m->disp;
		if (m->index) {
			uint32_t iv = blk_reg_value(c, b, m->idx, m->index) << m->lshift;
			ea += m->scale < 0 ? (uint32_t)-iv : iv;
		}
		if (ea == addr)
			return b->addr + b->cb->insn_offset[m->idx];
	}
	return b->addr;
}

static void hook_unaligned(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	(void)uc;
	(void)type;
	(void)value;
	struct sim_core *c = ud;
	unsigned extra = cyc_unaligned_extra((unsigned)size, (uint32_t)address);
	if (!extra)
		return;
	core_charge(c, c->cur ? access_pc(c, c->cur, (uint32_t)address, (unsigned)size) : 0, CORE_CHARGE_UNALIGNED,
	            extra);
	if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
		dwt_count_lsu(&c->scs, extra);
}

int core_unaligned_hooks(struct sim_core *c)
{
	uc_hook h;
	return uc_hook_add(c->uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, (void *)hook_unaligned, c, 1, 0) ==
	               UC_ERR_OK
	           ? 0
	           : -1;
}
