/* From halt to halt (docs/markers.md): CAL_BEGIN/CAL_END calibrate the overhead, SYNC takes the
 * next inputs, BEGIN/END give one sample, DONE ends the run. Resuming is a plain resume: OpenOCD 0.12
 * steps over a BKPT it did not set (src/target/armv7m.c armv7m_maybe_skip_bkpt_inst). In breakpoint
 * mode the host plants hardware breakpoints (FPB, Armv7-M ARM C1.11) and steps the PC over a BKPT
 * itself, because such a target would not halt on it. */
#include "run/loop.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/le.h"
#include "base/str.h"
#include "bench_abi.h"
#include "firmware/regions.h"
#include "run/loop_check.h"
#include "run/loop_stack.h"
#include "run/run_fault.h"

/* Cortex-M debug registers the loop touches besides the counter (Armv7-M ARM C1.6, C1.8). */
#define LOOP_DHCSR             0xE000EDF0u
#define LOOP_DHCSR_S_LOCKUP    (1u << 19) /* C1.6.2 */
#define LOOP_DEMCR_TRCENA      (1u << 24) /* C1.6.5: powers the DWT */
#define LOOP_DWT_CTRL_NOCYCCNT (1u << 25) /* C1.8.7 */

void run_phase_done(struct run_phases *p, enum run_phase ph)
{
	if (p && !p->ms[ph])
		p->ms[ph] = clock_now_ms() - p->t0_ms;
}

static bool cancelled(const struct loop *c)
{
	return c->hooks->cancelled && c->hooks->cancelled(c->hooks->ctx);
}

int loop_interrupted(struct loop *c)
{
	return bench_fail(c->err, BENCH_E_INTERRUPTED,
	                  "interrupted: stopped the run; the report keeps the %zu samples "
	                  "measured so far",
	                  c->samples_taken);
}

/* A child that exited ends the run at once (exit 4, docs/exit-codes.md) instead of after --timeout;
 * the session says which child and how, the loop adds what was kept. */
static int children_alive(struct loop *c)
{
	size_t used;
	int rc;

	if (!c->hooks->children_alive || !(rc = c->hooks->children_alive(c->hooks->ctx, c->err)))
		return 0;
	used = strlen(c->err->msg);
	if (strstr(c->err->msg, "stopped mid-run"))
		(void)snprintf(c->err->msg + used, sizeof(c->err->msg) - used,
		               ": the report keeps the %zu samples measured so far", c->samples_taken);
	return rc;
}

static bool is_timeout(int rc)
{
	return rc == -(int)BENCH_E_TIMEOUT;
}

static const char *marker_text(const struct marker *m, char *buf, size_t len)
{
	if (!m)
		return "none yet";
	return str_fmt_cut(buf, len, "%s %s", markers_kind_name(m->kind), m->name);
}

/* What to fix, from where the run was when the target faulted: before the first marker the firmware was still
 * starting (clocks, HAL, peripherals; bench_init() not reached or not finished), inside a BEGIN..END pair it ran
 * the code under test, elsewhere its own code between measurements. */
static const char *fault_advice(const struct loop *c)
{
	if (!c->last_marker)
		return "it faulted while starting up, before bench_init() reached its first marker: fix the start-up "
		       "code (clock set-up, HAL init, peripheral access; docs/sim.md lists what the virtual board "
		       "models)";
	switch (c->last_marker->kind) {
	case MARKER_BEGIN:
		return "fix the code under test";
	case MARKER_CAL_BEGIN:
		return "it faulted in bench_init()'s calibration: check the target runtime's build (target/)";
	default:
		return "it faulted between measurements, in the firmware's own code around the markers: fix that code";
	}
}

static bool name_addr(void *ctx, uint32_t addr, char *out, size_t len)
{
	const struct loop *c = ctx;
	return c->hooks->name_addr && c->hooks->name_addr(c->hooks->ctx, addr, out, len);
}

static void board_output(struct loop *c, bool first_reset)
{
	if (c->hooks->board_output)
		c->hooks->board_output(c->hooks->ctx, first_reset);
}

/* The target stopped where it should not have, or did not stop: say where and why. */
static int diagnose(struct loop *c, bool timed_out, uint32_t pc)
{
	char fault[512], where[160], last[96];
	struct bench_error e;

	if (timed_out) {
		uint32_t dhcsr = 0;
		/* A locked-up core (a fault while taking a fault: Armv7-M ARM B1.5.15) never reaches a
		 * marker and its PC means nothing; DHCSR.S_LOCKUP (bit 19, C1.6.2) says so. */
		if (c->cfg->cm_debug_regs && backend_read_u32(c->bk, LOOP_DHCSR, &dhcsr, &e) == 0 &&
		    (dhcsr & LOOP_DHCSR_S_LOCKUP))
			return bench_fail(c->err, BENCH_E_FAULT,
			                  "the target locked up (DHCSR.S_LOCKUP: a fault while taking a fault, "
			                  "e.g. a bad vector table) after marker %s: %s",
			                  marker_text(c->last_marker, last, sizeof(last)), fault_advice(c));
		c->stats_fresh = false;
		if (backend_halt(c->bk, &e) || backend_read_reg(c->bk, BK_REG_PC, &pc, &e))
			return bench_fail(c->err, BENCH_E_TIMEOUT,
			                  "the target did not reach the next marker within %u ms "
			                  "and does not halt (after marker %s): raise --timeout or check the firmware",
			                  c->cfg->o->timeout_ms, marker_text(c->last_marker, last, sizeof(last)));
	}
	if (c->cfg->cm_debug_regs && run_fault_describe(c->bk, c->cfg->elf, pc, name_addr, c, fault, sizeof(fault)))
		return bench_fail(c->err, BENCH_E_FAULT, "the target faulted: %s (after marker %s): %s", fault,
		                  marker_text(c->last_marker, last, sizeof(last)), fault_advice(c));
	elf_describe_addr(c->cfg->elf, pc, where, sizeof(where));
	if (timed_out)
		return bench_fail(c->err, BENCH_E_TIMEOUT,
		                  "the target did not reach the next marker within %u ms (it is at "
		                  "%s, after marker %s): raise --timeout or check the firmware",
		                  c->cfg->o->timeout_ms, where, marker_text(c->last_marker, last, sizeof(last)));
	return bench_fail(c->err, BENCH_E_TARGET,
	                  "the target halted at %s, which is no marker (after marker %s): check "
	                  "for stray BKPT instructions or breakpoints",
	                  where, marker_text(c->last_marker, last, sizeof(last)));
}

static int poll_regions(struct loop *c)
{
	uint64_t now = clock_now_ms();
	int rc;

	if (!c->cfg->o->poll_ms || c->cfg->o->no_regions || now - c->last_poll_ms < c->cfg->o->poll_ms)
		return 0;
	c->last_poll_ms = now;
	c->poll_reads++;
	rc = regions_read(c->bk, c->cfg->elf, c->rep, c->err);
	if (!rc && !c->cfg->counter)
		regions_mark_no_cycles(c->rep); /* counter none: never 0 cycles (docs/regions.md) */
	if (!rc)
		return 0;
	/* A lost link or Ctrl-C ends the run as anywhere else; a table that cannot be read right now
	 * (torn, not yet initialised, spoilt for a while) only costs this snapshot: the markers are
	 * still measured and the table is read again at DONE (docs/regions.md). The regions of an
	 * earlier good poll stay in the report (regions_fetch replaces them only on success). */
	if (c->err->kind == BENCH_E_CONNECT || c->err->kind == BENCH_E_INTERRUPTED || c->err->kind == BENCH_E_NOMEM)
		return rc;
	if (!c->poll_failures++) {
		str_fmt_cut(c->poll_error, sizeof(c->poll_error), "%s", c->err->msg);
		if (c->prog.shown) /* the bar is a line without its newline: start below it */
			(void)fputc('\n', stderr);
		fprintf(stderr, "bench: warning: --poll could not read the region table: %s; measuring on\n",
		        c->err->msg);
	}
	bench_error_clear(c->err);
	return 0;
}

/* Resume and wait for the next halt, in slices so Ctrl-C, --poll and a child that died act while
 * the target runs. Each slice that ends with the target still running proves running time, added
 * to c->ran_min_ms for the host-clock check of the samples (loop_check_host_clock). The first slice is one round trip
 * (resume, wait, read the counter) and covers almost every marker; after each further slice the children are checked,
 * so a lost board is noticed within a slice plus one OpenOCD poll, not at --timeout. */
static int next_halt(struct loop *c, uint32_t *pc, uint32_t *cnt)
{
	struct backend_halt_info h;
	unsigned timeout = c->cfg->o->timeout_ms, slice = 250;
	uint64_t start = clock_now_ms(), first, sent, ran = 0;
	int rc;

	c->stats_fresh = false; /* the target runs */
	if (c->cfg->o->poll_ms && c->cfg->o->poll_ms < slice)
		slice = c->cfg->o->poll_ms;
	if (slice > timeout)
		slice = timeout;
	*cnt = 0;
	if (!c->cfg->counter) {
		rc = backend_resume(c->bk, c->err);
		if (!rc)
			rc = backend_wait_halt(c->bk, slice, &h, c->err);
	} else if (c->hooks->sampled_resume && c->last_marker && c->last_marker->kind == MARKER_BEGIN) {
		rc = c->hooks->sampled_resume(c->hooks->sample_ctx, c->bk, c->last_marker->name, timeout,
		                              c->cfg->counter_addr, &h, cnt, c->err);
	} else {
		rc = backend_resume_sample(c->bk, slice, c->cfg->counter_addr, &h, cnt, c->err);
	}
	first = clock_now_ms();
	if (is_timeout(rc))
		ran = slice; /* the server waited a slice after the resume and the target still ran */
	while (is_timeout(rc)) {
		board_output(c, false);
		if (cancelled(c))
			return loop_interrupted(c);
		if ((rc = children_alive(c)))
			return rc;
		if (clock_now_ms() - start >= timeout)
			return diagnose(c, true, 0);
		if ((rc = poll_regions(c)))
			return rc;
		sent = clock_now_ms();
		rc = backend_wait_halt(c->bk, slice, &h, c->err);
		/* Still running a slice after `sent`, and it started before `first` less a slice: it ran
		 * at least this long (less 2 ms for the two readings' truncation to whole ms). */
		if (is_timeout(rc) && sent + 2u * slice > first + 2u)
			ran = sent + 2u * slice - first - 2u;
		if (!rc && c->cfg->counter)
			rc = backend_read_u32(c->bk, c->cfg->counter_addr, cnt, c->err);
	}
	if (rc)
		return rc;
	c->ran_min_ms += ran;
	if (c->hooks->every_halt)
		board_output(c, false); /* the firmware's lines as they come */
	c->halts++;
	*pc = h.pc & ~1u;
	bench_error_clear(c->err);
	return loop_check_reset(c);
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
static int add_sample(struct loop *c, const char *name, uint32_t begin, uint32_t end, uint64_t begin_ms,
                      uint64_t ran_ms, uint8_t flags, const struct loop_stack_fig *x)
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
static int wide_now(struct loop *c, uint64_t *now, uint64_t *exc)
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
static uint8_t wide_wrapped(const struct loop *c, uint64_t begin, uint64_t end)
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
	if ((rc = wide_now(c, &p->wide, &p->wide_exc)))
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
	if ((rc = wide_now(c, &now, &exc)) || (rc = loop_check_end(c, m, p, cnt, now, exc, &flags)))
		return rc;
	if ((rc = loop_stack_end(c, p, begin_addr(c, m->id), m->addr, flags & BENCH_SAMPLE_INTERRUPTED, &fig)))
		return rc;
	if ((rc = add_sample(c, m->name, p->count, cnt, p->host_ms, p->ran_ms, flags | wide_wrapped(c, p->wide, now),
	                     &fig)))
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
static int on_marker(struct loop *c, const struct marker *m, uint32_t cnt, bool *done)
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
				                  marker_text(c->last_marker, last, sizeof(last)));
			}
	}
	c->last_marker = m;
	if ((size_t)m->kind >= sizeof(handlers) / sizeof(handlers[0]) || !handlers[m->kind])
		return bench_fail(c->err, BENCH_E_INTERNAL, "marker kind %u has no handler", (unsigned)m->kind);
	return handlers[m->kind](c, m, cnt, done);
}

/* One pass from reset to DONE (marker modes). In breakpoint mode the PC sits on a BKPT the target
 * would not halt on: the host moves it past (a BKPT takes no cycles when skipped this way, as
 * OpenOCD's own armv7m_maybe_skip_bkpt_inst does). A marker right behind it would then be skipped
 * too, because a resume steps over a breakpoint at the PC (OpenOCD and QEMU alike): such a marker is
 * taken at once, with the same counter value, since no instruction runs in between. */
static int run_markers_once(struct loop *c)
{
	bool done = false;
	int rc;

	while (!done) {
		uint32_t pc = 0, cnt = 0; /* set by next_halt on success */
		const struct marker *m;

		if (cancelled(c))
			return loop_interrupted(c);
		if ((rc = next_halt(c, &pc, &cnt)))
			return rc;
		m = markers_at(&c->cfg->elf->markers, pc);
		if (!m)
			return diagnose(c, false, pc);
		if ((rc = loop_check_progress(c)))
			return rc;
		for (;;) {
			const struct marker *next;
			if ((rc = on_marker(c, m, cnt, &done)))
				return rc;
			if (c->hooks->halt_record &&
			    (rc = c->hooks->halt_record(c->hooks->record_ctx, m, NULL, c->cur_warm, c->cur_args,
			                                c->n_cur_args, c->err)))
				return rc;
			if (c->mode != LOOP_MODE_BP_MARKERS || done || c->cfg->markers_are_nops)
				break;
			next = markers_at(&c->cfg->elf->markers, m->addr + LOOP_BKPT_SIZE);
			if (!next) {
				rc = backend_write_reg(c->bk, BK_REG_PC, m->addr + LOOP_BKPT_SIZE, c->err);
				if (rc)
					return rc;
				break;
			}
			m = next;
		}
	}
	return 0;
}

/* One pass in --start/--stop mode: reset, run to start, then to stop. */
static int run_symbols_once(struct loop *c)
{
	uint32_t pc = 0, cnt0 = 0, cnt1 = 0; /* set by next_halt on success */
	uint64_t t0, ran0, wide0 = 0, wide1 = 0;
	char name[2 * BENCH_NAME_MAX];
	struct loop_stack_fig fig = {0};
	struct loop_pending sp = {0}; /* the stack at --start */
	int rc;

	if ((rc = next_halt(c, &pc, &cnt0)))
		return rc;
	if (pc == c->cfg->sym_stop)
		return bench_fail(c->err, BENCH_E_USAGE,
		                  "the target reached --stop %s before --start %s: give --start the function "
		                  "that runs first",
		                  c->cfg->o->stop_sym, c->cfg->o->start_sym);
	if (pc != c->cfg->sym_start)
		return diagnose(c, false, pc);
	if (c->hooks->halt_record &&
	    (rc = c->hooks->halt_record(c->hooks->record_ctx, NULL, NULL, c->cur_warm, NULL, 0, c->err)))
		return rc;
	c->sym_open = true;
	t0 = clock_now_ms();
	ran0 = c->ran_min_ms;
	if ((rc = wide_now(c, &wide0, NULL)))
		return rc;
	if ((rc = loop_stack_begin(c, c->cfg->o->start_sym, &sp)))
		return rc;
	if ((rc = next_halt(c, &pc, &cnt1)))
		return rc;
	c->sym_open = false;
	if (pc != c->cfg->sym_stop)
		return diagnose(c, false, pc);
	if ((rc = wide_now(c, &wide1, NULL)))
		return rc;
	if ((rc = loop_stack_end(c, &sp, 0, 0, false, &fig)))
		return rc;
	(void)snprintf(name, sizeof(name), "%s..%s", c->cfg->o->start_sym, c->cfg->o->stop_sym);
	name[BENCH_NAME_MAX - 1] = '\0';
	if ((rc = add_sample(c, name, cnt0, cnt1, t0, ran0, wide_wrapped(c, wide0, wide1), &fig)))
		return rc;
	return c->hooks->halt_record
	           ? c->hooks->halt_record(c->hooks->record_ctx, NULL, name, c->cur_warm, NULL, 0, c->err)
	           : 0;
}

/* Firmware without bench_init() (--start/--stop on an unmodified binary) never starts the counter:
 * start it from the debugger. On a Cortex-M, DEMCR.TRCENA powers the DWT first (Armv7-M ARM
 * C1.6.5) and DWT_CTRL.NOCYCCNT says there is no CYCCNT (C1.8.7); then the counter's enable bit. */
static int enable_counter(struct loop *c)
{
	const struct counter_desc *k = c->cfg->counter;
	uint32_t demcr, ctrl, addr = c->cfg->counter_addr - k->addr + k->enable_addr;
	int rc;

	if (!k->enable_mask)
		return 0;
	/* What bench turns on here is recorded before each write (loop_check_will_set_*): an attached
	 * debugger gets the DWT switched off again afterwards, as it had it. */
	if (k->core == COUNTER_CORTEX_M) {
		if ((rc = backend_read_u32(c->bk, RUN_REG_DEMCR, &demcr, c->err)))
			return rc;
		loop_check_will_set_demcr(c, demcr, LOOP_DEMCR_TRCENA);
		if ((rc = backend_write_u32(c->bk, RUN_REG_DEMCR, demcr | LOOP_DEMCR_TRCENA, c->err)))
			return rc;
	}
	if ((rc = backend_read_u32(c->bk, addr, &ctrl, c->err)))
		return rc;
	if (k->core == COUNTER_CORTEX_M && (ctrl & LOOP_DWT_CTRL_NOCYCCNT))
		return bench_fail(c->err, BENCH_E_UNSUPPORTED,
		                  "the target has no cycle counter (DWT_CTRL.NOCYCCNT is "
		                  "set): measure on a core with a DWT cycle counter");
	if (k->core == COUNTER_CORTEX_M)
		loop_check_will_set_dwt(c, ctrl, k->enable_mask);
	return backend_write_u32(c->bk, addr, ctrl | k->enable_mask, c->err);
}

/* One hardware breakpoint, recorded before `bp` is sent: a signal or a lost link while it is in
 * flight leaves it possibly set, and loop_check_restore clears what is recorded. */
static int plant(struct loop *c, uint32_t addr)
{
	if (c->n_planted == LOOP_MAX_PENDING)
		return bench_fail(c->err, BENCH_E_UNSUPPORTED,
		                  "more than %d breakpoints to plant: drop --bp-markers or use fewer marker pairs",
		                  LOOP_MAX_PENDING);
	c->planted[c->n_planted++] = addr;
	return backend_set_break(c->bk, addr, c->err);
}

static int plant_breakpoints(struct loop *c)
{
	int rc;

	if (c->mode == LOOP_MODE_SYMBOLS) {
		if ((rc = plant(c, c->cfg->sym_start)))
			return rc;
		return plant(c, c->cfg->sym_stop);
	}
	for (size_t i = 0; i < c->cfg->elf->markers.n; i++) {
		const struct marker *m = &c->cfg->elf->markers.v[i];
		if ((rc = plant(c, m->addr))) {
			/* Cortex-M4's FPB has 6 instruction comparators (TRM 8.4), M3 6, M7 8. */
			if (c->err->kind == BENCH_E_TARGET)
				bench_fail(
				    c->err, BENCH_E_UNSUPPORTED,
				    "cannot plant hardware breakpoint %zu of %zu (marker %s "
				    "%s): the target has too few breakpoint comparators for every marker site; drop "
				    "--bp-markers or use fewer marker pairs",
				    i + 1, c->cfg->elf->markers.n, markers_kind_name(m->kind), m->name);
			return rc == -(int)BENCH_E_TARGET ? -(int)BENCH_E_UNSUPPORTED : rc;
		}
	}
	return 0;
}

int loop_run(struct loop *c, const struct loop_config *cfg, const struct loop_hooks *hooks, struct backend *bk,
             struct bench_report *rep, struct run_phases *phases, struct bench_error *err)
{
	const struct loop_opts *o = cfg->o;
	enum loop_mode mode = cfg->mode;
	size_t passes;
	int rc = 0; /* passes may be 0 (no iterations): then nothing failed */

	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->hooks = hooks;
	c->bk = bk;
	c->rep = rep;
	c->err = err;
	c->phases = phases;

	c->n_combos = 1;
	for (size_t i = 0; i < o->n_sweeps; i++)
		c->n_combos *= o->sweeps[i].n;
	c->per_combo = (size_t)o->warmup + o->repeat;
	c->total_iters = c->n_combos * c->per_combo;
	if (mode == LOOP_MODE_MARKERS && !backend_has(c->bk, BK_CAP_HALT_ON_BKPT))
		mode = LOOP_MODE_BP_MARKERS; /* e.g. QEMU's gdbstub: a BKPT there is a HardFault */
	c->mode = mode;
	/* Without a SYNC marker every iteration is a pass from reset: the firmware measures once. */
	passes = c->mode == LOOP_MODE_SYMBOLS || !c->cfg->has_sync ? c->total_iters : 1;
	/* A virtual board bench started with --elf FILE holds FILE from power-on: its `reset init` and
	 * `verify_image` would cost a reset (OpenOCD's cortex_m_assert_reset sleeps 50 ms in each) and a
	 * CRC pass for nothing; the reset halt below is the only one needed. */
	if (!o->no_load && !c->cfg->preloaded && backend_has(c->bk, BK_CAP_FLASH) &&
	    (rc = backend_load(c->bk, c->cfg->elf_abs, c->err)))
		return rc;
	run_phase_done(c->phases, RUN_PHASE_LOAD);
	loop_check_save(c);
	progress_begin(&c->prog, stderr, o->progress, c->total_iters);
	for (size_t pass = 0; pass < passes; pass++) {
		c->stats_fresh = false;
		if ((rc = backend_reset(c->bk, BK_RESET_HALT, c->err)))
			break;
		/* bench's own reset: the baseline the next halts are compared with (check_reset). */
		if ((rc = loop_reset_count(c, &c->reset_count)))
			break;
		/* A fault then halts with its frame intact; a target without DEMCR (QEMU) just runs on. */
		if (c->cfg->cm_debug_regs && run_fault_catch(c->bk, c->err))
			bench_error_clear(c->err);
		run_phase_done(c->phases, RUN_PHASE_RESET);
		if (pass == 0)
			board_output(c, true);
		if (c->mode == LOOP_MODE_SYMBOLS && c->cfg->counter && (rc = enable_counter(c)))
			break;
		if (pass == 0 && c->mode != LOOP_MODE_MARKERS && (rc = plant_breakpoints(c)))
			break;
		memset(c->pend, 0, sizeof(c->pend));
		c->cal_valid = false;
		c->boots = 0;
		if (passes > 1)
			c->cur_warm = pass < o->warmup;
		rc = c->mode == LOOP_MODE_SYMBOLS ? run_symbols_once(c) : run_markers_once(c);
		if (rc)
			break;
		if (passes > 1) {
			c->done_iters = pass + 1;
			progress_update(&c->prog, c->done_iters);
		}
	}
	progress_end(&c->prog);
	loop_check_restore(c);
	run_phase_done(c->phases, RUN_PHASE_LOOP);
	if (!rc && c->cfg->has_sync && c->mode != LOOP_MODE_SYMBOLS && !c->stopping)
		rc = bench_fail(c->err, BENCH_E_TARGET,
		                "the firmware reached DONE before bench stopped its loop: check "
		                "that it loops on bench_sync()");
	return rc;
}
