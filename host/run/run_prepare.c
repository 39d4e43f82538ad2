/* What a run knows before it measures (docs/run.md): the firmware's markers, --start/--stop and
 * input symbols checked against the ELF, the board and its core family, the counter the board
 * names. run.c calls these in order; nothing here calls back into run.c. */
#include "run/run_prepare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "firmware/board.h"
#include "firmware/core_check.h"
#include "firmware/counters.h"
#include "firmware/dwarf.h"
#include "firmware/elf.h"

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

int run_prepare_firmware(struct run_ctx *c)
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

int run_prepare_board(struct run_ctx *c)
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
int run_check_core(struct run_ctx *c)
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

int run_choose_counter(struct run_ctx *c)
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
