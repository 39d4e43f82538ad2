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
#include "run/run_profile.h"
#include "session/proc.h"
#include "session/session.h"

/* One run: the firmware as read, the board, the session that reaches it, the loop that measures. */
struct run_ctx {
	const struct run_opts *o;
	struct bench_report *rep;
	struct bench_error *err;
	struct elf_file elf;
	char firmware_abs[PATH_MAX];
	bool elf_open;
	struct board board;
	bool have_board;
	struct session sess;
	bool sess_open;
	struct loop_config cfg;
	struct loop_opts loop_opts; /* what of run_opts the loop reads (cfg.o) */
	struct loop loop;
	struct run_phases phases;
	bool uart_live; /* UART lines count from the first reset halt on (before it: the board's power-on run) */
	/* --profile: the PC samples of each stretch, and what takes them */
	struct profile prof;
	struct profile_sampler sampler;
	struct run_measures meas; /* --stack, --code-size (run_measures.h) */
	/* --profile on the virtual board: its exact cycle ledger instead (docs/profile.md) */
	bool exact;
	struct run_exact rx;
	bool rx_open;
};

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

/* An input is written into RAM at SYNC: its symbol must lie in a writable loaded segment (.data,
 * .bss). A `const` (in .rodata, a read-only segment) would be a write to flash, which the debugger
 * refuses or the flash ignores, and the firmware would run every input with the same value. */
static bool input_writable(const struct elf_file *e, uint32_t addr, unsigned size)
{
	for (size_t i = 0; i < e->n_segments; i++) {
		const struct elf_segment *g = &e->segments[i];
		if (addr >= g->vaddr && (uint64_t)addr + size <= (uint64_t)g->vaddr + g->memsz)
			return (g->flags & PF_W) != 0;
	}
	return true; /* in no segment the ELF describes (a linker-script address): let the write say */
}

/* Input symbols: NAME, else bench_arg_NAME (docs/markers.md "Control block and inputs"). */
static int resolve_inputs(struct run_ctx *c)
{
	const struct run_opts *o = c->o;

	for (size_t i = 0; i < o->n_sweeps; i++) {
		const struct run_sweep *s = &o->sweeps[i];
		char alt[BENCH_NAME_MAX + 16];
		const struct elf_symbol *sym = elf_symbol(&c->elf, s->name);

		(void)str_fmt(alt, sizeof(alt), "bench_arg_%s", s->name); /* 10 + BENCH_NAME_MAX - 1 bytes: whole */
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
		/* -100 into a uint8_t would be stored as 156 and filed as -100 (dwarf.h). */
		int64_t lo, hi;
		char type[160];
		if (dwarf_input_range(&c->elf, sym->name, size, &lo, &hi, type, sizeof(type)))
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--arg %s: `%s` is %s: --arg writes integers; give it an integer type",
			                  s->name, sym->name, type);
		for (size_t k = 0; k < s->n; k++)
			if (s->values[k] < lo || s->values[k] > hi)
				return bench_fail(
				    c->err, BENCH_E_USAGE,
				    "--arg %s: %lld does not fit `%s` (%s): give values from %lld to %lld", s->name,
				    (long long)s->values[k], sym->name, type, (long long)lo, (long long)hi);
		if (!input_writable(&c->elf, sym->addr, size))
			return bench_fail(
			    c->err, BENCH_E_USAGE,
			    "--arg %s: `%s` (0x%08x) is in flash or read-only data, where a write from the "
			    "debugger does not reach the code: declare it `volatile` and not `const`",
			    s->name, sym->name, sym->addr);
		c->cfg.input_addr[i] = sym->addr;
		c->cfg.input_size[i] = size;
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
	/* 64 hex digits into 65 bytes, both sides: whole. */
	(void)str_copy(c->rep->context.firmware_sha256, sizeof(c->rep->context.firmware_sha256), c->elf.sha256);
	if (o->start_sym) {
		const struct elf_symbol *a = elf_symbol(&c->elf, o->start_sym), *b = elf_symbol(&c->elf, o->stop_sym);
		if (!a || !b)
			return bench_fail(
			    c->err, BENCH_E_USAGE, "symbol `%s` not in %s: check --%s (`nm %s` lists them)",
			    !a ? o->start_sym : o->stop_sym, o->firmware, !a ? "start" : "stop", o->firmware);
		/* Two breakpoints on one address, or one on data, make OpenOCD refuse in its own words or
		 * halt where no --start/--stop is (docs/run.md): bench's message first. */
		const struct elf_symbol *data = !elf_symbol_is_code(&c->elf, a)   ? a
		                                : !elf_symbol_is_code(&c->elf, b) ? b
		                                                                  : NULL;
		if (data)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--%s %s: `%s` is data, not a function, in %s: give a function (`nm %s` "
			                  "marks them T or t)",
			                  data == a ? "start" : "stop", data->name, data->name, o->firmware,
			                  o->firmware);
		if (a->addr == b->addr)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--start %s and --stop %s are the same address (0x%08x): give two functions, "
			                  "the stretch runs from the first to the second",
			                  a->name, b->name, a->addr);
		c->cfg.sym_start = a->addr;
		c->cfg.sym_stop = b->addr;
		c->cfg.mode = LOOP_MODE_SYMBOLS;
		if (o->n_sweeps)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "--arg needs the firmware's SYNC marker; with --start/--stop "
			                  "there is none: drop --arg");
	} else {
		/* The runtime linked (bench_ctl is there) but no records: the linker dropped the
		 * section, which --gc-sections does to a non-allocated section with relocations unless
		 * it is retained (bench.h's "R" flag, binutils 2.36+) or KEEPed by the script. */
		if (c->elf.markers.n == 0 && elf_symbol(&c->elf, "bench_ctl"))
			return bench_fail(c->err, BENCH_E_NO_MARKERS,
			                  "%s has no markers (no " MARKERS_SECTION " section) although it links "
			                  "bench.c: the linker dropped it (--gc-sections; binutils before 2.36 ignore "
			                  "bench.h's retain flag): add `.bench_markers 0 (INFO) : { "
			                  "KEEP(*(.bench_markers)) }` to the linker script's SECTIONS",
			                  o->firmware);
		if (c->elf.markers.n == 0)
			return bench_fail(
			    c->err, BENCH_E_NO_MARKERS,
			    "%s has no markers (no " MARKERS_SECTION " section): build it with "
			    "target/include/bench.h markers (docs/integrate.md), or measure between two functions "
			    "with --start SYM --stop SYM",
			    o->firmware);
		c->cfg.mode = o->bp_markers ? LOOP_MODE_BP_MARKERS : LOOP_MODE_MARKERS;
		c->cfg.has_sync = markers_count(&c->elf.markers, MARKER_SYNC) > 0;
		if (o->n_sweeps && !c->cfg.has_sync)
			return bench_fail(c->err, BENCH_E_USAGE,
			                  "%s has no SYNC marker, so inputs cannot be written: call "
			                  "bench_sync() in the firmware's loop or drop --arg",
			                  o->firmware);
	}
	const struct elf_symbol *ctl = elf_symbol(&c->elf, "bench_ctl");
	if (ctl && !ctl->is_func) {
		c->cfg.ctl_addr = ctl->addr;
		c->cfg.has_ctl = true;
	}
	/* CMSIS's SystemCoreClock (the clock the firmware set up, in Hz): read once it ran its start-up. */
	const struct elf_symbol *clk = elf_symbol(&c->elf, "SystemCoreClock");
	if (clk && !clk->is_func && (clk->size == 4 || clk->size == 0))
		c->cfg.sysclk_addr = clk->addr;
	return resolve_inputs(c);
}

/* An ELF runs only on a board of its core family (board.json "arch"); OpenOCD debugs no TriCore. */
static int check_arch(struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	const char *arch = elf_arch(&c->elf);
	bool tricore = !strcmp(arch, "tricore");

	c->cfg.cm_debug_regs = !tricore;
	c->cfg.markers_are_nops = tricore;
	if (c->have_board && strcmp(arch, c->board.arch))
		return bench_fail(
		    c->err, BENCH_E_ARCH,
		    "%s is a %s ELF but board %s has a %s core: pick a %s board (%s) or rebuild the "
		    "firmware for %s",
		    o->firmware, tricore ? "TriCore" : "Cortex-M", c->board.name,
		    strcmp(c->board.arch, "tricore") ? "Cortex-M" : "TriCore", tricore ? "TriCore" : "Cortex-M",
		    tricore ? "--board qemu-tc277, or --board aurix-tc297 --gdb HOST:PORT" : "e.g. --board sim-stm32f4",
		    c->board.name);
	if (o->icount && (o->gdb || o->openocd || !c->have_board || strcmp(c->board.backend, "qemu")))
		return bench_fail(c->err, BENCH_E_USAGE,
		                  "--icount counts QEMU's instructions and needs a QEMU board bench starts (--board "
		                  "qemu-tc277 or qemu-mps2-an386): drop --icount or pick such a board");
	if (c->have_board && !strcmp(c->board.backend, "gdb") && !o->gdb)
		return bench_fail(c->err, BENCH_E_USAGE,
		                  "board %s is reached through your own gdbserver: start it and pass --gdb HOST:PORT",
		                  c->board.name);
	if (tricore && (o->openocd || (c->have_board && !strcmp(c->board.backend, "openocd") && !o->gdb)))
		return bench_fail(c->err, BENCH_E_ARCH,
		                  "%s is a TriCore ELF and OpenOCD debugs no TriCore: use --board qemu-tc277 or a "
		                  "TriCore gdbserver with --gdb HOST:PORT",
		                  o->firmware);
	return 0;
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
		/* The report's context is for people and bench compare; a value too long for its field is
		 * cut visibly ("...") rather than passed off as another name. */
		str_fmt_cut(ctx->board, sizeof(ctx->board), "%s", c->board.name);
		str_fmt_cut(ctx->counter, sizeof(ctx->counter), "%s", c->board.counter);
		ctx->core_clock_hz = c->board.core_clock_hz;
		str_fmt_cut(ctx->clock_source, sizeof(ctx->clock_source), "board");
		ctx->cycles_modelled = c->board.virtual_board;
		if (c->board.virtual_board)
			str_fmt_cut(ctx->probe, sizeof(ctx->probe), "virtual");
		if (o->transport && strcmp(c->board.backend, "openocd"))
			return bench_fail(
			    c->err, BENCH_E_USAGE,
			    "--transport picks how OpenOCD reaches the board: board %s runs on %s, leave it out",
			    c->board.name, c->board.backend);
		if (o->transport && (rc = board_check_transport(&c->board, o->transport, "--transport", c->err)))
			return rc;
		if (o->transport && str_copy(c->board.transport, sizeof(c->board.transport), o->transport))
			return bench_fail(c->err, BENCH_E_USAGE, "--transport %s: not a transport name", o->transport);
	}
	if (o->probe)
		str_fmt_cut(ctx->probe, sizeof(ctx->probe), "%s", o->probe);
	/* --uart reads the firmware's lines from bench-sim's log: only a board bench-sim serves has one (the
	 * QEMU boards are virtual too, but QEMU keeps their UART). */
	if (o->uart && (!c->have_board || !board_sim_served(&c->board) || o->openocd || o->gdb))
		return bench_fail(c->err, BENCH_E_USAGE,
		                  "--uart shows the virtual board's UART output: drop --uart, or run on the virtual "
		                  "board (no --board other than sim-stm32f4, no --openocd or --gdb) and read a real "
		                  "board's UART with a terminal");
	/* The clock times are computed with: the firmware's SystemCoreClock once it is read (the loop),
	 * else --clock-hz, else board.json (docs/run.md). */
	if (o->clock_hz) {
		ctx->core_clock_hz = o->clock_hz;
		str_fmt_cut(ctx->clock_source, sizeof(ctx->clock_source), "--clock-hz");
	}
	return check_arch(c);
}

/* The counter the board names, as data (firmware/counters.h): read at its address, or none. A
 * counter bench does not know is refused rather than read under another name. */
/* An image for another core (firmware/core_check.h): refused, or measured with a warning. */
static int check_core(struct run_ctx *c)
{
	struct bench_report *rep = c->rep;
	char warn[sizeof(rep->warnings[0])];
	int rc = core_check_firmware(&c->elf, &c->board, warn, sizeof(warn), c->err);

	if (rc || !warn[0])
		return rc;
	fprintf(stderr, "bench: warning: %s\n", warn);
	if (rep->n_warnings < BENCH_MAX_WARNINGS)
		str_fmt_cut(rep->warnings[rep->n_warnings++], sizeof(rep->warnings[0]), "%s", warn);
	return 0;
}

static int choose_counter(struct run_ctx *c)
{
	struct bench_context *ctx = &c->rep->context;
	const struct counter_desc *k;

	/* No counter (QEMU models no DWT): still run from marker to marker, so the firmware and its
	 * inputs are exercised, but record no cycles rather than zeros (docs/gdb.md). */
	/* A TriCore attached without a board has no CSFR base to read CCNT at (board.json "csfr_base"). */
	if (!backend_has(&c->sess.bk, BK_CAP_CYCCNT) || !strcmp(ctx->counter, "none") ||
	    (!strcmp(elf_arch(&c->elf), "tricore") && !c->have_board)) {
		ctx->cycles_modelled = false;
		(void)snprintf(ctx->counter, sizeof(ctx->counter), "none");
		return 0;
	}
	k = counters_find(ctx->counter);
	if (!k)
		return bench_fail(c->err, BENCH_E_BOARD,
		                  "counter `%s` of board %s is not one bench can read: name DWT_CYCCNT, CCNT or "
		                  "none in its board.json (docs/boards.md)",
		                  ctx->counter, c->have_board ? c->board.name : "(attached)");
	if ((k->core == COUNTER_TRICORE) != !strcmp(elf_arch(&c->elf), "tricore"))
		return bench_fail(
		    c->err, BENCH_E_BOARD,
		    "counter `%s` of board %s belongs to another core than %s's: fix the board's \"counter\"",
		    ctx->counter, c->board.name, c->o->firmware);
	c->cfg.counter = k;
	return counters_address(k, c->have_board ? c->board.csfr_base : 0, &c->cfg.counter_addr, c->err);
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
	/* The path OpenOCD took to the board (board.json or --transport; docs/boards.md). */
	if (c->sess.ocd_started && c->have_board)
		(void)snprintf(c->rep->context.transport, sizeof(c->rep->context.transport), "%s", c->board.transport);
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
	return choose_counter(c);
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
	rc = prepare_firmware(c);
	if (!rc)
		rc = prepare_board(c);
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
		rc = check_core(c);
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
