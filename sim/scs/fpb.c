/* The Flash Patch and Breakpoint unit at 0xE0002000 (Armv7-M ARM C1.11; Cortex-M4 TRM 8.4): FP_CTRL
 * with 6 instruction and 2 literal comparators, revision 0 ("FPB rev.1" to OpenOCD: breakpoints
 * below 0x20000000 only), FP_COMP0-7. Breakpoints only, no remapping.
 *
 * Every address that halts before executing (FPB code comparators with REPLACE 01/10/11, and DWT
 * comparators with FUNCTION = 0b0100, instruction address match, C1.8.17) gets a unicorn code hook
 * on exactly that address. A comparator at the address the core resumes from fires at once, as on
 * silicon: OpenOCD's cortex_m_step() sets one at the PC to let pending interrupts run first. */
#include "scs/dwt.h"
#include "scs/fpb.h"
#include "scs/romtable.h"
#include "scs/scs_state.h"

#include <string.h>

#define FP_CTRL_ENABLE 1u
#define FP_CTRL_KEY    2u

void fpb_power_on(struct scs *s)
{
	memset(s->fpb.comp, 0, sizeof(s->fpb.comp));
	s->fpb.ctrl = 0;
	fpb_update(s);
}

static bool is_fpb_bp(const struct scs *s, uint32_t addr)
{
	if (!(s->fpb.ctrl & FP_CTRL_ENABLE))
		return false;
	for (unsigned n = 0; n < CORE_FPB_NUM_CODE; n++) {
		uint32_t comp = s->fpb.comp[n];
		unsigned replace = comp >> 30;
		if (!(comp & 1u) || (comp & 0x1FFFFFFCu) != (addr & ~3u))
			continue;
		if (((addr & 2u) ? replace & 2u : replace & 1u) != 0)
			return true;
	}
	return false;
}

enum scs_point fpb_point_at(struct scs *s, uint32_t addr)
{
	if (s->ops->cpu(s->core) == SCS_CPU_HALTED || !debug_enabled(s))
		return SCS_POINT_NONE;
	/* A hook whose comparator was just cleared may still fire once (unicorn deletes hooks
	 * lazily): only a live comparator halts. */
	bool dwt = dwt_pc_match(s, addr); /* sets MATCHED even where the FPB halts too */
	if (is_fpb_bp(s, addr))
		return SCS_POINT_FPB; /* DFSR.BKPT */
	return dwt ? SCS_POINT_DWT : SCS_POINT_NONE;
}

static void add_bp(struct scs *s, uint32_t addr)
{
	for (unsigned i = 0; i < s->fpb.n_bp; i++)
		if (s->fpb.bp[i] == addr)
			return;
	if (s->fpb.n_bp < sizeof(s->fpb.bp) / sizeof(s->fpb.bp[0]))
		s->fpb.bp[s->fpb.n_bp++] = addr;
}

void fpb_update(struct scs *s)
{
	s->points_dirty = false;
	s->fpb.n_bp = 0;
	struct scs_watch w[CORE_DWT_NUM_COMP];
	unsigned n_w = 0;
	if (debug_enabled(s)) {
		n_w = dwt_watchpoints(s, w);
		if (s->fpb.ctrl & FP_CTRL_ENABLE) {
			for (unsigned n = 0; n < CORE_FPB_NUM_CODE; n++) {
				uint32_t comp = s->fpb.comp[n];
				if (!(comp & 1u))
					continue;
				uint32_t base = comp & 0x1FFFFFFCu;
				unsigned replace = comp >> 30;
				if (replace == 1u || replace == 3u)
					add_bp(s, base);
				if (replace == 2u || replace == 3u)
					add_bp(s, base + 2);
			}
		}
		for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
			uint32_t a;
			if (dwt_pc_comparator(s, n, &a))
				add_bp(s, a);
		}
	}
	s->ops->set_points(s->core, s->fpb.bp, s->fpb.n_bp, w, n_w);
}

static uint32_t read_word(struct scs *s, uint32_t off)
{
	uint32_t v = 0;
	if (off >= 0xFD0)
		return romtable_id_read(ROMTABLE_FPB_BASE, off, &v) == 0 ? v : 0;
	if (off == 0x000) /* NUM_LIT 2 [11:8], NUM_CODE 6 [7:4], REV 0 [31:28] */
		return (uint32_t)CORE_FPB_NUM_LIT << 8 | (uint32_t)CORE_FPB_NUM_CODE << 4 |
		       (s->fpb.ctrl & FP_CTRL_ENABLE);
	if (off >= 0x008 && off < 0x008 + 4 * (CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT))
		return s->fpb.comp[(off - 0x008) / 4];
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
	struct scs *s = ctx;
	(void)who;
	if (size != 4)
		return BUS_OK;
	if (off == 0x000) {
		if (v & FP_CTRL_KEY) /* C1.11.3: writes without KEY are ignored */
			s->fpb.ctrl = v & FP_CTRL_ENABLE;
	} else if (off >= 0x008 && off < 0x008 + 4 * (CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT)) {
		s->fpb.comp[(off - 0x008) / 4] = v & 0xDFFFFFFDu;
	} else {
		return BUS_OK;
	}
	scs_points_changed(s);
	return BUS_OK;
}

void fpb_settle(struct scs *s)
{
	if (s->points_dirty)
		fpb_update(s);
}
