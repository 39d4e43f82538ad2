/* The Data Watchpoint and Trace unit at 0xE0001000 (Armv7-M ARM C1.8; Cortex-M4 TRM 8.3):
 * CTRL with NUMCOMP = 4, the profiling counters at their real widths (CYCCNT 32 bits, CPICNT,
 * EXCCNT, SLEEPCNT, LSUCNT, FOLDCNT 8 bits that wrap), PCSR, and comparators 0-3 of which the
 * instruction-address match (FUNCTION = 4) halts the core with DFSR.DWTTRAP (fpb.c installs it),
 * as do data-address matches (FUNCTION 5-7, after the access: memory hooks on the watched range). Everything counts
 * only with DEMCR.TRCENA (C1.6.5).
 *
 * CYCCNT is kept lazily: the value at a sync point plus the core cycles since, so the running core
 * pays nothing for it. */
#include "core/core_internal.h"
#include "scs/romtable.h"

#include <string.h>

#define CTRL_CYCCNTENA   (1u << 0)
#define CTRL_CPIEVTENA   (1u << 17)
#define CTRL_EXCEVTENA   (1u << 18)
#define CTRL_SLEEPEVTENA (1u << 19)
#define CTRL_LSUEVTENA   (1u << 20)
#define CTRL_FOLDEVTENA  (1u << 21)
#define CTRL_WRITABLE    0x007F1FFFu
#define CTRL_NUMCOMP     (4u << 28)

void dwt_power_on(struct sim_core *c)
{
	for (unsigned i = 0; i < c->dwt.n_wp_hooks; i++)
		(void)uc_hook_del(c->uc, c->dwt.wp_hooks[i]);
	memset(&c->dwt, 0, sizeof(c->dwt));
	c->dwt.cyc_sync = c->now;
}

static bool on(const struct sim_core *c, uint32_t enable)
{
	return debug_trcena(c) && (c->dwt.ctrl & enable);
}

uint32_t dwt_cyccnt(struct sim_core *c, uint64_t now)
{
	if (!on(c, CTRL_CYCCNTENA))
		return c->dwt.cyccnt;
	return c->dwt.cyccnt + (uint32_t)(now - c->dwt.cyc_sync);
}

void dwt_sync(struct sim_core *c, uint64_t now)
{
	c->dwt.cyccnt = dwt_cyccnt(c, now);
	c->dwt.cyc_sync = now;
}

void dwt_count_exception(struct sim_core *c, uint32_t overhead_cycles)
{
	if (on(c, CTRL_EXCEVTENA))
		c->dwt.exccnt = (uint8_t)(c->dwt.exccnt + overhead_cycles);
}

void dwt_count_sleep(struct sim_core *c, uint64_t cycles)
{
	if (on(c, CTRL_SLEEPEVTENA))
		c->dwt.sleepcnt = (uint8_t)(c->dwt.sleepcnt + cycles);
}

void dwt_count_cpi(struct sim_core *c, uint32_t cycles)
{
	if (on(c, CTRL_CPIEVTENA))
		c->dwt.cpicnt = (uint8_t)(c->dwt.cpicnt + cycles);
}

void dwt_count_lsu(struct sim_core *c, uint32_t cycles)
{
	if (on(c, CTRL_LSUEVTENA))
		c->dwt.lsucnt = (uint8_t)(c->dwt.lsucnt + cycles);
}

void dwt_count_block(struct sim_core *c, const struct cyc_block *cb, uint32_t cpi_extra)
{
	if (!(c->dwt.ctrl & DWT_CTRL_BLOCK_EVENTS) || !debug_trcena(c))
		return;
	if (c->dwt.ctrl & CTRL_CPIEVTENA)
		c->dwt.cpicnt = (uint8_t)(c->dwt.cpicnt + cb->cpi_extra + cpi_extra);
	if (c->dwt.ctrl & CTRL_LSUEVTENA)
		c->dwt.lsucnt = (uint8_t)(c->dwt.lsucnt + cb->lsu_extra);
	if (c->dwt.ctrl & CTRL_FOLDEVTENA)
		c->dwt.foldcnt = (uint8_t)(c->dwt.foldcnt + cb->fold_count);
}

/* A data access inside a watched range (C1.8.17, FUNCTION 0b0101 read, 0b0110 write, 0b0111
 * both): the Cortex-M4 halts imprecisely, after the access completes; here at the end of the block,
 * never from inside the memory callback (see core_request_stop). */
static void hook_watch(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	struct sim_core *c = ud;
	(void)uc, (void)value;
	uint32_t lo = (uint32_t)address, hi = lo + (uint32_t)(size > 0 ? size - 1 : 0);
	for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
		unsigned f = c->dwt.function[n] & 0xFu;
		bool wanted = f == 7u || (f == 5u && type == UC_MEM_READ) || (f == 6u && type == UC_MEM_WRITE);
		uint32_t mask = ~((1u << c->dwt.mask[n]) - 1u);
		uint32_t base = c->dwt.comp[n] & mask;
		if (wanted && (lo & mask) <= base && (hi & mask) >= base) {
			c->dwt.function[n] |= 1u << 24; /* MATCHED */
			c->dwt.wp_hit = true;
		}
	}
	if (c->dwt.wp_hit)
		core_request_stop(c);
}

void dwt_update_watchpoints(struct sim_core *c)
{
	bool changed = c->dwt.n_wp_hooks != 0;
	for (unsigned i = 0; i < c->dwt.n_wp_hooks; i++)
		(void)uc_hook_del(c->uc, c->dwt.wp_hooks[i]);
	c->dwt.n_wp_hooks = 0;
	if (debug_enabled(c)) {
		for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
			unsigned f = c->dwt.function[n] & 0xFu;
			if (f < 5u || f > 7u)
				continue;
			uint32_t lo = c->dwt.comp[n] & ~((1u << c->dwt.mask[n]) - 1u);
			uint32_t hi = lo + ((1u << c->dwt.mask[n]) - 1u);
			int type = f == 5u   ? UC_HOOK_MEM_READ
			           : f == 6u ? UC_HOOK_MEM_WRITE
			                     : UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE;
			if (uc_hook_add(c->uc, &c->dwt.wp_hooks[c->dwt.n_wp_hooks], type, (void *)hook_watch, c, lo,
			                hi) == UC_ERR_OK) {
				c->dwt.n_wp_hooks++;
				changed = true;
			}
		}
	}
	if (changed)
		blk_retranslate_all(c); /* translations made before carry no memory-hook calls */
}

static uint32_t read_word(struct sim_core *c, uint32_t off)
{
	uint32_t v = 0;
	if (off >= 0xFD0) {
		if (romtable_id_read(ROMTABLE_DWT_BASE, off, &v) != 0)
			v = 0;
		return v;
	}
	if (off >= 0x20 && off < 0x20 + 16 * CORE_DWT_NUM_COMP) {
		unsigned n = (off - 0x20) / 16;
		switch ((off - 0x20) % 16) {
		case 0:
			return c->dwt.comp[n];
		case 4:
			return c->dwt.mask[n];
		case 8:
			v = c->dwt.function[n];
			c->dwt.function[n] &= ~(1u << 24); /* MATCHED clears on read (C1.8.17) */
			return v;
		default:
			return 0;
		}
	}
	switch (off) {
	case 0x000:
		return CTRL_NUMCOMP | c->dwt.ctrl;
	case 0x004:
		return dwt_cyccnt(c, core_now(c, 0xE0001004u));
	case 0x008:
		return c->dwt.cpicnt;
	case 0x00C:
		return c->dwt.exccnt;
	case 0x010:
		return c->dwt.sleepcnt;
	case 0x014:
		return c->dwt.lsucnt;
	case 0x018:
		return c->dwt.foldcnt;
	case 0x01C: /* PCSR: 0xFFFFFFFF in Debug state (C1.8.8) */
		return c->state == CORE_HALTED ? 0xFFFFFFFFu : core_pc(c);
	default:
		return 0; /* DEVARCH (0xFBC, read by OpenOCD 0.12 at examine) is RAZ on Armv7-M */
	}
}

enum bus_result dwt_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v)
{
	(void)who;
	*v = bus_extract(read_word(ctx, off & ~3u), off, size);
	return BUS_OK;
}

enum bus_result dwt_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v)
{
	struct sim_core *c = ctx;
	(void)who;
	if (size != 4)
		return BUS_OK; /* the DWT takes word accesses only */
	if (off >= 0x20 && off < 0x20 + 16 * CORE_DWT_NUM_COMP) {
		unsigned n = (off - 0x20) / 16;
		switch ((off - 0x20) % 16) {
		case 0:
			c->dwt.comp[n] = v;
			break;
		case 4:
			c->dwt.mask[n] = v & 0xFu; /* MASK is 4 bits on the Cortex-M4 (TRM 8.3) */
			break;
		case 8:
			c->dwt.function[n] = (c->dwt.function[n] & (1u << 24)) | (v & 0x000F03EFu);
			break;
		default:
			return BUS_OK;
		}
		fpb_update(c);
		return BUS_OK;
	}
	switch (off) {
	case 0x000:
		dwt_sync(c, core_now(c, 0xE0001000u));
		c->dwt.ctrl = v & CTRL_WRITABLE;
		return BUS_OK;
	case 0x004:
		c->dwt.cyccnt = v;
		c->dwt.cyc_sync = core_now(c, 0xE0001004u);
		return BUS_OK;
	case 0x008:
		c->dwt.cpicnt = (uint8_t)v;
		return BUS_OK;
	case 0x00C:
		c->dwt.exccnt = (uint8_t)v;
		return BUS_OK;
	case 0x010:
		c->dwt.sleepcnt = (uint8_t)v;
		return BUS_OK;
	case 0x014:
		c->dwt.lsucnt = (uint8_t)v;
		return BUS_OK;
	case 0x018:
		c->dwt.foldcnt = (uint8_t)v;
		return BUS_OK;
	default:
		return BUS_OK;
	}
}

bool dwt_pc_comparator(const struct sim_core *c, unsigned n, uint32_t *addr)
{
	if (n >= CORE_DWT_NUM_COMP || (c->dwt.function[n] & 0xFu) != 4u || c->dwt.mask[n] != 0)
		return false;
	*addr = c->dwt.comp[n] & ~1u;
	return true;
}

bool dwt_pc_match(struct sim_core *c, uint32_t addr)
{
	bool hit = false;
	for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
		if ((c->dwt.function[n] & 0xFu) == 4u && ((c->dwt.comp[n] ^ addr) & ~1u) == 0) {
			c->dwt.function[n] |= 1u << 24; /* MATCHED (C1.8.17) */
			hit = true;
		}
	}
	return hit;
}

bool dwt_take_watchpoint_hit(struct sim_core *c)
{
	bool hit = c->dwt.wp_hit;
	c->dwt.wp_hit = false;
	return hit;
}
