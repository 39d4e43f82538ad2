/* The Data Watchpoint and Trace unit at 0xE0001000 (Armv7-M ARM C1.8; Cortex-M4 TRM 8.3):
 * CTRL with NUMCOMP = 4, the profiling counters at their real widths (CYCCNT 32 bits, CPICNT,
 * EXCCNT, SLEEPCNT, LSUCNT, FOLDCNT 8 bits that wrap), PCSR, and comparators 0-3 of which the
 * instruction-address match (FUNCTION = 4) halts the core with DFSR.DWTTRAP (fpb.c installs it),
 * as do data-address matches (FUNCTION 5-7, after the access: memory hooks on the watched range). Everything counts
 * only with DEMCR.TRCENA (C1.6.5).
 *
 * CYCCNT is kept lazily: the value at a sync point plus the core cycles since, so the running core
 * pays nothing for it. PCSR is the core's (scs_core_ops.pc_sample): a debugger reading it between
 * slices gets an instruction of the last slice, sampled by cycle as silicon samples the PC. */
#include "scs/dwt.h"
#include "scs/romtable.h"
#include "scs/scs_state.h"

#include <string.h>

#define CTRL_CYCCNTENA   (1u << 0)
#define CTRL_CPIEVTENA   (1u << 17)
#define CTRL_EXCEVTENA   (1u << 18)
#define CTRL_SLEEPEVTENA (1u << 19)
#define CTRL_LSUEVTENA   (1u << 20)
#define CTRL_FOLDEVTENA  (1u << 21)
#define CTRL_WRITABLE    0x007F1FFFu
#define CTRL_NUMCOMP     (4u << 28)

void dwt_power_on(struct scs *s)
{
	memset(&s->dwt, 0, sizeof(s->dwt));
	s->dwt.cyc_sync = s->ops->cycles(s->core);
}

static bool on(const struct scs *s, uint32_t enable)
{
	return debug_trcena(s) && (s->dwt.ctrl & enable);
}

uint32_t dwt_cyccnt(struct scs *s, uint64_t now)
{
	if (!on(s, CTRL_CYCCNTENA))
		return s->dwt.cyccnt;
	return s->dwt.cyccnt + (uint32_t)(now - s->dwt.cyc_sync);
}

void dwt_sync(struct scs *s, uint64_t now)
{
	s->dwt.cyccnt = dwt_cyccnt(s, now);
	s->dwt.cyc_sync = now;
}

void dwt_count_exception(struct scs *s, uint32_t overhead_cycles)
{
	if (on(s, CTRL_EXCEVTENA))
		s->dwt.exccnt = (uint8_t)(s->dwt.exccnt + overhead_cycles);
}

void dwt_count_sleep(struct scs *s, uint64_t cycles)
{
	if (on(s, CTRL_SLEEPEVTENA))
		s->dwt.sleepcnt = (uint8_t)(s->dwt.sleepcnt + cycles);
}

void dwt_count_cpi(struct scs *s, uint32_t cycles)
{
	if (on(s, CTRL_CPIEVTENA))
		s->dwt.cpicnt = (uint8_t)(s->dwt.cpicnt + cycles);
}

void dwt_count_lsu(struct scs *s, uint32_t cycles)
{
	if (on(s, CTRL_LSUEVTENA))
		s->dwt.lsucnt = (uint8_t)(s->dwt.lsucnt + cycles);
}

void dwt_count_block(struct scs *s, const struct cyc_block *cb, uint32_t cpi_extra)
{
	if (!(s->dwt.ctrl & DWT_CTRL_BLOCK_EVENTS) || !debug_trcena(s))
		return;
	if (s->dwt.ctrl & CTRL_CPIEVTENA)
		s->dwt.cpicnt = (uint8_t)(s->dwt.cpicnt + cb->cpi_extra + cpi_extra);
	if (s->dwt.ctrl & CTRL_LSUEVTENA)
		s->dwt.lsucnt = (uint8_t)(s->dwt.lsucnt + cb->lsu_extra);
	if (s->dwt.ctrl & CTRL_FOLDEVTENA)
		s->dwt.foldcnt = (uint8_t)(s->dwt.foldcnt + cb->fold_count);
}

/* A data access inside a watched range (C1.8.17, FUNCTION 0b0101 read, 0b0110 write, 0b0111
 * both): the Cortex-M4 halts imprecisely, after the access completes; here at the end of the block,
 * never from inside the memory callback (see core_request_stop). */
bool dwt_watch_access(struct scs *s, bool write, uint32_t lo, uint32_t hi)
{
	for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
		unsigned f = s->dwt.function[n] & 0xFu;
		bool wanted = f == 7u || (f == 5u && !write) || (f == 6u && write);
		uint32_t mask = ~((1u << s->dwt.mask[n]) - 1u);
		uint32_t base = s->dwt.comp[n] & mask;
		if (wanted && (lo & mask) <= base && (hi & mask) >= base) {
			s->dwt.function[n] |= 1u << 24; /* MATCHED */
			s->dwt.wp_hit = true;
		}
	}
	return s->dwt.wp_hit;
}

unsigned dwt_watchpoints(const struct scs *s, struct scs_watch *w)
{
	unsigned n_w = 0;
	for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
		unsigned f = s->dwt.function[n] & 0xFu;
		if (f < 5u || f > 7u)
			continue;
		uint32_t lo = s->dwt.comp[n] & ~((1u << s->dwt.mask[n]) - 1u);
		w[n_w].lo = lo;
		w[n_w].hi = lo + ((1u << s->dwt.mask[n]) - 1u);
		w[n_w].read = f != 6u;
		w[n_w].write = f != 5u;
		n_w++;
	}
	return n_w;
}

static uint32_t read_word(struct scs *s, uint32_t off)
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
			return s->dwt.comp[n];
		case 4:
			return s->dwt.mask[n];
		case 8:
			v = s->dwt.function[n];
			s->dwt.function[n] &= ~(1u << 24); /* MATCHED clears on read (C1.8.17) */
			return v;
		default:
			return 0;
		}
	}
	switch (off) {
	case 0x000:
		return CTRL_NUMCOMP | s->dwt.ctrl;
	case 0x004:
		return dwt_cyccnt(s, scs_now(s, 0xE0001004u));
	case 0x008:
		return s->dwt.cpicnt;
	case 0x00C:
		return s->dwt.exccnt;
	case 0x010:
		return s->dwt.sleepcnt;
	case 0x014:
		return s->dwt.lsucnt;
	case 0x018:
		return s->dwt.foldcnt;
	case 0x01C: /* PCSR (C1.8.8): 0xFFFFFFFF in Debug state, else a recently executed instruction */
		return s->ops->cpu(s->core) == SCS_CPU_HALTED ? 0xFFFFFFFFu : s->ops->pc_sample(s->core);
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
	struct scs *s = ctx;
	(void)who;
	if (size != 4)
		return BUS_OK; /* the DWT takes word accesses only */
	if (off >= 0x20 && off < 0x20 + 16 * CORE_DWT_NUM_COMP) {
		unsigned n = (off - 0x20) / 16;
		switch ((off - 0x20) % 16) {
		case 0:
			s->dwt.comp[n] = v;
			break;
		case 4:
			s->dwt.mask[n] = v & 0xFu; /* MASK is 4 bits on the Cortex-M4 (TRM 8.3) */
			break;
		case 8:
			s->dwt.function[n] = (s->dwt.function[n] & (1u << 24)) | (v & 0x000F03EFu);
			break;
		default:
			return BUS_OK;
		}
		scs_points_changed(s);
		return BUS_OK;
	}
	switch (off) {
	case 0x000:
		dwt_sync(s, scs_now(s, 0xE0001000u));
		s->dwt.ctrl = v & CTRL_WRITABLE;
		return BUS_OK;
	case 0x004:
		s->dwt.cyccnt = v;
		s->dwt.cyc_sync = scs_now(s, 0xE0001004u);
		return BUS_OK;
	case 0x008:
		s->dwt.cpicnt = (uint8_t)v;
		return BUS_OK;
	case 0x00C:
		s->dwt.exccnt = (uint8_t)v;
		return BUS_OK;
	case 0x010:
		s->dwt.sleepcnt = (uint8_t)v;
		return BUS_OK;
	case 0x014:
		s->dwt.lsucnt = (uint8_t)v;
		return BUS_OK;
	case 0x018:
		s->dwt.foldcnt = (uint8_t)v;
		return BUS_OK;
	default:
		return BUS_OK;
	}
}

bool dwt_pc_comparator(const struct scs *s, unsigned n, uint32_t *addr)
{
	if (n >= CORE_DWT_NUM_COMP || (s->dwt.function[n] & 0xFu) != 4u || s->dwt.mask[n] != 0)
		return false;
	*addr = s->dwt.comp[n] & ~1u;
	return true;
}

bool dwt_pc_match(struct scs *s, uint32_t addr)
{
	bool hit = false;
	for (unsigned n = 0; n < CORE_DWT_NUM_COMP; n++) {
		if ((s->dwt.function[n] & 0xFu) == 4u && ((s->dwt.comp[n] ^ addr) & ~1u) == 0) {
			s->dwt.function[n] |= 1u << 24; /* MATCHED (C1.8.17) */
			hit = true;
		}
	}
	return hit;
}

bool dwt_take_watchpoint_hit(struct scs *s)
{
	bool hit = s->dwt.wp_hit;
	s->dwt.wp_hit = false;
	return hit;
}
