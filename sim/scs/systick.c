/* SysTick, the Armv7-M system timer (Armv7-M ARM B3.3): a 24-bit down-counter kept lazily as the
 * value at a sync point plus the cycles since, so nothing is done per cycle. Its registers are
 * rows of the SCS table (scs.c); the run loop asks when it next wraps (systick_next_event). */
#include "core/core_internal.h"

#include <string.h>

#define SYST_ENABLE    1u
#define SYST_TICKINT   2u
#define SYST_CLKSOURCE 4u
#define SYST_COUNTFLAG (1u << 16)

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

/* SYST_CSR (B3.3.3): COUNTFLAG clears on read. */
uint32_t systick_csr_read(struct sim_core *c)
{
	uint32_t v = c->systick.csr;
	c->systick.csr &= ~SYST_COUNTFLAG;
	return v;
}

void systick_csr_write(struct sim_core *c, uint32_t v)
{
	systick_advance(c, core_now(c, 0xE000E010u));
	c->systick.csr = (c->systick.csr & SYST_COUNTFLAG) | (v & 7u);
	c->systick.sync = core_now(c, 0xE000E010u);
	core_request_stop(c);
}

/* SYST_RVR (B3.3.4): RELOAD is 24 bits. */
uint32_t systick_rvr_read(struct sim_core *c)
{
	return c->systick.rvr;
}

void systick_rvr_write(struct sim_core *c, uint32_t v)
{
	c->systick.rvr = v & 0x00FFFFFFu;
	core_request_stop(c);
}

/* SYST_CVR (B3.3.5): any write clears the counter and COUNTFLAG. */
uint32_t systick_cvr_read(struct sim_core *c)
{
	return systick_cvr(c, core_now(c, 0xE000E018u));
}

void systick_cvr_write(struct sim_core *c, uint32_t v)
{
	(void)v;
	c->systick.cvr = 0;
	c->systick.csr &= ~SYST_COUNTFLAG;
	c->systick.sync = core_now(c, 0xE000E018u);
	core_request_stop(c);
}
