/* SysTick, the Armv7-M system timer (Armv7-M ARM B3.3): a 24-bit down-counter kept lazily as the
 * value at a sync point plus the cycles since, so nothing is done per cycle. Its registers are
 * rows of the SCS table (scs.c); the run loop asks when it next wraps (systick_next_event). */
#include "scs/exc.h"
#include "scs/scs_state.h"
#include "scs/systick.h"

#include <string.h>

#define SYST_ENABLE    1u
#define SYST_TICKINT   2u
#define SYST_CLKSOURCE 4u
#define SYST_COUNTFLAG (1u << 16)

/* ---- SysTick (B3.3) ------------------------------------------------------------------------- */

void systick_reset(struct scs *s)
{
	memset(&s->systick, 0, sizeof(s->systick));
	s->systick.sync = s->ops->cycles(s->core);
}

static unsigned systick_div(const struct scs *s)
{
	/* CLKSOURCE 0: the external reference, HCLK/8 on the STM32F4 (RM0090 figure 21). */
	return (s->systick.csr & SYST_CLKSOURCE) ? 1u : 8u;
}

/* Ticks from the last sync to the first time the counter reaches 0. */
static uint64_t first_zero(const struct systick_state *st)
{
	return st->cvr ? st->cvr : (uint64_t)st->rvr + 1u;
}

bool systick_tickint(const struct scs *s)
{
	return (s->systick.csr & (SYST_ENABLE | SYST_TICKINT)) == (SYST_ENABLE | SYST_TICKINT);
}

uint64_t systick_next_event(struct scs *s)
{
	struct systick_state *st = &s->systick;
	if (!(st->csr & SYST_ENABLE) || (st->rvr == 0 && st->cvr == 0))
		return UINT64_MAX;
	unsigned div = systick_div(s);
	uint64_t now = s->ops->cycles(s->core);
	uint64_t e = (now - st->sync) / div;
	uint64_t e0 = first_zero(st), period = (uint64_t)st->rvr + 1u;
	uint64_t next;
	if (e < e0) {
		next = e0;
	} else {
		if (st->rvr == 0)
			return UINT64_MAX;
		next = e0 + ((e - e0) / period + 1u) * period;
	}
	uint64_t t = st->sync + next * div;
	return t > now ? t - now : 1u;
}

void systick_advance(struct scs *s, uint64_t now)
{
	struct systick_state *st = &s->systick;
	if (!(st->csr & SYST_ENABLE)) {
		st->sync = now;
		return;
	}
	unsigned div = systick_div(s);
	uint64_t e = (now - st->sync) / div;
	if (e == 0)
		return;
	uint64_t e0 = first_zero(st), period = (uint64_t)st->rvr + 1u;
	uint64_t events = 0;
	uint32_t value;
	if (st->cvr == 0 && st->rvr == 0) {
		value = 0;
	} else if (e < e0) {
		/* From 0 the next tick reloads RVR (B3.3.1): RVR, RVR-1, ... */
		value = st->cvr ? (uint32_t)(st->cvr - e) : (uint32_t)(st->rvr + 1u - e);
	} else {
		events = st->rvr ? 1u + (e - e0) / period : 1u;
		uint64_t k = st->rvr ? (e - e0) % period : 0;
		value = k == 0 ? 0 : (uint32_t)(st->rvr + 1u - k);
	}
	st->cvr = value;
	st->sync += e * div;
	if (events) {
		st->csr |= SYST_COUNTFLAG;
		if (st->csr & SYST_TICKINT)
			exc_set_pending(s, EXC_SYSTICK);
	}
}

static uint32_t systick_cvr(struct scs *s, uint64_t now)
{
	systick_advance(s, now);
	return s->systick.cvr;
}

/* SYST_CSR (B3.3.3): COUNTFLAG clears on read. */
uint32_t systick_csr_read(struct scs *s)
{
	uint32_t v = s->systick.csr;
	s->systick.csr &= ~SYST_COUNTFLAG;
	return v;
}

void systick_csr_write(struct scs *s, uint32_t v)
{
	systick_advance(s, scs_now(s, 0xE000E010u));
	s->systick.csr = (s->systick.csr & SYST_COUNTFLAG) | (v & 7u);
	s->systick.sync = scs_now(s, 0xE000E010u);
	scs_request_stop(s);
}

/* SYST_RVR (B3.3.4): RELOAD is 24 bits. */
uint32_t systick_rvr_read(struct scs *s)
{
	return s->systick.rvr;
}

void systick_rvr_write(struct scs *s, uint32_t v)
{
	s->systick.rvr = v & 0x00FFFFFFu;
	scs_request_stop(s);
}

/* SYST_CVR (B3.3.5): any write clears the counter and COUNTFLAG. */
uint32_t systick_cvr_read(struct scs *s)
{
	return systick_cvr(s, scs_now(s, 0xE000E018u));
}

void systick_cvr_write(struct scs *s, uint32_t v)
{
	(void)v;
	s->systick.cvr = 0;
	s->systick.csr &= ~SYST_COUNTFLAG;
	s->systick.sync = scs_now(s, 0xE000E018u);
	scs_request_stop(s);
}
