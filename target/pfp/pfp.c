/* Profile-point regions: the run-time half (the host half is host/firmware/regions.c). See pfp.h for the model
 * and docs/regions.md for the table layout.
 *
 * Accounting: `st.last` holds the counter at the end of the previous PFP call; every call reads the
 * counter on entry, charges the interval to the innermost open region of the running context
 * (`st.top`, or the idle record), does its bookkeeping, and reads the counter again on exit. Open
 * regions form a stack through pfp_region.up; switching contexts or entering a handler swaps the
 * whole stack, so only the running code's innermost region is ever charged. That is PFP's "active
 * list" with exclusive nesting and pre-emption pause, without walking a list on every call. */
#include "pfp_internal.h"

#include <stddef.h>

/* The record layout is part of the table format: keep it fixed on the 32-bit targets
 * (C99 has no _Static_assert; a negative array size fails the build instead). */
#define PFP_CHECK(name, cond) typedef char pfp_check_##name[(cond) ? 1 : -1]
#if UINTPTR_MAX == 0xffffffffu
PFP_CHECK(record_size, sizeof(struct pfp_region) == PFP_RECORD_SIZE);
PFP_CHECK(header_size, sizeof(struct pfp_table) == PFP_HEADER_SIZE);
PFP_CHECK(hdr_seq, offsetof(struct pfp_table, seq) == PFP_HDR_OFF_SEQ);
PFP_CHECK(hdr_counter, offsetof(struct pfp_table, counter) == PFP_HDR_OFF_COUNTER);
PFP_CHECK(hdr_flags, offsetof(struct pfp_table, flags) == PFP_HDR_OFF_FLAGS);
PFP_CHECK(hdr_events, offsetof(struct pfp_table, events) == PFP_HDR_OFF_EVENTS);
PFP_CHECK(hdr_names, offsetof(struct pfp_table, names) == PFP_HDR_OFF_NAMES);
PFP_CHECK(hdr_regions, offsetof(struct pfp_table, regions) == PFP_HDR_OFF_REGIONS);
PFP_CHECK(hdr_errors, offsetof(struct pfp_table, errors) == PFP_HDR_OFF_ERRORS);
PFP_CHECK(rec_total, offsetof(struct pfp_region, total) == PFP_REC_OFF_TOTAL);
PFP_CHECK(rec_min, offsetof(struct pfp_region, min) == PFP_REC_OFF_MIN);
PFP_CHECK(rec_ema, offsetof(struct pfp_region, ema) == PFP_REC_OFF_EMA);
PFP_CHECK(rec_events, offsetof(struct pfp_region, events) == PFP_REC_OFF_EVENTS);
#endif

static struct pfp_region pfp_idle; /* charged when no region is open: time nobody measures */

static struct {
	struct pfp_region *top;
	uint32_t last;
	struct pfp_evset ev; /* ev.n == 0: cycles only */
} st = {&pfp_idle, 0, {0}};

static inline void charge(uint32_t now)
{
	struct pfp_region *r = st.top;
	uint32_t d = (now - st.last) & PFP_PORT_CYCLES_MASK;

	/* An interval of half the counter's range or more may be a wrapped longer one (STYLE 8). */
	if (d > (PFP_PORT_CYCLES_MASK >> 1))
		r->errors |= PFP_E_WRAP;
	r->partial += d;
	if (st.ev.n && pfp_evset_delta(&st.ev, d, r->ev_partial))
		r->errors |= PFP_E_EVT_WRAP;
}

/* The exit half of every call: the next interval starts here (events first: the cycle read is last). */
static inline void restart(void)
{
	if (st.ev.n)
		pfp_evset_snap(&st.ev);
	st.last = pfp_port_cycles();
}

static int alpha_positive(float alpha)
{
	union {
		float f;
		uint32_t u;
	} a;
	a.f = alpha;
	return a.u != 0 && (a.u >> 31) == 0;
}

static void record(struct pfp_region *r)
{
	uint32_t x = r->partial;

	r->partial = 0;
	r->flags &= ~PFP_F_LATCHED;
	/* Only subtracting the calibrated bias can take a sample below 0, and never by much; a huge
	 * value is a long sample (flagged PFP_E_WRAP when an interval was that long). */
	if (x >= 0xffff0000u) {
		x = 0;
		r->errors |= PFP_E_NEGATIVE;
	}
	bench_regions.seq++; /* odd: the host retries its read */
	pfp_port_barrier();
	r->count++;
	r->total += x;
	r->last = x;
	if (x < r->min)
		r->min = x;
	if (x > r->max)
		r->max = x;
	/* PFP's exponential average, alpha = T / tau; the first sample seeds it. alpha > 0 is tested on its
	 * IEEE bits (positive, nonzero) so a soft-float build pays no float compare on every sample. */
	if (alpha_positive(r->alpha))
		r->ema = (r->count == 1) ? (float)x : r->ema + r->alpha * ((float)x - r->ema);
	for (unsigned i = 0; i < st.ev.n; i++) {
		r->events[i] += r->ev_partial[i];
		r->ev_partial[i] = 0;
	}
	pfp_port_barrier();
	bench_regions.seq++;
}

/* The innermost region of a parked stack that is still open: a region dropped while its context was
 * parked (disabled, or invalid use from a handler) is skipped, not charged. */
static struct pfp_region *open_top(struct pfp_region *r)
{
	while (r != &pfp_idle && !(r->flags & PFP_F_INSIDE))
		r = r->up;
	return r;
}

/* Takes r out of the running stack and disables it, keeping its statistics. */
static void drop(struct pfp_region *r, uint32_t why)
{
	struct pfp_region **pp = &st.top;

	while (*pp != &pfp_idle && *pp != r)
		pp = &(*pp)->up;
	if (*pp == r)
		*pp = r->up;
	r->flags = 0;
	r->partial = 0;
	for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
		r->ev_partial[i] = 0;
	r->errors |= why;
}

static struct pfp_region *region(unsigned id)
{
	if (id >= bench_regions.count) {
		bench_regions.errors |= PFP_TE_BAD_ID;
		return 0;
	}
	return &pfp_records[id];
}

static void clear_stats(struct pfp_region *r)
{
	bench_regions.seq++;
	pfp_port_barrier();
	r->count = 0;
	r->total = 0;
	r->last = 0;
	r->min = 0xffffffffu;
	r->max = 0;
	r->ema = 0.0f;
	r->errors = 0;
	for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
		r->events[i] = 0;
	pfp_port_barrier();
	bench_regions.seq++;
}

void pfp_init(uint32_t core_clock_hz)
{
	pfp_port_irq_t s = pfp_port_lock();

	pfp_port_init();
	bench_regions.counter = PFP_PORT_COUNTER;
	bench_regions.core_clock_hz = core_clock_hz;
	bench_regions.overhead = 0;
	bench_regions.nest_overhead = 0;
	bench_regions.isr_overhead = 0;
	bench_regions.flags = PFP_PORT_TABLE_FLAGS;
	bench_regions.n_events = 0;
	bench_regions.errors = 0;
	for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
		bench_regions.events[i] = 0;
	for (unsigned id = 0; id < bench_regions.count; id++) {
		struct pfp_region *r = &pfp_records[id];
		clear_stats(r);
		r->flags = 0;
		r->alpha = 0.0f;
		r->partial = 0;
		r->up = &pfp_idle;
		for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
			r->ev_partial[i] = 0;
	}
	st.top = &pfp_idle;
	st.ev.n = 0;
	st.last = pfp_port_cycles();
	pfp_port_unlock(s);
}

/* The closing half of Begin and End: the next interval starts at this read. A separate leaf so the
 * read is followed only by a store, the unlock and the return (GCC: noinline keeps it so). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
pfp_finish(pfp_port_irq_t s)
{
	st.last = pfp_port_cycles();
	pfp_port_unlock(s);
}

void pfp_begin_at(unsigned id, uint32_t now, pfp_port_irq_t s)
{
	struct pfp_region *r = region(id);

	charge(now);
	if (r && (r->flags & PFP_F_ENABLED)) {
		if (r->flags & PFP_F_INSIDE) {
			drop(r, PFP_E_DOUBLE_BEGIN);
		} else {
			r->flags |= PFP_F_INSIDE;
			r->up = st.top;
			st.top = r;
		}
	}
	if (st.ev.n)
		pfp_evset_snap(&st.ev);
	pfp_finish(s);
}

void pfp_end_at(unsigned id, int latch, uint32_t now, pfp_port_irq_t s)
{
	struct pfp_region *r = region(id);

	charge(now);
	if (r && (r->flags & PFP_F_INSIDE)) {
		if (r != st.top) {
			drop(r, PFP_E_NOT_INNERMOST);
		} else {
			/* Skip regions dropped while parked under this one (a handler's invalid use). */
			struct pfp_region *up = open_top(r->up);
			st.top = up;
			r->flags &= ~PFP_F_INSIDE;
			r->partial -= bench_regions.overhead;
			up->partial -= bench_regions.nest_overhead;
			if (latch)
				r->flags |= PFP_F_LATCHED;
			else
				record(r);
		}
	}
	if (st.ev.n)
		pfp_evset_snap(&st.ev);
	pfp_finish(s);
}

void pfp_enable(unsigned id)
{
	pfp_port_irq_t s = pfp_port_lock();
	struct pfp_region *r = region(id);

	if (r)
		r->flags |= PFP_F_ENABLED;
	pfp_port_unlock(s);
}

void pfp_disable(unsigned id)
{
	pfp_port_irq_t s = pfp_port_lock();
	struct pfp_region *r = region(id);

	if (r && (r->flags & PFP_F_INSIDE)) {
		charge(pfp_port_cycles());
		drop(r, 0);
		restart();
	} else if (r) {
		r->flags = 0;
		r->partial = 0;
	}
	pfp_port_unlock(s);
}

void pfp_set_alpha(unsigned id, float alpha)
{
	pfp_port_irq_t s = pfp_port_lock();
	struct pfp_region *r = region(id);

	if (r)
		r->alpha = alpha;
	pfp_port_unlock(s);
}

void pfp_get_stats(unsigned id, struct pfp_stats *out)
{
	pfp_port_irq_t s = pfp_port_lock();
	struct pfp_region *r = region(id);

	if (r) {
		out->count = r->count;
		out->min = r->min;
		out->max = r->max;
		out->last = r->last;
		out->total = r->total;
		out->alpha = r->alpha;
		out->ema = r->ema;
		out->flags = r->flags;
		out->errors = r->errors;
		for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
			out->events[i] = r->events[i];
	}
	pfp_port_unlock(s);
}

void pfp_reset_stats(unsigned id)
{
	pfp_port_irq_t s = pfp_port_lock();
	struct pfp_region *r = region(id);

	if (r)
		clear_stats(r);
	pfp_port_unlock(s);
}

void pfp_switch_out(struct pfp_ctx *prev)
{
	pfp_port_irq_t s = pfp_port_lock();

	charge(pfp_port_cycles());
	if (prev)
		prev->top = st.top;
	st.top = &pfp_idle;
	restart();
	pfp_port_unlock(s);
}

void pfp_switch_in(struct pfp_ctx *next)
{
	pfp_port_irq_t s = pfp_port_lock();

	charge(pfp_port_cycles());
	st.top = open_top((next && next->top) ? next->top : &pfp_idle);
	/* The resumed region was charged the head of the call that parked it and the tail of this one:
	 * the same bias an empty nested pair leaves (pfp_calibrate). */
	st.top->partial -= bench_regions.nest_overhead;
	restart();
	pfp_port_unlock(s);
}

void pfp_switch(struct pfp_ctx *prev, struct pfp_ctx *next)
{
	pfp_port_irq_t s = pfp_port_lock();

	charge(pfp_port_cycles());
	if (prev)
		prev->top = st.top;
	st.top = open_top((next && next->top) ? next->top : &pfp_idle);
	st.top->partial -= bench_regions.nest_overhead;
	restart();
	pfp_port_unlock(s);
}

pfp_isr_t pfp_isr_enter(void)
{
	pfp_port_irq_t s = pfp_port_lock();
	struct pfp_region *saved;

	charge(pfp_port_cycles());
	saved = st.top;
	st.top = &pfp_idle;
	restart();
	pfp_port_unlock(s);
	return saved;
}

void pfp_isr_exit(pfp_isr_t saved)
{
	pfp_port_irq_t s = pfp_port_lock();

	charge(pfp_port_cycles());
	st.top = open_top(saved ? saved : &pfp_idle);
	/* Entry, return and the handler's own prologue/epilogue stay in the interrupted region: the
	 * calibrated constant takes them out (pfp_calibrate_isr). */
	st.top->partial -= bench_regions.isr_overhead;
	restart();
	pfp_port_unlock(s);
}

int pfp_set_events(const uint16_t *events, unsigned n)
{
	pfp_port_irq_t s = pfp_port_lock();
	int rc = pfp_evset_resolve(&st.ev, events, n);

	if (rc == 0) {
		bench_regions.n_events = n;
		for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
			bench_regions.events[i] = i < n ? events[i] : 0;
		if (n)
			bench_regions.flags |= PFP_T_EVENTS;
		else
			bench_regions.flags &= ~PFP_T_EVENTS;
		pfp_evset_start(&st.ev);
	} else {
		st.ev.n = 0;
		if (rc == -2)
			bench_regions.errors |= PFP_TE_EVT_CONFLICT;
	}
	st.last = pfp_port_cycles();
	pfp_port_unlock(s);
	return rc == 0 ? 0 : -1;
}
