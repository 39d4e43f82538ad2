/* One measurement run (docs/run.md, docs/markers.md): open the ELF, start or attach to a debug
 * server, program and verify, reset, then go from halt to halt. Each halt is identified by its PC
 * in the ELF's marker table; DWT_CYCCNT (Armv7-M ARM C1.8.6, 0xE0001004) is read in the same round
 * trip. Backend-agnostic: it asks capabilities, never which backend it has. No globals: a farm runs
 * several at once. */
#include "run/run.h"
#include "base/clock.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/str.h"
#include "firmware/board.h"
#include "firmware/core_check.h"
#include "firmware/counters.h"
#include "firmware/dwarf.h"
#include "firmware/elf.h"
#include "profile/profile.h"
#include "profile/profile_sample.h"
#include "run/loop.h"
#include "run/run_measures.h"
#include "run/run_prepare.h"
#include "run/run_profile.h"
#include "session/proc.h"
#include "session/session.h"

/* The one test of "stop now": a signal (SIGINT, SIGTERM) or the caller's flag (a farm's thread). */
static bool cancelled(void *ctx)
{
	const struct run_ctx *c = ctx;

	return proc_interrupted() || (c->o->cancel && *c->o->cancel);
}

static int children_alive(void *ctx, struct bench_error *err)
{
	return session_children_alive(&((struct run_ctx *)ctx)->sess, err);
}

static int sim_cycles(void *ctx, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err)
{
	return session_sim_stats(&((struct run_ctx *)ctx)->sess, cycles, exceptions, err);
}

static int sim_resets(void *ctx, uint64_t *count, struct bench_error *err)
{
	return session_sim_resets(&((struct run_ctx *)ctx)->sess, count, err);
}

static int sim_stats(void *ctx, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets, struct bench_error *err)
{
	return session_sim_stats_resets(&((struct run_ctx *)ctx)->sess, cycles, exceptions, resets, err);
}

static int log_resets(void *ctx, uint64_t *count, struct bench_error *err)
{
	return session_log_resets(&((struct run_ctx *)ctx)->sess, count, err);
}

#define SIM_NOTE_PREFIX "bench-sim: note: "
#define SIM_UART_PREFIX "uart: "

/* One line of bench-sim's log: its notes become report warnings (once each; a full list keeps the first, the log
 * keeps them all); with --uart the firmware's lines are echoed and kept. */
static void on_sim_line(void *ctx, const char *line)
{
	struct run_ctx *c = ctx;

	if (!strncmp(line, SIM_NOTE_PREFIX, strlen(SIM_NOTE_PREFIX))) {
		(void)results_add_warning(c->rep, line + strlen(SIM_NOTE_PREFIX));
		return;
	}
	if (!c->o->uart || !c->uart_live || strncmp(line, SIM_UART_PREFIX, strlen(SIM_UART_PREFIX)))
		return;
	if (c->loop.prog.shown) /* the bar is a line without its newline: start below it */
		(void)fputc('\n', stderr);
	fprintf(stderr, "%s\n", line);
	if (results_add_uart(c->rep, line + strlen(SIM_UART_PREFIX)))
		c->rep->uart_dropped++;
}

static void board_output(void *ctx, bool first_reset)
{
	struct run_ctx *c = ctx;

	session_sim_output(&c->sess, on_sim_line, c);
	/* A preloaded virtual board ran the firmware from power-on until OpenOCD halted it: its UART lines from
	 * then are not this run's (its notes are: the same firmware did that). */
	if (first_reset)
		c->uart_live = true;
}

static bool name_addr(void *ctx, uint32_t addr, char *out, size_t len)
{
	return session_name_addr(&((struct run_ctx *)ctx)->sess, addr, out, len);
}

static int open_session(struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	const char *pre = getenv("BENCH_SIM_PRELOAD");
	struct session_opts so = {
	    .board = c->have_board ? &c->board : NULL,
	    .gdb = o->gdb,
	    .openocd = o->openocd,
	    .probe = o->probe,
	    .openocd_bin = o->openocd_bin,
	    .sim_bin = o->sim_bin,
	    .work_dir = o->work_dir,
	    .tcl_port = o->tcl_port,
	    .elf_abs = c->firmware_abs,
	    .arch = elf_arch(&c->elf),
	    .icount = o->icount,
	    /* BENCH_SIM_PRELOAD=0 starts an empty chip that OpenOCD programs (docs/run.md). */
	    .allow_preload = !(pre && !strcmp(pre, "0")),
	    .sim_opts = o->sim_opts,
	    .n_sim_opts = o->n_sim_opts,
	    .want_record = c->exact || c->meas.want_record, /* bench-sim --record: exact profile, stack, code */
	    .cancel = {cancelled, c},
	};
	int rc = session_open(&c->sess, &so, c->err);

	c->sess_open = true;
	/* The path OpenOCD took to the board, as OpenOCD itself names it (session.c ask_transport). */
	if (c->sess.ocd_started)
		(void)snprintf(c->rep->context.transport, sizeof(c->rep->context.transport), "%s", c->sess.transport);
	if (c->sess.ocd.sim_ready_ms)
		c->phases.ms[RUN_PHASE_SIM] = c->sess.ocd.sim_ready_ms - c->phases.t0_ms;
	if (c->sess.ocd.tcl_ready_ms)
		c->phases.ms[RUN_PHASE_OCD] = c->sess.ocd.tcl_ready_ms - c->phases.t0_ms;
	if (rc)
		return rc;
	(void)snprintf(c->rep->context.backend, sizeof(c->rep->context.backend), "%s", c->sess.bk.ops->name);
	(void)snprintf(c->rep->context.server_version, sizeof(c->rep->context.server_version), "%s",
	               c->sess.server_version);
	run_phase_done(&c->phases, RUN_PHASE_ANSWER);
	c->cfg.preloaded = c->sess.preloaded;
	return run_choose_counter(c);
}

static void fill_context(struct run_ctx *c)
{
	struct bench_context *ctx = &c->rep->context;
	time_t now = time(NULL);
	struct tm tm;

	str_fmt_cut(ctx->tool_version, sizeof(ctx->tool_version), "%s", BENCH_VERSION);
	str_fmt_cut(ctx->firmware, sizeof(ctx->firmware), "%s", c->o->firmware); /* cut: compare sees "..." */
	ctx->keep_interrupted = c->o->keep_interrupted;
	ctx->mask_irqs = c->o->mask_irqs;
	/* 20 characters into 32; strftime returns 0 only when they do not fit (C11 7.27.3.5). */
	if (gmtime_r(&now, &tm) && !strftime(ctx->date, sizeof(ctx->date), "%Y-%m-%dT%H:%M:%SZ", &tm))
		ctx->date[0] = '\0';
}

static void finish(struct run_ctx *c, int rc)
{
	struct bench_report *rep = c->rep;

	results_finish(rep);
	rep->context.overhead_cycles = c->loop.overhead;
	if (c->loop.poll_failures && rep->n_warnings < BENCH_MAX_WARNINGS)
		str_fmt_cut(rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]),
		            "%zu of %zu --poll reads of the region table failed, measuring went on; the first: %.255s",
		            c->loop.poll_failures, c->loop.poll_reads, c->loop.poll_error);
	if (c->loop.interrupted && rep->n_warnings < BENCH_MAX_WARNINGS)
		str_fmt_cut(
		    rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]),
		    "%zu sample%s took an exception inside %s stretch (an interrupt's cycles are in %s): flagged "
		    "in \"interrupted\", %s; --mask-irqs keeps PendSV, SysTick and IRQs out of the stretches",
		    c->loop.interrupted, c->loop.interrupted == 1 ? "" : "s",
		    c->loop.interrupted == 1 ? "its" : "their", c->loop.interrupted == 1 ? "it" : "them",
		    rep->context.keep_interrupted ? "kept in the statistics (--keep-interrupted)"
		                                  : "left out of the statistics (--keep-interrupted keeps them)");
	if (results_stack_overflows(rep) && rep->n_warnings < BENCH_MAX_WARNINGS)
		str_fmt_cut(rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]),
		            "%zu sample%s reached the stack limit 0x%08" PRIx32 " (%s): possible overflow, no depth "
		            "reported; give --stack-limit the stack's real limit",
		            results_stack_overflows(rep), results_stack_overflows(rep) == 1 ? "" : "s",
		            rep->context.stack_limit, rep->context.stack_limit_from);
	if (c->loop.wrapped && rep->n_warnings < BENCH_MAX_WARNINGS)
		str_fmt_cut(rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]),
		            "%zu sample%s had room to wrap the %u-bit counter by the host's clock and %s flagged in "
		            "\"wrapped\" (the first, %s)",
		            c->loop.wrapped, c->loop.wrapped == 1 ? "" : "s",
		            c->cfg.counter ? c->cfg.counter->bits : 32u, c->loop.wrapped == 1 ? "is" : "are",
		            c->loop.wrap_note);
	if (c->loop.restarts && rep->n_warnings < BENCH_MAX_WARNINGS)
		str_fmt_cut(
		    rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]),
		    "the target restarted %zu time%s between stretches (a watchdog, AIRCR.SYSRESETREQ, a lockup): "
		    "bench wrote the inputs again after each",
		    c->loop.restarts, c->loop.restarts == 1 ? "" : "s");
	if (!rc) {
		rep->status = BENCH_STATUS_OK;
		str_fmt_cut(rep->status_detail, sizeof(rep->status_detail), "ok");
		rep->error[0] = '\0';
		return;
	}
	rep->status = c->loop.samples_taken ? BENCH_STATUS_INCOMPLETE : BENCH_STATUS_ERROR;
	str_fmt_cut(rep->status_detail, sizeof(rep->status_detail), "%s", bench_err_name(c->err->kind));
	str_fmt_cut(rep->error, sizeof(rep->error), "%s", c->err->msg);
}

/* BENCH_STATS=1: where the CPU time went (perf/bench_run.sh reads this line from stderr). */
static void print_stats(const struct run_ctx *c)
{
	struct rusage ru;
	double self;
	const char *env = getenv("BENCH_STATS");

	if (!env || strcmp(env, "1") || getrusage(RUSAGE_SELF, &ru))
		return;
	self = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
	fprintf(stderr, "bench-stats: halts=%zu host_cpu_s=%.6f openocd_cpu_s=%.6f sim_cpu_s=%.6f\n", c->loop.halts,
	        self, c->sess.ocd.ocd_cpu_s, c->sess.ocd.sim_cpu_s);
	fprintf(stderr,
	        "bench-phases: ms since start when each ended: sim=%" PRIu64 " ocd_tcl=%" PRIu64 " ocd_answer=%" PRIu64
	        " load=%" PRIu64 " reset=%" PRIu64 " calibration=%" PRIu64 " loop=%" PRIu64 " stop=%" PRIu64 "\n",
	        c->phases.ms[RUN_PHASE_SIM], c->phases.ms[RUN_PHASE_OCD], c->phases.ms[RUN_PHASE_ANSWER],
	        c->phases.ms[RUN_PHASE_LOAD], c->phases.ms[RUN_PHASE_RESET], c->phases.ms[RUN_PHASE_CAL],
	        c->phases.ms[RUN_PHASE_LOOP], c->phases.ms[RUN_PHASE_STOP]);
}

/* The loop's options, copied (the sweeps by value: each holds a pointer to its values). */
static void loop_opts_from(const struct run_opts *o, struct loop_opts *lo)
{
	*lo = (struct loop_opts){
	    .firmware = o->firmware,
	    .repeat = o->repeat,
	    .warmup = o->warmup,
	    .n_sweeps = o->n_sweeps,
	    .timeout_ms = o->timeout_ms,
	    .poll_ms = o->poll_ms,
	    .start_sym = o->start_sym,
	    .stop_sym = o->stop_sym,
	    .no_regions = o->no_regions,
	    .icount = o->icount,
	    .no_load = o->no_load,
	    .progress = o->progress,
	    .mask_irqs = o->mask_irqs,
	    .stack = o->stack,
	    .code_size = o->code_size,
	};
	memcpy(lo->sweeps, o->sweeps, sizeof(lo->sweeps));
}

int run_measure(const struct run_opts *o, struct bench_report *rep, struct bench_error *err)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	struct loop_hooks hooks;
	int rc;

	if (!c)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory starting the run");
	bench_error_clear(err);
	c->o = o;
	c->rep = rep;
	c->err = err;
	c->phases.t0_ms = clock_now_ms();
	loop_opts_from(o, &c->loop_opts);
	c->cfg.o = &c->loop_opts;
	c->cfg.elf = &c->elf;
	c->cfg.elf_abs = c->firmware_abs;
	hooks = (struct loop_hooks){.ctx = c, .cancelled = cancelled, .children_alive = children_alive};
	fill_context(c);
	rc = run_prepare_firmware(c);
	if (!rc)
		rc = run_prepare_board(c);
	if (!rc && o->profile_sampled && !o->profile)
		rc = bench_fail(err, BENCH_E_USAGE, "--profile-sampled says how to profile: give --profile PREFIX too");
	/* The virtual board bench starts knows every cycle: profile exactly unless told to sample. */
	c->exact = !rc && o->profile && !o->profile_sampled && c->have_board && board_sim_served(&c->board) &&
	           !o->openocd && !o->gdb;
	if (!rc && o->profile && !c->exact && c->have_board)
		rc = profile_check_board(&c->board, err); /* refused before anything starts */
	if (!rc && o->profile && !c->exact && o->start_sym)
		rc = bench_fail(err, BENCH_E_USAGE,
		                "--profile samples between markers, not --start/--stop: put BENCH_BEGIN and "
		                "BENCH_END around the code, or profile exactly on the virtual board");
	if (!rc)
		rc = run_measures_prepare(&c->meas, o, &c->elf,
		                          c->have_board && board_sim_served(&c->board) && !o->openocd && !o->gdb,
		                          &rep->context, &c->cfg, err);
	if (!rc && c->have_board)
		rc = run_check_core(c);
	if (!rc && cancelled(c))
		rc = bench_fail(err, BENCH_E_INTERRUPTED, "interrupted");
	if (!rc)
		rc = open_session(c);
	if (!rc) {
		/* BENCH_RESETS=openocd-log: the silicon way on the virtual board too (tests/faults resets_log). */
		const char *resets_env = getenv("BENCH_RESETS");
		bool resets_log = resets_env && !strcmp(resets_env, "openocd-log");
		if (session_has_sim_clock(&c->sess)) {
			hooks.wide_clock = sim_cycles;
			hooks.resets = resets_log ? log_resets : sim_resets;
			hooks.board_stats = resets_log ? NULL : sim_stats; /* one `stats` a halt */
			hooks.name_addr = name_addr;
		} else if (session_has_ocd_log(&c->sess) && c->cfg.cm_debug_regs) {
			/* Silicon: OpenOCD's "external reset detected" (docs/reliability.md for its limits). */
			hooks.resets = log_resets;
		}
		if (c->sess.sim_log_on) {
			hooks.board_output = board_output;
			hooks.every_halt = o->uart;
		}
		if (c->meas.want_record && !(rc = run_measures_open(&c->meas, c->sess.work_dir, err))) {
			hooks.measures_record = run_measures_halt_record;
			hooks.meas_ctx = &c->meas;
		}
		if (!rc && c->exact) {
			struct sim_record_reader *rd = NULL;
			if (!(rc = session_open_record(&c->sess, &rd, err))) {
				run_exact_open(&c->rx, rd);
				c->rx_open = true;
				hooks.halt_record = run_exact_halt;
				hooks.record_ctx = &c->rx;
			}
		} else if (!rc && o->profile) {
			profile_sampler_init(&c->sampler, &c->prof, 0);
			hooks.sampled_resume = profile_sampled_resume;
			hooks.sample_ctx = &c->sampler;
		}
		if (!rc)
			rc = loop_run(&c->loop, &c->cfg, &hooks, &c->sess.bk, rep, &c->phases, err);
	}
	/* A signal that lands while bench waits on OpenOCD comes back from the TCL client as a bare
	 * "interrupted": give it the documented message with the count of samples kept. */
	if (rc && err->kind == BENCH_E_INTERRUPTED)
		rc = loop_interrupted(&c->loop);
	if (rc && c->sess_open && session_explain_loss(&c->sess, err)) {
		size_t used = strlen(err->msg);
		(void)snprintf(err->msg + used, sizeof(err->msg) - used,
		               ": the report keeps the %zu samples measured so far", c->loop.samples_taken);
	}
	if (rc && c->sess_open)
		session_annotate(&c->sess, err);
	if (c->sess_open) {
		bool started = c->sess.ocd_started;
		board_output(c, false); /* the last UART lines and notes, before bench-sim is stopped */
		session_close(&c->sess);
		if (started) {
			run_phase_done(&c->phases, RUN_PHASE_STOP);
			print_stats(c);
		}
		session_finish_work_dir(&c->sess, rc, err);
	}
	if (o->profile) { /* the samples or the ledger counted per function and line, kept also when the run failed */
		struct bench_error perr;
		int prc = c->exact ? profile_exact_to_report(&c->rx.x, c->firmware_abs, &c->elf, rep, rc ? &perr : err)
		                   : profile_to_report(&c->prof, c->firmware_abs, &c->elf, rep, rc ? &perr : err);
		rc = rc ? rc : prc;
	}
	if (c->meas.img_open) { /* the static code size, also of what a failed run measured */
		struct bench_error cerr;
		int crc = run_measures_code(&c->meas, o, &c->elf, rep, rc ? &cerr : err);
		rc = rc ? rc : crc;
	}
	if (c->rx_open)
		run_exact_close(&c->rx);
	finish(c, rc);
	run_measures_close(&c->meas);
	profile_free(&c->prof);
	if (c->elf_open)
		elf_close(&c->elf);
	free(c);
	return rc;
}
