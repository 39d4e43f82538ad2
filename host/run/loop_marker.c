/* From halt to halt (docs/markers.md): one handler per marker kind. CAL_BEGIN/CAL_END calibrate the
 * overhead, SYNC writes the next inputs, BEGIN/END file one sample, DONE ends the run. loop.c finds
 * the halt and calls loop_on_marker; nothing here calls back into loop.c. */
#include "run/loop_marker.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/le.h"
#include "base/str.h"
#include "bench_abi.h"
#include "firmware/regions.h"
#include "run/loop_check.h"
#include "run/loop_icount.h"
#include "run/loop_stack.h"

const char *loop_marker_text(const struct marker *m, char *buf, size_t len)
{
	if (!m)
		return "none yet";
	return str_fmt_cut(buf, len, "%s %s", markers_kind_name(m->kind), m->name);
}

static struct loop_pending *pending_for(struct loop *c, uint16_t id, bool create)
{
	struct loop_pending *free_slot = NULL;

	for (size_t i = 0; i < LOOP_MAX_PENDING; i++) {
		if (c->pend[i].valid && c->pend[i].id == id)
			return &c->pend[i];
		if (!c->pend[i].valid && !free_slot)
			free_slot = &c->pend[i];
	}
	if (create && free_slot) {
		free_slot->id = id;
		return free_slot;
	}
	return NULL;
}

/* 2^bits of the run's counter: a stretch this long or longer has wrapped. */
static double counter_span(const struct loop *c)
{
	return c->cfg->counter ? (double)(1ull << c->cfg->counter->bits) : 4294967296.0;
}

/* One sample: wrap-safe difference modulo the counter's width (DWT_CYCCNT wraps every 2^32 cycles,
 * 25.6 s at 168 MHz), minus the calibrated overhead. Without a wider clock the host's clock checks
 * it (loop_check_host_clock): a count the time between the halts cannot hold fails the run, one
 * that had room to wrap is flagged. ran_ms: c->ran_min_ms at begin. */
int loop_add_sample(struct loop *c, const char *name, uint32_t begin, uint32_t end, uint64_t begin_ms, uint64_t ran_ms,
                    uint8_t flags, const struct loop_stack_fig *x)
{
	uint32_t delta = c->cfg->counter ? counters_delta(c->cfg->counter, begin, end) : 0;
	int64_t cycles = (int64_t)delta - c->overhead;
	struct bench_result *res;
	int rc;

	if ((rc = loop_check_host_clock(c, name, delta, begin_ms, c->ran_min_ms - ran_ms, &flags)))
		return rc;
	if (c->cur_warm)
		return 0;
	res = results_get(c->rep, name, c->cur_args, c->n_cur_args);
	if (res && !c->cfg->counter) {
		str_fmt_cut(res->error, sizeof(res->error),
		            "no cycle counter on this target (counter: none): marker pair reached, nothing measured");
		return 0;
	}
	if (!res || results_add_sample(res, cycles, flags) ||
	    (x->has_stack && results_stack_add(res, x->bytes, x->flags)))
		return bench_fail(c->err, BENCH_E_NOMEM, "out of memory storing samples: use fewer --repeat or inputs");
	if (x->has_code && x->code.bytes >= res->code.bytes) /* the most any sample ran (docs/reports.md) */
		res->code = x->code;
	c->samples_taken++;
	return 0;
}

static int write_le(struct loop *c, uint32_t addr, uint64_t v, unsigned size)
{
	uint8_t b[8];

	le_put(b, v, size);
	return backend_write_mem(c->bk, addr, b, size, c->err);
}

/* Writes one input and reads it back: a value that does not stick (the symbol is not RAM, a
 * peripheral, or the firmware overwrites it before its BKPT) would file every sample under an
 * input the code did not see. */
static int write_input(struct loop *c, const char *name, uint32_t addr, int64_t v, unsigned size)
{
	uint8_t back[8];
	uint64_t got = 0, want = (uint64_t)v;
	int rc;

	if ((rc = write_le(c, addr, want, size)) || (rc = backend_read_mem(c->bk, addr, back, size, c->err)))
		return rc;
	for (unsigned i = 0; i < size; i++)
		got |= (uint64_t)back[i] << (8 * i);
	if (size < 8)
		want &= (1ull << (8 * size)) - 1;
	if (got != want)
		return bench_fail(
		    c->err, BENCH_E_TARGET,
		    "--arg %s: wrote %" PRId64 " to 0x%08" PRIx32 ", read back 0x%" PRIx64
		    ": the input is not in writable RAM or the firmware overwrites it; declare it `volatile` "
		    "in RAM",
		    name, v, addr, got);
	return 0;
}

/* The firmware's bench_init() reports a missing or locked counter in bench_ctl.status. */
static int check_ctl(struct loop *c)
{
	uint8_t raw[BENCH_CTL_SIZE];
	uint32_t magic, status;
	int rc;

	if (!c->cfg->has_ctl)
		return 0;
	if ((rc = backend_read_mem(c->bk, c->cfg->ctl_addr, raw, sizeof(raw), c->err)))
		return rc;
	magic = le_get32(raw + BENCH_CTL_OFF_MAGIC);
	status = le_get32(raw + BENCH_CTL_OFF_STATUS);
	if (magic != BENCH_CTL_MAGIC)
		return bench_fail(c->err, BENCH_E_NO_MARKERS,
		                  "bench_ctl in %s has magic 0x%08x, not 0x%08x: rebuild the "
		                  "firmware with this version's target/include/bench.h",
		                  c->cfg->o->firmware, magic, BENCH_CTL_MAGIC);
	if (status == BENCH_CTL_STATUS_NO_CYCCNT && c->cfg->counter)
		return bench_fail(c->err, BENCH_E_UNSUPPORTED,
		                  "the target has no cycle counter (DWT_CTRL.NOCYCCNT is set): "
		                  "measure on a core with a DWT cycle counter");
	if (status == BENCH_CTL_STATUS_DWT_LOCKED)
		return bench_fail(c->err, BENCH_E_UNSUPPORTED,
		                  "the target's DWT is locked (DWT_LSR): unlock it in the "
		                  "firmware (write 0xC5ACCE55 to DWT_LAR) before bench_init()");
	return 0;
}

/* SYNC: choose what the next iteration measures and tell the firmware (docs/markers.md). */
static int on_sync(struct loop *c)
{
	size_t k = c->sync_count++, combo, within, idx;
	uint32_t ctl[2];
	uint8_t raw[8];
	int rc;

	c->ended_since_sync = false;
	if (k < c->total_iters && k >= c->sync_high) {
		c->sync_high = k + 1;
		c->idle_halts = 0; /* a new input: progress */
	}
	if (k == 0 && ((rc = check_ctl(c)) || (rc = loop_check_clock(c))))
		return rc;
	if (k > 0 && c->done_iters < c->total_iters) {
		c->done_iters++;
		progress_update(&c->prog, c->done_iters);
	}
	if (k >= c->total_iters) {
		c->stopping = true;
		ctl[0] = 1, ctl[1] = (uint32_t)k;
	} else {
		combo = k / c->per_combo;
		within = k % c->per_combo;
		c->cur_warm = within < c->cfg->o->warmup;
		if (within == 0 || c->rewrite_inputs) {
			c->rewrite_inputs = false;
			/* The cartesian product, first --arg outermost. */
			idx = combo;
			for (size_t i = c->cfg->o->n_sweeps; i-- > 0;) {
				const struct run_sweep *s = &c->cfg->o->sweeps[i];
				int64_t v = s->values[idx % s->n];
				idx /= s->n;
				/* Both are BENCH_NAME_MAX: whole by construction. */
				(void)str_copy(c->cur_args[i].name, sizeof(c->cur_args[i].name), s->name);
				c->cur_args[i].value = v;
				if ((rc = write_input(c, s->name, c->cfg->input_addr[i], v, c->cfg->input_size[i])))
					return rc;
			}
			c->n_cur_args = c->cfg->o->n_sweeps;
		}
		ctl[0] = 0, ctl[1] = (uint32_t)k;
	}
	if (!c->cfg->has_ctl)
		return c->stopping ? bench_fail(c->err, BENCH_E_NO_MARKERS,
		                                "%s has SYNC markers but no bench_ctl to stop "
		                                "its loop: link target/ (bench.c)",
		                                c->cfg->o->firmware)
		                   : 0;
	/* stop and iteration are adjacent words: one write. */
	le_put32(raw, ctl[0]);
	le_put32(raw + 4, ctl[1]);
	return backend_write_mem(c->bk, c->cfg->ctl_addr + BENCH_CTL_OFF_STOP, raw, sizeof(raw), c->err);
}

/* The wide clock (the virtual board's 64-bit count) and its exception count now, or 0 without one. */
int loop_wide_now(struct loop *c, uint64_t *now, uint64_t *exc)
{
	uint64_t unused;

	*now = 0;
	if (!exc)
		exc = &unused;
	*exc = 0;
	if (c->hooks->board_stats) {
		int rc = loop_board_stats(c);
		*now = c->stats_cycles;
		*exc = c->stats_exc;
		return rc;
	}
	return c->hooks->wide_clock ? c->hooks->wide_clock(c->hooks->ctx, now, exc, c->err) : 0;
}

/* A stretch of 2^bits cycles or more by the wide clock: the counter's difference is then short by a
 * multiple of its span. */
uint8_t loop_wide_wrapped(const struct loop *c, uint64_t begin, uint64_t end)
{
	return c->hooks->wide_clock && (double)(end - begin) >= counter_span(c) ? BENCH_SAMPLE_WRAPPED : 0;
}

/* One handler per marker kind; each gets the counter's value at the halt. */
typedef int (*marker_handler)(struct loop *c, const struct marker *m, uint32_t cnt, bool *done);

static int on_cal_begin(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	(void)m;
	(void)done;
	/* bench_init() calibrates once per boot: a second calibration in one pass is a restart
	 * between stretches (watchdog, AIRCR.SYSRESETREQ, a lockup reset). The firmware's start-up
	 * code has set the inputs back to their initial values: the next SYNC writes them again, so no
	 * sample is filed under an input the firmware did not see. */
	if (c->boots++ && c->cfg->has_sync)
		return loop_check_restarted(c);
	c->cal_begin = cnt;
	c->cal_valid = true;
	return 0;
}

static int on_cal_end(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	(void)m;
	(void)done;
	if (c->cal_valid && c->cfg->counter) {
		/* The first calibration of the run is the one reported and subtracted. */
		if (!c->calibrated)
			c->overhead = (int64_t)counters_delta(c->cfg->counter, c->cal_begin, cnt);
		c->calibrated = true;
		c->cal_valid = false;
		c->rep->context.overhead_cycles = c->overhead;
	}
	run_phase_done(c->phases, RUN_PHASE_CAL);
	return 0;
}

/* Where marker pair ID's BEGIN is (the stretch's first instruction is right after it). */
static uint32_t begin_addr(const struct loop *c, uint16_t id)
{
	for (size_t i = 0; i < c->cfg->elf->markers.n; i++)
		if (c->cfg->elf->markers.v[i].kind == MARKER_BEGIN && c->cfg->elf->markers.v[i].id == id)
			return c->cfg->elf->markers.v[i].addr;
	return 0;
}

static int on_begin(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	struct loop_pending *p = pending_for(c, m->id, true);
	int rc;

	(void)done;
	if (!p)
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "more than %d marker pairs open at once: close them with "
		                  "BENCH_END",
		                  LOOP_MAX_PENDING);
	p->valid = true;
	p->count = cnt;
	p->host_ms = clock_now_ms();
	p->ran_ms = c->ran_min_ms;
	if (c->cfg->o->icount && (rc = loop_icount_read(c, &p->icount)))
		return rc;
	if ((rc = loop_wide_now(c, &p->wide, &p->wide_exc)))
		return rc;
	if ((rc = loop_stack_begin(c, m->name, p)))
		return rc;
	return loop_check_begin(c, p);
}

static int on_end(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	struct loop_pending *p = pending_for(c, m->id, false);
	struct loop_stack_fig fig = {0};
	uint64_t now, exc;
	uint8_t flags = 0;
	int rc;

	(void)done;
	if (!p)
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "marker END %s (id %u) reached without its BEGIN: check the "
		                  "firmware's BENCH_BEGIN/BENCH_END pairs",
		                  m->name, m->id);
	p->valid = false;
	c->ended_since_sync = true;
	c->restarts_in_row = 0; /* a finished stretch */
	c->idle_halts = 0;
	if ((rc = loop_wide_now(c, &now, &exc)) || (rc = loop_check_end(c, m, p, cnt, now, exc, &flags)))
		return rc;
	if ((rc = loop_stack_end(c, p, begin_addr(c, m->id), m->addr, flags & BENCH_SAMPLE_INTERRUPTED, &fig)))
		return rc;
	if ((rc = loop_add_sample(c, m->name, p->count, cnt, p->host_ms, p->ran_ms,
	                          flags | loop_wide_wrapped(c, p->wide, now), &fig)))
		return rc;
	if (c->cfg->o->icount && !(rc = loop_icount_read(c, &now)))
		rc = loop_icount_sample(c, m->name, p->icount, now);
	return rc;
}

static int on_sync_marker(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	(void)m;
	(void)cnt;
	(void)done;
	return on_sync(c);
}

/* The counter's enable bit (DWT_CTRL.CYCCNTENA, Armv7-M ARM C1.8.7; CCTRL.CE on TriCore) cleared by
 * the firmware freezes it: its samples are not cycles. One read per run, at DONE; a counter switched
 * off and on again in between is not seen. */
static int check_counter_on(struct loop *c)
{
	const struct counter_desc *k = c->cfg->counter;
	uint32_t en = 0, addr = c->cfg->counter_addr - k->addr + k->enable_addr;
	int rc;

	if (!k->enable_mask)
		return 0;
	if ((rc = backend_read_u32(c->bk, addr, &en, c->err)))
		return rc;
	if (en & k->enable_mask)
		return 0;
	if (k->core == COUNTER_CORTEX_M)
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "the cycle counter was switched off during the run (DWT_CTRL.CYCCNTENA = 0): "
		                  "the samples are not cycles; leave DWT_CTRL to bench");
	return bench_fail(c->err, BENCH_E_TARGET,
	                  "the cycle counter was switched off during the run (CCTRL.CE = 0): "
	                  "the samples are not cycles; leave CCTRL to bench");
}

static int on_done(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	int rc;

	(void)m;
	(void)cnt;
	*done = true;
	if ((c->cfg->counter && (rc = check_counter_on(c))) || (rc = loop_check_clock(c)))
		return rc;
	if (c->cfg->o->no_regions || (rc = regions_read(c->bk, c->cfg->elf, c->rep, c->err)))
		return c->cfg->o->no_regions ? 0 : rc;
	if (!c->cfg->counter)
		regions_mark_no_cycles(c->rep); /* counter none: never 0 cycles (docs/regions.md) */
	return 0;
}

static const marker_handler handlers[] = {
    [MARKER_BEGIN] = on_begin,         [MARKER_END] = on_end,
    [MARKER_SYNC] = on_sync_marker,    [MARKER_DONE] = on_done,
    [MARKER_CAL_BEGIN] = on_cal_begin, [MARKER_CAL_END] = on_cal_end,
};

/* Handles the halt at marker m; *done set at DONE. */
int loop_on_marker(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
{
	if (m->kind == MARKER_CAL_BEGIN) {
		/* Firmware calibrates once per boot (bench_init): seeing it with a pair still open means
		 * the core restarted mid-stretch (watchdog, AIRCR.SYSRESETREQ): that stretch has no END. */
		for (size_t i = 0; i < LOOP_MAX_PENDING; i++)
			if (c->pend[i].valid) {
				char last[96];
				return bench_fail(c->err, BENCH_E_TARGET,
				                  "the target restarted inside the measured stretch (after marker %s): "
				                  "find what resets the core (watchdog, AIRCR.SYSRESETREQ)",
				                  loop_marker_text(c->last_marker, last, sizeof(last)));
			}
	}
	c->last_marker = m;
	if ((size_t)m->kind >= sizeof(handlers) / sizeof(handlers[0]) || !handlers[m->kind])
		return bench_fail(c->err, BENCH_E_INTERNAL, "marker kind %u has no handler", (unsigned)m->kind);
	return handlers[m->kind](c, m, cnt, done);
}
