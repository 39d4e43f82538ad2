/* The System Control Space page 0xE000E000-0xE000EFFF (Armv7-M ARM B3.2 SCB, B3.3 SysTick, B3.4
 * NVIC; the FP registers of B3.2.20-B3.2.24; the debug registers of C1.6 go to debug.c).
 * Register values are those of the STM32F4's Cortex-M4F r0p1 (PM0214 chapter 4). */
#include "core/core_internal.h"
#include "dap/romtable.h"

#include <string.h>

#define ICSR_PENDSTSET  (1u << 26)
#define ICSR_PENDSTCLR  (1u << 25)
#define ICSR_PENDSVSET  (1u << 28)
#define ICSR_PENDSVCLR  (1u << 27)
#define ICSR_NMIPENDSET (1u << 31)
#define SYST_ENABLE     1u
#define SYST_TICKINT    2u
#define SYST_CLKSOURCE  4u
#define SYST_COUNTFLAG  (1u << 16)

/* ---- SysTick (B3.3) ------------------------------------------------------------------------- */

void systick_reset(struct sim_core *c)
{
	memset(&c->systick, 0, sizeof(c->systick));
	c->systick.sync = c->now;
}

static unsigned systick_div(const struct sim_core *c)
{
	/* CLKSOURCE 0: the external reference, HCLK/8 on the STM32F4 (RM0090 figure 21). */
	return (c->systick.csr & SYST_CLKSOURCE) ? 1u : 8u;
}

/* Ticks from the last sync to the first time the counter reaches 0. */
static uint64_t first_zero(const struct systick_state *s)
{
	return s->cvr ? s->cvr : (uint64_t)s->rvr + 1u;
}

bool systick_tickint(const struct sim_core *c)
{
	return (c->systick.csr & (SYST_ENABLE | SYST_TICKINT)) == (SYST_ENABLE | SYST_TICKINT);
}

uint64_t systick_next_event(struct sim_core *c)
{
	struct systick_state *s = &c->systick;
	if (!(s->csr & SYST_ENABLE) || (s->rvr == 0 && s->cvr == 0))
		return UINT64_MAX;
	unsigned div = systick_div(c);
	uint64_t e = (c->now - s->sync) / div;
	uint64_t e0 = first_zero(s), period = (uint64_t)s->rvr + 1u;
	uint64_t next;
	if (e < e0) {
		next = e0;
	} else {
		if (s->rvr == 0)
			return UINT64_MAX;
		next = e0 + ((e - e0) / period + 1u) * period;
	}
	uint64_t t = s->sync + next * div;
	return t > c->now ? t - c->now : 1u;
}

void systick_advance(struct sim_core *c, uint64_t now)
{
	struct systick_state *s = &c->systick;
	if (!(s->csr & SYST_ENABLE)) {
		s->sync = now;
		return;
	}
	unsigned div = systick_div(c);
	uint64_t e = (now - s->sync) / div;
	if (e == 0)
		return;
	uint64_t e0 = first_zero(s), period = (uint64_t)s->rvr + 1u;
	uint64_t events = 0;
	uint32_t value;
	if (s->cvr == 0 && s->rvr == 0) {
		value = 0;
	} else if (e < e0) {
		/* From 0 the next tick reloads RVR (B3.3.1): RVR, RVR-1, ... */
		value = s->cvr ? (uint32_t)(s->cvr - e) : (uint32_t)(s->rvr + 1u - e);
	} else {
		events = s->rvr ? 1u + (e - e0) / period : 1u;
		uint64_t k = s->rvr ? (e - e0) % period : 0;
		value = k == 0 ? 0 : (uint32_t)(s->rvr + 1u - k);
	}
	s->cvr = value;
	s->sync += e * div;
	if (events) {
		s->csr |= SYST_COUNTFLAG;
		if (s->csr & SYST_TICKINT)
			exc_set_pending(c, EXC_SYSTICK);
	}
}

static uint32_t systick_cvr(struct sim_core *c, uint64_t now)
{
	systick_advance(c, now);
	return c->systick.cvr;
}

/* ---- NVIC and SCB --------------------------------------------------------------------------- */

static uint32_t irq_bits(const bool *arr, unsigned word)
{
	uint32_t v = 0;
	for (unsigned b = 0; b < 32; b++) {
		unsigned irq = word * 32 + b;
		if (irq < CORE_NUM_IRQ && arr[EXC_IRQ0 + irq])
			v |= 1u << b;
	}
	return v;
}

static void irq_set_bits(struct sim_core *c, bool *arr, unsigned word, uint32_t v, bool value)
{
	for (unsigned b = 0; b < 32; b++) {
		unsigned irq = word * 32 + b;
		if (irq < CORE_NUM_IRQ && (v & (1u << b)))
			arr[EXC_IRQ0 + irq] = value;
	}
	core_request_stop(c);
}

static uint32_t icsr_read(struct sim_core *c)
{
	int cur = exc_current(c);
	unsigned nactive = 0;
	int pend = 0, pend_prio = 0x7FFFFFFF;
	for (int e = EXC_NMI; e < CORE_NUM_EXC; e++) {
		nactive += c->active[e];
		if (c->pending[e] && c->enabled[e]) {
			int p = e < EXC_MEMMANAGE ? e - 4 : c->prio[e];
			if (p < pend_prio) {
				pend = e;
				pend_prio = p;
			}
		}
	}
	bool irq_pending = false;
	for (int e = EXC_IRQ0; e < CORE_NUM_EXC; e++)
		irq_pending |= c->pending[e];
	return (uint32_t)cur | (nactive <= 1 ? 1u << 11 : 0) | (uint32_t)pend << 12 | (irq_pending ? 1u << 22 : 0) |
	       (c->pending[EXC_SYSTICK] ? ICSR_PENDSTSET : 0) | (c->pending[EXC_PENDSV] ? ICSR_PENDSVSET : 0) |
	       (c->pending[EXC_NMI] ? ICSR_NMIPENDSET : 0);
}

static void icsr_write(struct sim_core *c, uint32_t v)
{
	if (v & ICSR_NMIPENDSET)
		exc_set_pending(c, EXC_NMI);
	if (v & ICSR_PENDSVSET)
		exc_set_pending(c, EXC_PENDSV);
	else if (v & ICSR_PENDSVCLR)
		c->pending[EXC_PENDSV] = false;
	if (v & ICSR_PENDSTSET)
		exc_set_pending(c, EXC_SYSTICK);
	else if (v & ICSR_PENDSTCLR)
		c->pending[EXC_SYSTICK] = false;
}

static uint32_t shcsr_read(const struct sim_core *c)
{
	static const struct {
		int exc;
		unsigned bit;
	} act[] = {{EXC_MEMMANAGE, 0}, {EXC_BUSFAULT, 1}, {EXC_USAGEFAULT, 3}, {EXC_SVCALL, 7},
	           {EXC_DEBUGMON, 8},  {EXC_PENDSV, 10},  {EXC_SYSTICK, 11}};
	uint32_t v = 0;
	for (size_t i = 0; i < sizeof(act) / sizeof(act[0]); i++)
		if (c->active[act[i].exc])
			v |= 1u << act[i].bit;
	v |= (c->pending[EXC_USAGEFAULT] ? 1u << 12 : 0) | (c->pending[EXC_MEMMANAGE] ? 1u << 13 : 0) |
	     (c->pending[EXC_BUSFAULT] ? 1u << 14 : 0) | (c->pending[EXC_SVCALL] ? 1u << 15 : 0);
	v |= (c->enabled[EXC_MEMMANAGE] ? 1u << 16 : 0) | (c->enabled[EXC_BUSFAULT] ? 1u << 17 : 0) |
	     (c->enabled[EXC_USAGEFAULT] ? 1u << 18 : 0);
	return v;
}

static void shcsr_write(struct sim_core *c, uint32_t v)
{
	c->enabled[EXC_MEMMANAGE] = (v >> 16) & 1u;
	c->enabled[EXC_BUSFAULT] = (v >> 17) & 1u;
	c->enabled[EXC_USAGEFAULT] = (v >> 18) & 1u;
	c->pending[EXC_USAGEFAULT] = (v >> 12) & 1u;
	c->pending[EXC_MEMMANAGE] = (v >> 13) & 1u;
	c->pending[EXC_BUSFAULT] = (v >> 14) & 1u;
	c->pending[EXC_SVCALL] = (v >> 15) & 1u;
	core_request_stop(c);
}

/* CPUID scheme registers of the Cortex-M4F r0p1 (PM0214 4.4, Cortex-M4 TRM 4.1 table 4-1). */
static const uint32_t cpuid_scheme[] = {
    0x00000030u, 0x00000200u, 0x00100000u, 0x00000000u,              /* ID_PFR0, ID_PFR1, ID_DFR0, ID_AFR0 */
    0x00100030u, 0x00000000u, 0x01000000u, 0x00000000u,              /* ID_MMFR0-3 */
    0x01101110u, 0x02111000u, 0x21112231u, 0x01111110u, 0x01310132u, /* ID_ISAR0-4 */
};

/* Registers read as 32-bit words; byte and halfword reads extract from them. */
static enum bus_result scs_read_word(struct sim_core *c, uint32_t off, enum bus_initiator who, uint32_t *v)
{
	*v = 0;
	if (off >= 0xFD0) /* CoreSight IDs, one table in romtable.c */
		return romtable_id_read(ROMTABLE_SCS_BASE, off, v) == 0 ? BUS_OK : BUS_OK;
	if (off >= 0x100 && off < 0x120) {
		*v = irq_bits(c->enabled, (off - 0x100) / 4);
		return BUS_OK;
	}
	if (off >= 0x180 && off < 0x1A0) {
		*v = irq_bits(c->enabled, (off - 0x180) / 4);
		return BUS_OK;
	}
	if (off >= 0x200 && off < 0x220) {
		*v = irq_bits(c->pending, (off - 0x200) / 4);
		return BUS_OK;
	}
	if (off >= 0x280 && off < 0x2A0) {
		*v = irq_bits(c->pending, (off - 0x280) / 4);
		return BUS_OK;
	}
	if (off >= 0x300 && off < 0x320) {
		*v = irq_bits(c->active, (off - 0x300) / 4);
		return BUS_OK;
	}
	if (off >= 0x400 && off < 0x400 + ((CORE_NUM_IRQ + 3) & ~3u)) {
		for (unsigned b = 0; b < 4; b++) {
			unsigned irq = off - 0x400 + b;
			if (irq < CORE_NUM_IRQ)
				*v |= (uint32_t)c->prio[EXC_IRQ0 + irq] << (8 * b);
		}
		return BUS_OK;
	}
	if (off >= 0xD18 && off < 0xD24) {
		for (unsigned b = 0; b < 4; b++)
			*v |= (uint32_t)c->prio[4 + (off - 0xD18) + b] << (8 * b);
		return BUS_OK;
	}
	if (off >= 0xD40 && off < 0xD40 + sizeof(cpuid_scheme)) {
		*v = cpuid_scheme[(off - 0xD40) / 4];
		return BUS_OK;
	}
	if (off >= 0xDF0 && off < 0xE00)
		return debug_read(c, off, who, v);
	switch (off) {
	case 0x004:
		*v = 2;
		return BUS_OK; /* ICTR: INTLINESNUM 2, up to 96 IRQs */
	case 0x008:
		return BUS_OK; /* ACTLR */
	case 0x010:
		*v = c->systick.csr;
		c->systick.csr &= ~SYST_COUNTFLAG;
		return BUS_OK;
	case 0x014:
		*v = c->systick.rvr;
		return BUS_OK;
	case 0x018:
		*v = systick_cvr(c, core_now(c, 0xE000E018u));
		return BUS_OK;
	case 0x01C:
		*v = 0x40002903u;
		return BUS_OK; /* CALIB: SKEW, TENMS (PM0214 4.5.4) */
	case 0xD00:
		*v = 0x410FC241u;
		return BUS_OK; /* CPUID: Cortex-M4 r0p1 */
	case 0xD04:
		*v = icsr_read(c);
		return BUS_OK;
	case 0xD08:
		*v = c->vtor;
		return BUS_OK;
	case 0xD0C:
		*v = 0xFA050000u | c->aircr_prigroup << 8;
		return BUS_OK;
	case 0xD10:
		*v = c->scr;
		return BUS_OK;
	case 0xD14:
		*v = c->ccr;
		return BUS_OK;
	case 0xD24:
		*v = shcsr_read(c);
		return BUS_OK;
	case 0xD28:
		*v = c->cfsr;
		return BUS_OK;
	case 0xD2C:
		*v = c->hfsr;
		return BUS_OK;
	case 0xD30:
		*v = c->dfsr;
		return BUS_OK;
	case 0xD34:
		*v = c->mmfar;
		return BUS_OK;
	case 0xD38:
		*v = c->bfar;
		return BUS_OK;
	case 0xD3C:
		*v = c->afsr;
		return BUS_OK;
	case 0xD88:
		*v = c->cpacr;
		return BUS_OK;
	case 0xD90:
		*v = 0x00000800u;
		return BUS_OK; /* MPU_TYPE: 8 regions (MPU not modelled) */
	case 0xF34:
		*v = c->fpccr;
		return BUS_OK;
	case 0xF38:
		*v = c->fpcar;
		return BUS_OK;
	case 0xF3C:
		*v = c->fpdscr;
		return BUS_OK;
	case 0xF40:
		*v = 0x10110021u;
		return BUS_OK; /* MVFR0: single precision VFPv4-D16 */
	case 0xF44:
		*v = 0x11000011u;
		return BUS_OK; /* MVFR1 */
	default:
		return BUS_OK; /* reserved: RAZ/WI */
	}
}

enum bus_result scs_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v)
{
	struct sim_core *c = ctx;
	uint32_t w;
	enum bus_result r = scs_read_word(c, off & ~3u, who, &w);
	*v = bus_extract(w, off, size);
	return r;
}

static void write_prio_bytes(struct sim_core *c, int first_exc, uint32_t v, uint32_t bytemask)
{
	for (unsigned b = 0; b < 4; b++) {
		int e = first_exc + (int)b;
		if ((bytemask >> (8 * b)) & 0xFFu && e < CORE_NUM_EXC)
			c->prio[e] = (uint8_t)((v >> (8 * b)) & (0xFFu << (8 - CORE_PRIO_BITS)));
	}
	core_request_stop(c);
}

static void aircr_write(struct sim_core *c, uint32_t v)
{
	if ((v >> 16) != 0x05FAu)
		return; /* VECTKEY (B3.2.6) */
	c->aircr_prigroup = (v >> 8) & 7u;
	if (v & 4u) { /* SYSRESETREQ: the whole chip but the debug logic */
		core_local_reset(c, true);
	} else if (v & 1u) { /* VECTRESET: the core only */
		core_local_reset(c, false);
	} else if (v & 2u) { /* VECTCLRACTIVE */
		memset(c->active, 0, sizeof(c->active));
	}
}

static enum bus_result scs_write_word(struct sim_core *c, uint32_t off, enum bus_initiator who, uint32_t v,
                                      uint32_t bytemask)
{
	if (off >= 0x100 && off < 0x120) {
		irq_set_bits(c, c->enabled, (off - 0x100) / 4, v, true);
		return BUS_OK;
	}
	if (off >= 0x180 && off < 0x1A0) {
		irq_set_bits(c, c->enabled, (off - 0x180) / 4, v, false);
		return BUS_OK;
	}
	if (off >= 0x200 && off < 0x220) {
		irq_set_bits(c, c->pending, (off - 0x200) / 4, v, true);
		return BUS_OK;
	}
	if (off >= 0x280 && off < 0x2A0) {
		irq_set_bits(c, c->pending, (off - 0x280) / 4, v, false);
		return BUS_OK;
	}
	if (off >= 0x400 && off < 0x400 + ((CORE_NUM_IRQ + 3) & ~3u)) {
		write_prio_bytes(c, EXC_IRQ0 + (int)(off - 0x400), v, bytemask);
		return BUS_OK;
	}
	if (off >= 0xD18 && off < 0xD24) {
		write_prio_bytes(c, 4 + (int)(off - 0xD18), v, bytemask);
		return BUS_OK;
	}
	if (off >= 0xDF0 && off < 0xE00)
		return debug_write(c, off, who, v);
	switch (off) {
	case 0x010:
		systick_advance(c, core_now(c, 0xE000E010u));
		c->systick.csr = (c->systick.csr & SYST_COUNTFLAG) | (v & 7u);
		c->systick.sync = core_now(c, 0xE000E010u);
		core_request_stop(c);
		return BUS_OK;
	case 0x014:
		c->systick.rvr = v & 0x00FFFFFFu;
		core_request_stop(c);
		return BUS_OK;
	case 0x018: /* any write clears the counter and COUNTFLAG (B3.3.5) */
		c->systick.cvr = 0;
		c->systick.csr &= ~SYST_COUNTFLAG;
		c->systick.sync = core_now(c, 0xE000E018u);
		core_request_stop(c);
		return BUS_OK;
	case 0xD04:
		icsr_write(c, v);
		return BUS_OK;
	case 0xD08:
		c->vtor = v & 0xFFFFFF80u;
		return BUS_OK;
	case 0xD0C:
		aircr_write(c, v);
		return BUS_OK;
	case 0xD10:
		c->scr = v & 0x16u;
		return BUS_OK;
	case 0xD14:
		c->ccr = v & 0x31Bu;
		return BUS_OK;
	case 0xD24:
		shcsr_write(c, v);
		return BUS_OK;
	case 0xD28:
		c->cfsr &= ~v; /* write-one-to-clear (B3.2.15) */
		return BUS_OK;
	case 0xD2C:
		c->hfsr &= ~v;
		return BUS_OK;
	case 0xD30:
		c->dfsr &= ~v;
		return BUS_OK;
	case 0xD34:
		c->mmfar = v;
		return BUS_OK;
	case 0xD38:
		c->bfar = v;
		return BUS_OK;
	case 0xD88:
		c->cpacr = v & 0x00F00000u;
		exc_update_fp_trap(c);
		core_request_stop(c);
		return BUS_OK;
	case 0xF00: /* STIR */
		if ((v & 0x1FFu) < CORE_NUM_IRQ)
			exc_set_pending(c, EXC_IRQ0 + (int)(v & 0x1FFu));
		return BUS_OK;
	case 0xF34:
		c->fpccr = (c->fpccr & ~0xC0000001u) | (v & 0xC0000001u);
		exc_update_fp_trap(c);
		core_request_stop(c);
		return BUS_OK;
	case 0xF38:
		c->fpcar = v & ~7u;
		return BUS_OK;
	case 0xF3C:
		c->fpdscr = v & 0x07C00000u;
		return BUS_OK;
	default:
		return BUS_OK; /* read-only or reserved: WI */
	}
}

static bool is_w1c(uint32_t off)
{
	return off == 0xD28 || off == 0xD2C || off == 0xD30;
}

enum bus_result scs_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v)
{
	struct sim_core *c = ctx;
	uint32_t word = off & ~3u;
	if (size == 4)
		return scs_write_word(c, word, who, v, 0xFFFFFFFFu);
	uint32_t mask = bus_lanes(off, size);
	uint32_t shifted = bus_merge(0, off, size, v);
	/* Byte-accessible: priorities (B3.4.7), SHPR (B3.2.10); set/clear-enable and -pending and
	 * write-one-to-clear registers: only the bytes written. Others merge with the current value. */
	if ((word >= 0x100 && word < 0x2A0) || (word >= 0x400 && word < 0x500) || (word >= 0xD18 && word < 0xD24) ||
	    is_w1c(word))
		return scs_write_word(c, word, who, shifted, mask);
	uint32_t cur = 0;
	(void)scs_read_word(c, word, who, &cur);
	return scs_write_word(c, word, who, bus_merge(cur, off, size, v), 0xFFFFFFFFu);
}
