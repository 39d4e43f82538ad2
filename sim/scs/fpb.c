/* The Flash Patch and Breakpoint unit at 0xE0002000 (Armv7-M ARM C1.11; Cortex-M4 TRM 8.4): FP_CTRL
 * with 6 instruction and 2 literal comparators, revision 0 ("FPB rev.1" to OpenOCD: breakpoints
 * below 0x20000000 only), FP_COMP0-7. Breakpoints only, no remapping.
 *
 * Every address that halts before executing (FPB code comparators with REPLACE 01/10/11, and DWT
 * comparators with FUNCTION = 0b0100, instruction address match, C1.8.17) gets a unicorn code hook
 * on exactly that address. A comparator at the address the core resumes from fires at once, as on
 * silicon: OpenOCD's cortex_m_step() sets one at the PC to let pending interrupts run first. */
#include "core/core_internal.h"
#include "scs/romtable.h"

#include <string.h>

#define FP_CTRL_ENABLE 1u
#define FP_CTRL_KEY    2u

void fpb_power_on(struct sim_core *c)
{
	memset(c->fpb.comp, 0, sizeof(c->fpb.comp));
	c->fpb.ctrl = 0;
	fpb_update(c);
}

static bool is_fpb_bp(const struct sim_core *c, uint32_t addr)
{
	if (!(c->fpb.ctrl & FP_CTRL_ENABLE))
		return false;
	for (unsigned n = 0; n < CORE_FPB_NUM_CODE; n++) {
		uint32_t comp = c->fpb.comp[n];
		unsigned replace = comp >> 30;
		if (!(comp & 1u) || (comp & 0x1FFFFFFCu) != (addr & ~3u))
			continue;
		if (((addr & 2u) ? replace & 2u : replace & 1u) != 0)
			return true;
	}
	return false;
}

static void hook_bp(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	uint32_t addr = (uint32_t)address;
	(void)size;
	if (c->state == CORE_HALTED || !debug_enabled(c))
		return;
	enum core_stop why = STOP_NONE;
	if (dwt_pc_match(c, addr))
		why = STOP_DWT;
	if (is_fpb_bp(c, addr))
		why = STOP_FPB; /* DFSR.BKPT */
	/* A hook whose comparator was just cleared may still fire once (unicorn deletes hooks
	 * lazily): only a live comparator halts. */
	if (why == STOP_NONE)
		return;
	c->stop = why;
	c->stop_pc = addr;
	(void)uc_emu_stop(uc);
}

static void add_bp(struct sim_core *c, uint32_t addr)
{
	for (unsigned i = 0; i < c->fpb.n_bp; i++)
		if (c->fpb.bp[i] == addr)
			return;
	if (c->fpb.n_bp < sizeof(c->fpb.bp) / sizeof(c->fpb.bp[0]))
		c->fpb.bp[c->fpb.n_bp++] = addr;
}

void fpb_update(struct sim_core *c)
{
	if (c->in_emu) {
		/* The core wrote a comparator: rebuild after this slice, never under unicorn. */
		c->fpb.dirty = true;
		core_request_stop(c);
		return;
	}
	c->fpb.dirty = false;
	for (unsigned i = 0; i < c->fpb.n_hooks; i++)
		(void)uc_hook_del(c->uc, c->fpb.hooks[i]);
	for (unsigned i = 0; i < c->fpb.n_bp; i++)
		(void)uc_ctl_remove_cache(c->uc, c->fpb.bp[i], (uint64_t)c->fpb.bp[i] + 2);
	c->fpb.n_hooks = 0;
	c->fpb.n_bp = 0;
	dwt_update_watchpoints(c);
	if (!debug_enabled(c))
		return;
	if (c->fpb.ctrl & FP_CTRL_ENABLE) {
		for (unsigned n = 0; n < CORE_FPB_NUM_CODE; n++) {
			uint32_t comp = c->fpb.comp[n];
			if (!(comp & 1u))
				continue;
			uint32_t base = comp & 0x1FFFFFFCu;
			unsigned replace = comp >> 30;
			if (replace == 1u || replace == 3u)
				add_bp(c, base);
			if (replace == 2u || replace == 3u)
				add_bp(c, base + 2);
		}
	}
	for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
		uint32_t a;
		if (dwt_pc_comparator(c, n, &a))
			add_bp(c, a);
	}
	for (unsigned i = 0; i < c->fpb.n_bp; i++) {
		uint32_t a = c->fpb.bp[i];
		if (uc_hook_add(c->uc, &c->fpb.hooks[c->fpb.n_hooks], UC_HOOK_CODE, (void *)hook_bp, c, a, a) ==
		    UC_ERR_OK)
			c->fpb.n_hooks++;
		(void)uc_ctl_remove_cache(c->uc, a, (uint64_t)a + 2);
	}
}

static uint32_t read_word(struct sim_core *c, uint32_t off)
{
	uint32_t v = 0;
	if (off >= 0xFD0)
		return romtable_id_read(ROMTABLE_FPB_BASE, off, &v) == 0 ? v : 0;
	if (off == 0x000) /* NUM_LIT 2 [11:8], NUM_CODE 6 [7:4], REV 0 [31:28] */
		return (uint32_t)CORE_FPB_NUM_LIT << 8 | (uint32_t)CORE_FPB_NUM_CODE << 4 |
		       (c->fpb.ctrl & FP_CTRL_ENABLE);
	if (off >= 0x008 && off < 0x008 + 4 * (CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT))
		return c->fpb.comp[(off - 0x008) / 4];
	return 0; /* FP_REMAP: remapping not supported */
}

enum bus_result fpb_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v)
{
	(void)who;
	*v = bus_extract(read_word(ctx, off & ~3u), off, size);
	return BUS_OK;
}

enum bus_result fpb_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v)
{
	struct sim_core *c = ctx;
	(void)who;
	if (size != 4)
		return BUS_OK;
	if (off == 0x000) {
		if (v & FP_CTRL_KEY) /* C1.11.3: writes without KEY are ignored */
			c->fpb.ctrl = v & FP_CTRL_ENABLE;
	} else if (off >= 0x008 && off < 0x008 + 4 * (CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT)) {
		c->fpb.comp[(off - 0x008) / 4] = v & 0xDFFFFFFDu;
	} else {
		return BUS_OK;
	}
	fpb_update(c);
	return BUS_OK;
}

void fpb_settle(struct sim_core *c)
{
	if (c->fpb.dirty)
		fpb_update(c);
}
