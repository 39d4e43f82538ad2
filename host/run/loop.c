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
#include "run/loop_marker.h"
#include "run/loop_stack.h"
#include "run/run_fault.h"

/* Cortex-M debug registers the loop touches besides the counter (Armv7-M ARM C1.6, C1.8). */
#define LOOP_DHCSR             0xE000EDF0u
#define LOOP_DHCSR_S_LOCKUP    (1u << 19) /* C1.6.2 */
#define LOOP_DEMCR_TRCENA      (1u << 24) /* C1.6.5: powers the DWT */
#define LOOP_DWT_CTRL_NOCYCCNT (1u << 25) /* C1.8.7 */

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
			                  loop_marker_text(c->last_marker, last, sizeof(last)), fault_advice(c));
		c->stats_fresh = false;
		if (backend_halt(c->bk, &e) || backend_read_reg(c->bk, BK_REG_PC, &pc, &e))
			return bench_fail(c->err, BENCH_E_TIMEOUT,
			                  "the target did not reach the next marker within %u ms "
			                  "and does not halt (after marker %s): raise --timeout or check the firmware",
			                  c->cfg->o->timeout_ms, loop_marker_text(c->last_marker, last, sizeof(last)));
	}
	if (c->cfg->cm_debug_regs && run_fault_describe(c->bk, c->cfg->elf, pc, name_addr, c, fault, sizeof(fault)))
		return bench_fail(c->err, BENCH_E_FAULT, "the target faulted: %s (after marker %s): %s", fault,
		                  loop_marker_text(c->last_marker, last, sizeof(last)), fault_advice(c));
	elf_describe_addr(c->cfg->elf, pc, where, sizeof(where));
	if (timed_out)
		return bench_fail(c->err, BENCH_E_TIMEOUT,
		                  "the target did not reach the next marker within %u ms (it is at "
		                  "%s, after marker %s): raise --timeout or check the firmware",
		                  c->cfg->o->timeout_ms, where, loop_marker_text(c->last_marker, last, sizeof(last)));
	return bench_fail(c->err, BENCH_E_TARGET,
	                  "the target halted at %s, which is no marker (after marker %s): check "
	                  "for stray BKPT instructions or breakpoints",
	                  where, loop_marker_text(c->last_marker, last, sizeof(last)));
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
			if ((rc = loop_on_marker(c, m, cnt, &done)))
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
	if ((rc = loop_wide_now(c, &wide0, NULL)))
		return rc;
	if ((rc = loop_stack_begin(c, c->cfg->o->start_sym, &sp)))
		return rc;
	if ((rc = next_halt(c, &pc, &cnt1)))
		return rc;
	c->sym_open = false;
	if (pc != c->cfg->sym_stop)
		return diagnose(c, false, pc);
	if ((rc = loop_wide_now(c, &wide1, NULL)))
		return rc;
	if ((rc = loop_stack_end(c, &sp, 0, 0, false, &fig)))
		return rc;
	(void)snprintf(name, sizeof(name), "%s..%s", c->cfg->o->start_sym, c->cfg->o->stop_sym);
	name[BENCH_NAME_MAX - 1] = '\0';
	if ((rc = loop_add_sample(c, name, cnt0, cnt1, t0, ran0, loop_wide_wrapped(c, wide0, wide1), &fig)))
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
