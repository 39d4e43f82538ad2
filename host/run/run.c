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

#include "firmware/board.h"
#include "firmware/elf.h"
#include "session/openocd_proc.h"
#include "session/proc.h"
#include "run/progress.h"
#include "session/qemu_proc.h"
#include "firmware/regions.h"
#include "run/run_fault.h"
#include "run/run_priv.h"
#include "session/sim_clock.h"
#include "transport/gdb_rsp.h"
#include "transport/openocd_tcl.h"

static bool cancelled(const struct run_ctx *c)
{
	return proc_interrupted() || (c->o->cancel && *c->o->cancel);
}

static bool cancel_fn(void *ctx)
{
	return cancelled(ctx);
}

int run_interrupted(struct run_ctx *c)
{
	return bench_fail(c->err, BENCH_E_INTERRUPTED,
	                  "interrupted: stopped the run; the report keeps the %zu samples "
	                  "measured so far",
	                  c->samples_taken);
}

/* Input symbols: NAME, else bench_arg_NAME (docs/markers.md "Control block and inputs"). */
static int resolve_inputs(struct run_ctx *c)
{
	const struct run_opts *o = c->o;

	for (size_t i = 0; i < o->n_sweeps; i++) {
		const struct run_sweep *s = &o->sweeps[i];
		char alt[BENCH_NAME_MAX + 16];
		const struct elf_symbol *sym = elf_symbol(&c->elf, s->name);

		snprintf(alt, sizeof(alt), "bench_arg_%s", s->name);
		if (!sym)
			sym = elf_symbol(&c->elf, alt);
		if (!sym || sym->is_func)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--arg %s: no variable `%s` or `%s` in %s: declare `volatile "
			                  "int %s;` in the firmware or fix the name",
			                  s->name, s->name, alt, o->firmware, s->name);
		unsigned size = sym->size ? sym->size : 4;
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--arg %s: `%s` is %u bytes, not an integer variable: pass "
			                  "an int-sized input",
			                  s->name, sym->name, size);
		for (size_t k = 0; k < s->n && size < 8; k++) {
			int64_t v = s->values[k], lo = -((int64_t)1 << (8 * size - 1)),
			        hi = ((int64_t)1 << (8 * size)) - 1;
			if (v < lo || v > hi)
				return bench_fail(c->err, BENCH_E_USAGE,
				                  "--arg %s: value %lld does not fit `%s` (%u bytes): "
				                  "use smaller values",
				                  s->name, (long long)v, sym->name, size);
		}
		c->input_addr[i] = sym->addr;
		c->input_size[i] = size;
	}
	return 0;
}

static int prepare_firmware(struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	int rc = elf_open(o->firmware, &c->elf, c->err);

	if (rc)
		return rc;
	c->elf_open = true;
	/* The debug server runs in another directory: hand it an absolute path. */
	if (!realpath(o->firmware, c->firmware_abs))
		return bench_fail(c->err, BENCH_E_FILE, "cannot resolve %s: %s: check the path", o->firmware,
		                  strerror(errno));
	snprintf(c->rep->context.firmware_sha256, sizeof(c->rep->context.firmware_sha256), "%s", c->elf.sha256);
	if (o->start_sym) {
		const struct elf_symbol *a = elf_symbol(&c->elf, o->start_sym), *b = elf_symbol(&c->elf, o->stop_sym);
		if (!a || !b)
			return bench_fail(
			    c->err, BENCH_E_USAGE, "symbol `%s` not in %s: check --%s (`nm %s` lists them)",
			    !a ? o->start_sym : o->stop_sym, o->firmware, !a ? "start" : "stop", o->firmware);
		c->sym_start = a->addr;
		c->sym_stop = b->addr;
		c->mode = RUN_MODE_SYMBOLS;
		if (o->n_sweeps)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--arg needs the firmware's SYNC marker; with --start/--stop "
			                  "there is none: drop --arg");
	} else {
		if (c->elf.markers.n == 0)
			return bench_fail(
			    c->err, BENCH_E_NO_MARKERS,
			    "%s has no markers (no " MARKERS_SECTION " section): build it with "
			    "target/include/bench.h markers, or measure between two functions with --start SYM "
			    "--stop SYM",
			    o->firmware);
		c->mode = o->bp_markers ? RUN_MODE_BP_MARKERS : RUN_MODE_MARKERS;
		c->has_sync = markers_count(&c->elf.markers, MARKER_SYNC) > 0;
		if (o->n_sweeps && !c->has_sync)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "%s has no SYNC marker, so inputs cannot be written: call "
			                  "bench_sync() in the firmware's loop or drop --arg",
			                  o->firmware);
	}
	const struct elf_symbol *ctl = elf_symbol(&c->elf, "bench_ctl");
	if (ctl && !ctl->is_func) {
		c->ctl_addr = ctl->addr;
		c->has_ctl = true;
	}
	return resolve_inputs(c);
}

static int prepare_board(struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	struct bench_context *ctx = &c->rep->context;
	int rc;

	if (o->board || (!o->openocd && !o->gdb)) {
		rc = board_load(o->boards_dir, o->board ? o->board : BOARD_DEFAULT, &c->board, c->err);
		if (rc)
			return rc;
		c->have_board = true;
		snprintf(ctx->board, sizeof(ctx->board), "%s", c->board.name);
		snprintf(ctx->counter, sizeof(ctx->counter), "%s", c->board.counter);
		ctx->core_clock_hz = c->board.core_clock_hz;
		ctx->cycles_modelled = c->board.virtual_board;
		if (c->board.virtual_board)
			snprintf(ctx->probe, sizeof(ctx->probe), "virtual");
	}
	if (o->probe)
		snprintf(ctx->probe, sizeof(ctx->probe), "%s", o->probe);
	return 0;
}

static int make_work_dir(struct run_ctx *c)
{
	const char *tmp = getenv("TMPDIR");

	if (c->o->work_dir) {
		if (mkdir(c->o->work_dir, 0755) && errno != EEXIST)
			return bench_fail(c->err, BENCH_E_IO, "cannot create --work-dir %s: %s", c->o->work_dir,
			                  strerror(errno));
		/* Absolute: bench-sim and OpenOCD run inside it and get paths in it (their sockets, logs),
		 * which a relative name would resolve twice (bench-sim then failed to create its socket). */
		if (!realpath(c->o->work_dir, c->work_dir))
			return bench_fail(c->err, BENCH_E_IO, "cannot resolve --work-dir %s: %s", c->o->work_dir,
			                  strerror(errno));
		return 0;
	}
	snprintf(c->work_dir, sizeof(c->work_dir), "%s/bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->work_dir))
		return bench_fail(c->err, BENCH_E_IO, "cannot create a temporary folder in %s: %s: set TMPDIR",
		                  tmp && *tmp ? tmp : "/tmp", strerror(errno));
	c->own_work_dir = true;
	return 0;
}

static void remove_work_dir(struct run_ctx *c)
{
	static const char *const files[] = {"openocd.log", "bench-sim.log", "qemu.log"};
	char path[PATH_MAX + 32];

	if (!c->own_work_dir)
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", c->work_dir, files[i]);
		if (unlink(path) && errno != ENOENT)
			return;
	}
	if (rmdir(c->work_dir) == 0)
		c->own_work_dir = false;
}

static int connect_backend(struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	struct bench_context *ctx = &c->rep->context;
	char hp[96];
	int rc;

	if (o->gdb) {
		rc = rsp_backend_open(&c->bk, o->gdb, c->err);
	} else if (o->openocd) {
		rc = tcl_backend_open(&c->bk, o->openocd, 0, c->err);
	} else if (!strcmp(c->board.backend, "qemu")) {
		if ((rc = qemu_start(&c->board, c->firmware_abs, hp, sizeof(hp), &c->qemu, c->err)))
			return rc;
		rc = rsp_backend_open(&c->bk, hp, c->err);
	} else {
		struct openocd_start_opts so = {
		    .board = &c->board,
		    .probe_serial = o->probe,
		    .openocd_bin = o->openocd_bin,
		    .sim_bin = o->sim_bin,
		    .tcl_port = o->tcl_port,
		};
		if ((rc = make_work_dir(c)))
			return rc;
		/* The virtual board comes "factory programmed" with the firmware: loading then only verifies
		 * it (docs/run.md). BENCH_SIM_PRELOAD=0 starts an empty chip that OpenOCD programs. */
		const char *pre = getenv("BENCH_SIM_PRELOAD");
		if (c->board.virtual_board && !(pre && !strcmp(pre, "0")))
			so.preload_elf = c->firmware_abs;
		c->preloaded = so.preload_elf != NULL;
		so.work_dir = c->work_dir;
		rc = openocd_start(&so, &c->ocd, c->err);
		if (rc)
			return rc;
		c->ocd_started = true;
		if (c->ocd.sim_ready_ms)
			c->phase_ms[RUN_PHASE_SIM] = c->ocd.sim_ready_ms - c->t0_ms;
		c->phase_ms[RUN_PHASE_OCD] = c->ocd.tcl_ready_ms - c->t0_ms;
		if (c->ocd.sim_ctl_port) {
			rc = sim_clock_open(c->ocd.sim_ctl_port, c->err);
			if (rc < 0)
				return rc;
			c->sim_clock_fd = rc;
		}
		snprintf(hp, sizeof(hp), "%s:%u", c->ocd.host, c->ocd.tcl_port);
		rc = tcl_backend_open(&c->bk, hp, 0, c->err);
	}
	if (rc)
		return rc;
	c->bk_open = true;
	backend_set_cancel(&c->bk, (struct bench_cancel){cancel_fn, c});
	snprintf(ctx->backend, sizeof(ctx->backend), "%s", c->bk.ops->name);
	/* OpenOCD opens its TCL port before it scans the JTAG chain: the first command waits for init
	 * and, when init fails, finds OpenOCD gone. Say so with its log, not as a lost connection. */
	if (backend_version(&c->bk, ctx->server_version, sizeof(ctx->server_version), c->err)) {
		int st = 0;
		bool dead = false;
		/* A lost connection may be OpenOCD exiting: give it half a second to be reaped. */
		for (uint64_t end = clock_now_ms() + 500; c->ocd_started && c->err->kind == BENCH_E_CONNECT;) {
			if ((dead = !proc_alive(c->ocd.ocd, &st)) || clock_now_ms() >= end)
				break;
			usleep(10000);
		}
		if (dead) {
			char how[64], why[600];
			proc_describe_status(st, how, sizeof(how));
			openocd_log_errors(&c->ocd, 3, why, sizeof(why));
			if (!why[0])
				proc_log_tail(c->ocd.log_path, 4, why, sizeof(why));
			return bench_fail(c->err, BENCH_E_TOOL_START,
			                  "OpenOCD failed to start: it %s (log %s: %s): check "
			                  "the board, the probe and its USB permissions",
			                  how, c->ocd.log_path, why[0] ? why : "empty");
		}
		if (c->err->kind == BENCH_E_INTERRUPTED || c->err->kind == BENCH_E_CONNECT)
			return -(int)c->err->kind;
		snprintf(ctx->server_version, sizeof(ctx->server_version), "unknown");
	}
	bench_error_clear(c->err);
	run_phase_done(c, RUN_PHASE_ANSWER);
	/* No counter (QEMU models no DWT): still run from marker to marker, so the firmware and its
	 * inputs are exercised, but record no cycles rather than zeros (docs/gdb.md). */
	if (!backend_has(&c->bk, BK_CAP_CYCCNT) || !strcmp(ctx->counter, "none")) {
		c->no_counter = true;
		ctx->cycles_modelled = false;
		snprintf(ctx->counter, sizeof(ctx->counter), "none");
	}
	return 0;
}

static void fill_context(struct run_ctx *c)
{
	struct bench_context *ctx = &c->rep->context;
	time_t now = time(NULL);
	struct tm tm;

	snprintf(ctx->tool_version, sizeof(ctx->tool_version), "%s", BENCH_VERSION);
	snprintf(ctx->firmware, sizeof(ctx->firmware), "%s", c->o->firmware);
	if (gmtime_r(&now, &tm))
		strftime(ctx->date, sizeof(ctx->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void finish(struct run_ctx *c, int rc)
{
	struct bench_report *rep = c->rep;

	results_finish(rep);
	rep->context.overhead_cycles = c->overhead;
	if (c->poll_failures && rep->n_warnings < BENCH_MAX_WARNINGS)
		snprintf(rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]),
		         "%zu of %zu --poll reads of the region table failed, measuring went on; the first: %.255s",
		         c->poll_failures, c->poll_reads, c->poll_error);
	if (!rc) {
		rep->status = BENCH_STATUS_OK;
		snprintf(rep->status_detail, sizeof(rep->status_detail), "ok");
		rep->error[0] = '\0';
		return;
	}
	rep->status = c->samples_taken ? BENCH_STATUS_INCOMPLETE : BENCH_STATUS_ERROR;
	snprintf(rep->status_detail, sizeof(rep->status_detail), "%s", bench_err_name(c->err->kind));
	snprintf(rep->error, sizeof(rep->error), "%s", c->err->msg);
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
	fprintf(stderr, "bench-stats: halts=%zu host_cpu_s=%.6f openocd_cpu_s=%.6f sim_cpu_s=%.6f\n", c->halts, self,
	        c->ocd.ocd_cpu_s, c->ocd.sim_cpu_s);
	fprintf(stderr,
	        "bench-phases: ms since start when each ended: sim=%" PRIu64 " ocd_tcl=%" PRIu64 " ocd_answer=%" PRIu64
	        " load=%" PRIu64 " reset=%" PRIu64 " calibration=%" PRIu64 " loop=%" PRIu64 " stop=%" PRIu64 "\n",
	        c->phase_ms[RUN_PHASE_SIM], c->phase_ms[RUN_PHASE_OCD], c->phase_ms[RUN_PHASE_ANSWER],
	        c->phase_ms[RUN_PHASE_LOAD], c->phase_ms[RUN_PHASE_RESET], c->phase_ms[RUN_PHASE_CAL],
	        c->phase_ms[RUN_PHASE_LOOP], c->phase_ms[RUN_PHASE_STOP]);
}

/* Whether bench-sim has died (*st: its wait status). A killed process's sockets close before it can
 * be reaped, so OpenOCD may report the broken link (a failed resume) while waitpid still sees it
 * running: when its control port no longer answers either, give it half a second to be reaped. A
 * live board answers at once and costs no wait. */
static bool sim_gone(struct run_ctx *c, int *st)
{
	struct bench_error e;
	uint64_t cycles;

	if (!proc_alive(c->ocd.sim, st))
		return true;
	if (c->sim_clock_fd < 0 || sim_clock_cycles(c->sim_clock_fd, &cycles, &e) == 0)
		return false;
	for (uint64_t end = clock_now_ms() + 500; clock_now_ms() < end;) {
		usleep(10000);
		if (!proc_alive(c->ocd.sim, st))
			return true;
	}
	return false;
}

/* Between two slices of a halt wait: a child bench started that has exited ends the run at once
 * (exit 4, docs/exit-codes.md) instead of after --timeout. OpenOCD keeps polling a dead
 * remote_bitbang link without failing the wait (src/jtag/drivers/remote_bitbang.c only logs the
 * broken pipe), so only waitpid tells that bench-sim is gone. One WNOHANG waitpid per child. */
int run_check_children(struct run_ctx *c)
{
	char how[64];
	int st = 0;

	if (c->ocd_started && c->ocd.sim && !proc_alive(c->ocd.sim, &st)) {
		proc_describe_status(st, how, sizeof(how));
		return bench_fail(c->err, BENCH_E_CONNECT,
		                  "the virtual board (bench-sim) stopped mid-run (%s): the report keeps the %zu "
		                  "samples measured so far",
		                  how, c->samples_taken);
	}
	if (c->ocd_started && c->ocd.ocd && !proc_alive(c->ocd.ocd, &st)) {
		proc_describe_status(st, how, sizeof(how));
		return bench_fail(c->err, BENCH_E_CONNECT,
		                  "connection to OpenOCD at %s:%u lost (OpenOCD %s): check that OpenOCD still runs",
		                  c->ocd.host, (unsigned)c->ocd.tcl_port, how);
	}
	if (c->qemu && !proc_alive(c->qemu, &st)) {
		proc_describe_status(st, how, sizeof(how));
		return bench_fail(c->err, BENCH_E_CONNECT,
		                  "QEMU stopped mid-run (%s): the report keeps the %zu samples measured so far", how,
		                  c->samples_taken);
	}
	return 0;
}

int run_measure(const struct run_opts *o, struct bench_report *rep, struct bench_error *err)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory starting the run");
	bench_error_clear(err);
	c->o = o;
	c->rep = rep;
	c->err = err;
	c->sim_clock_fd = -1;
	c->t0_ms = clock_now_ms();
	fill_context(c);
	rc = prepare_firmware(c);
	if (!rc)
		rc = prepare_board(c);
	if (!rc && cancelled(c))
		rc = run_interrupted(c);
	if (!rc)
		rc = connect_backend(c);
	if (!rc)
		rc = run_loop(c);
	/* A signal that lands while bench waits on OpenOCD comes back from the TCL client as a bare
	 * "interrupted": give it the documented message with the count of samples kept. */
	if (rc && err->kind == BENCH_E_INTERRUPTED)
		rc = run_interrupted(c);
	/* The virtual board dying mid-run leaves OpenOCD up, polling a dead link, so the loop sees a
	 * target that never halts: that is the probe lost (exit 4), not a firmware timeout. */
	if (rc && c->ocd_started && c->ocd.sim &&
	    (err->kind == BENCH_E_TARGET || err->kind == BENCH_E_TIMEOUT || err->kind == BENCH_E_CONNECT)) {
		int st = 0;
		if (sim_gone(c, &st)) {
			char how[64];
			proc_describe_status(st, how, sizeof(how));
			rc = bench_fail(err, BENCH_E_CONNECT,
			                "the virtual board (bench-sim) stopped mid-run (%s): the report keeps the %zu "
			                "samples measured so far",
			                how, c->samples_taken);
		}
	}
	if (rc && c->ocd_started && (err->kind == BENCH_E_TARGET || err->kind == BENCH_E_CONNECT)) {
		char why[600];
		openocd_log_errors(&c->ocd, 3, why, sizeof(why));
		if (why[0])
			snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg), " (OpenOCD log: %s)",
			         why);
	}
	if (c->bk_open)
		backend_close(&c->bk);
	sim_clock_close(c->sim_clock_fd);
	if (c->ocd_started) {
		openocd_stop(&c->ocd);
		run_phase_done(c, RUN_PHASE_STOP);
		print_stats(c);
	}
	qemu_stop(c->qemu);
	if (!rc)
		remove_work_dir(c);
	else if (c->own_work_dir && err->kind != BENCH_E_INTERRUPTED && !strstr(err->msg, c->work_dir))
		snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg), " (logs kept in %s)",
		         c->work_dir);
	finish(c, rc);
	if (c->elf_open)
		elf_close(&c->elf);
	free(c);
	return rc;
}
