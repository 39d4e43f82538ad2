/* Unaligned loads and stores (core_internal.h): the Cortex-M4 performs an unaligned LDR, LDRH,
 * LDRSH, STR or STRH as aligned accesses, "a byte, a halfword, and a byte" for a word at an odd
 * address (+2 cycles), two halfwords at 2 mod 4 (+1), two bytes for a halfword at an odd address
 * (+1) (TRM r0p1 3.3.2; timing/memops.h cyc_unaligned_extra). Only the run knows an access's
 * address, so a unicorn read/write hook sees every one and charges the extra cycles to the block
 * running (CORE_CHARGE_UNALIGNED), as LSU cycles (Armv7-M ARM C1.8.9: LSUCNT counts the extra
 * cycles of load/store instructions). */
#include "core/core_internal.h"
#include "scs/dwt.h"
#include "timing/memops.h"

static void hook_unaligned(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	(void)uc;
	(void)type;
	(void)value;
	struct sim_core *c = ud;
	unsigned extra = cyc_unaligned_extra((unsigned)size, (uint32_t)address);
	if (!extra)
		return;
	core_charge(c, c->cur ? c->cur->addr : 0, CORE_CHARGE_UNALIGNED, extra);
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
