/* `bench run` flags (docs/run.md is the user-facing copy): a table of options, each with the
 * field it sets, so usage text and parsing cannot drift apart. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "cli/args.h"
#include "report/junit.h"
#include "report/outpath.h"
#include "report/reporter.h"
#include "run/run.h"

void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->repeat = 10;
	o->warmup = 1;
	o->timeout_ms = RUN_DEFAULT_TIMEOUT_MS;
}

void run_opts_free(struct run_opts *o)
{
	for (size_t i = 0; i < o->n_sweeps; i++) {
		free(o->sweeps[i].values);
		o->sweeps[i].values = NULL;
	}
	o->n_sweeps = 0;
}

static int parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* "10000", "10000ms", "10s". */
static int parse_ms(const char *s, unsigned *out)
{
	char num[32];
	size_t l = strlen(s);
	unsigned mult = 1, v;

	if (l >= sizeof(num))
		return -1;
	memcpy(num, s, l + 1);
	if (l > 2 && !strcmp(num + l - 2, "ms"))
		num[l - 2] = '\0';
	else if (l > 1 && num[l - 1] == 's')
		num[l - 1] = '\0', mult = 1000;
	if (parse_uint(num, 3600u * 1000u, &v) || v == 0 || v > 3600u * 1000u / mult)
		return -1;
	*out = v * mult;
	return 0;
}

static int sweep_usage(struct bench_error *err, const char *spec, const char *why)
{
	return bench_fail(err, BENCH_E_USAGE,
	                  "bad --arg '%s' (%s): give NAME=START:STOP:STEP (e.g. input=0:1000:7) or NAME=V1,V2,...",
	                  spec, why);
}

int run_parse_sweep(const char *spec, struct run_sweep *out, struct bench_error *err)
{
	const char *eq = strchr(spec, '=');
	const char *val;
	size_t nlen;
	char buf[4096];

	memset(out, 0, sizeof(*out));
	if (!eq || eq == spec)
		return sweep_usage(err, spec, "no NAME=");
	nlen = (size_t)(eq - spec);
	if (nlen >= sizeof(out->name))
		return sweep_usage(err, spec, "name too long");
	memcpy(out->name, spec, nlen);
	out->name[nlen] = '\0';
	for (size_t i = 0; i < nlen; i++) {
		char c = out->name[i];
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i && c >= '0' && c <= '9')))
			return sweep_usage(err, spec, "NAME must be a C identifier");
	}
	val = eq + 1;
	if (!*val || str_copy(buf, sizeof(buf), val))
		return sweep_usage(err, spec, "no values");
	if (strchr(buf, ':')) {
		char *a = buf, *b = strchr(a, ':'), *c;
		int64_t start, stop, step = 1;
		*b++ = '\0';
		c = strchr(b, ':');
		if (c)
			*c++ = '\0';
		if (parse_i64(a, &start) || parse_i64(b, &stop) || (c && parse_i64(c, &step)))
			return sweep_usage(err, spec, "not integers");
		int64_t span;
		/* STOP - START must itself be an int64: 9223372036854775807 - -1 would wrap (C11 6.5p5). */
		if (__builtin_sub_overflow(stop, start, &span))
			return sweep_usage(err, spec, "STOP - START overflows a 64-bit integer");
		if (step == 0 || (step == -1 && span == INT64_MIN) || span / step < 0)
			return sweep_usage(err, spec, "STEP must move START towards STOP");
		uint64_t n = (uint64_t)(span / step) + 1;
		if (n > RUN_MAX_SWEEP_VALUES)
			return sweep_usage(err, spec, "more than 1000000 values");
		out->values = malloc(n * sizeof(*out->values));
		if (!out->values)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory for --arg %s", spec);
		for (uint64_t i = 0; i < n; i++)
			out->values[i] = start + (int64_t)i * step;
		out->n = (size_t)n;
		return 0;
	}
	/* "1,,2" has an empty element strtok_r would skip. */
	if (strstr(buf, ",,") || buf[0] == ',' || buf[strlen(buf) - 1] == ',')
		return sweep_usage(err, spec, "empty list element");
	size_t n = 1;
	for (const char *p = buf; *p; p++)
		n += *p == ',';
	out->values = malloc(n * sizeof(*out->values));
	if (!out->values)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory for --arg %s", spec);
	char *save = NULL, *tok = buf;
	for (size_t i = 0; i < n; i++, tok = NULL) {
		char *t = strtok_r(tok, ",", &save);
		if (!t || parse_i64(t, &out->values[i])) {
			free(out->values);
			out->values = NULL;
			return sweep_usage(err, spec, "not a list of integers");
		}
	}
	out->n = n;
	return 0;
}

enum opt_kind {
	OPT_STR,
	OPT_UINT,
	OPT_MS,
	OPT_FLAG,
	OPT_ARG,
	OPT_PORT,
	OPT_HELP,
	OPT_NOFLAG,
	OPT_HZ,
	OPT_FORMAT,
	OPT_SIM,
	OPT_LIMIT,
	OPT_LIMIT_STACK
};

struct opt {
	const char *name;
	enum opt_kind kind;
	size_t offset;
	const char *meta, *help;
};

#define F(field) offsetof(struct run_opts, field)

static const struct opt opts[] = {
    {"--board", OPT_STR, F(board), "NAME", "board folder under boards/ (default: the virtual board sim-stm32f4)"},
    {"--transport", OPT_STR, F(transport), "PATH",
     "how OpenOCD reaches the board: dap (ST-LINK dapdirect_swd, default), hla (ST-LINK hla_swd), jtag (virtual)"},
    {"--probe", OPT_STR, F(probe), "SERIAL", "debug probe serial (OpenOCD `adapter serial`); see `bench probes`"},
    {"--openocd", OPT_STR, F(openocd), "HOST:PORT", "attach to a running OpenOCD's TCL port; start nothing"},
    {"--gdb", OPT_STR, F(gdb), "HOST:PORT", "measure through a gdbserver (GDB remote protocol)"},
    {"--repeat", OPT_UINT, F(repeat), "N", "measured iterations per input (default 10)"},
    {"--warmup", OPT_UINT, F(warmup), "N", "iterations per input run first and not recorded (default 1)"},
    {"--arg", OPT_ARG, 0, "NAME=SPEC", "input sweep: NAME=START:STOP:STEP or NAME=V1,V2,... (repeatable)"},
    {"--timeout", OPT_MS, F(timeout_ms), "MS", "longest wait for the next marker, e.g. 10000 or 10s (default 10s)"},
    {"--json", OPT_STR, F(json), "FILE", "write the JSON report (docs/report-schema.md) atomically, also on failure"},
    {"--format", OPT_FORMAT, F(format), "NAME", "stdout format (default console):"}, /* + the registry's names */
    {"--start", OPT_STR, F(start_sym), "SYM", "breakpoint mode: measure from function SYM ... (no markers needed)"},
    {"--stop", OPT_STR, F(stop_sym), "SYM", "... to function SYM"},
    {"--bp-markers", OPT_FLAG, F(bp_markers), NULL, "plant hardware breakpoints at the marker sites"},
    {"--poll", OPT_UINT, F(poll_ms), "MS", "read the region table every MS while the target runs"},
    {"--no-regions", OPT_FLAG, F(no_regions), NULL, "do not read the region table at the DONE marker"},
    {"--icount", OPT_FLAG, F(icount), NULL, "QEMU boards: also count instructions between markers (not cycles)"},
    {"--no-load", OPT_FLAG, F(no_load), NULL, "do not program the firmware: the target already holds it"},
    {"--work-dir", OPT_STR, F(work_dir), "DIR", "where logs go (default: a temporary folder, kept on failure)"},
    {"--tcl-port", OPT_PORT, F(tcl_port), "PORT", "OpenOCD's TCL port when bench starts it (default: a free one)"},
    {"--boards-dir", OPT_STR, F(boards_dir), "DIR", "folder of board folders (default: the source tree's boards/)"},
    {"--keep-interrupted", OPT_FLAG, F(keep_interrupted), NULL,
     "count samples that took an exception in min/median/... (they are flagged either way)"},
    {"--mask-irqs", OPT_FLAG, F(mask_irqs), NULL,
     "mask PendSV, SysTick and IRQs from BEGIN to END (DHCSR.C_MASKINTS; NMI and faults stay)"},
    {"--clock-hz", OPT_HZ, F(clock_hz), "HZ", "core clock for times when the firmware has no SystemCoreClock"},
    {"--sim-opt", OPT_SIM, 0, "OPTS",
     "options for the virtual board, e.g. \"--wait-states 0\" (repeatable; bench-sim --help)"},
    {"--profile", OPT_STR, F(profile), "PREFIX",
     "where each stretch's cycles go: table, JSON, PREFIX.folded, PREFIX.callgrind (exact on the virtual board)"},
    {"--profile-sampled", OPT_FLAG, F(profile_sampled), NULL,
     "virtual board: sample DWT_PCSR as on silicon instead of the exact cycle ledger"},
    {"--stack", OPT_FLAG, F(stack), NULL, "also the stack each stretch uses below SP (painted over the probe)"},
    {"--stack-limit", OPT_STR, F(stack_limit), "ADDR", "--stack: the lowest stack address (default: the ELF's)"},
    {"--stack-method", OPT_STR, F(stack_method), "M",
     "--stack: paint (any board) or exact (virtual board, its default)"},
    {"--code-size", OPT_FLAG, F(code_size), NULL, "also the bytes of the functions each stretch runs, and the image's"},
    {"--code-method", OPT_STR, F(code_method), "M", "--code-size: static (call graph) or executed (virtual board)"},
    {"--quiet", OPT_FLAG, F(quiet), NULL, "no table on stdout"},
    {"--uart", OPT_FLAG, F(uart), NULL, "virtual board: echo the firmware's UART lines to stderr, keep them in JSON"},
    {"--no-progress", OPT_NOFLAG, F(progress), NULL, "no progress bar"},
    {"--help", OPT_HELP, 0, NULL, "this text"},
    {"--max-cycles", OPT_LIMIT, 0, "NAME=N",
     "fail the run (exit 1, JUnit case failed) when result NAME's largest sample exceeds N"},
    {"--max-stack", OPT_LIMIT_STACK, 0, "NAME=BYTES",
     "with --stack: fail the run (exit 1, JUnit case failed) when result NAME used more than BYTES of stack"},
    {"--farm", OPT_STR, F(farm), "FILE", "run on every board of a farm file at once, one merged report (docs/ci.md)"},
};

#define N_OPTS     (sizeof(opts) / sizeof(opts[0]))
#define OPT_VAL(k) (256 + (int)(k)) /* getopt_long's .val of opts[k]: above every short option */

void run_print_usage(FILE *out)
{
	fprintf(out, "usage: bench run FIRMWARE.elf [options]\n\n"
	             "Measures the code between the firmware's BKPT markers (target/include/bench.h), in cycles.\n"
	             "Without --board, --openocd or --gdb it starts the virtual board (bench-sim) and OpenOCD.\n\n");
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char left[40];
		str_fmt_cut(left, sizeof(left), "%s%s%s", opts[i].name, opts[i].meta ? " " : "",
		            opts[i].meta ? opts[i].meta : "");
		if (opts[i].kind == OPT_FORMAT) {
			char names[160];
			fprintf(out, "  %-22s %s %s\n", left, opts[i].help, reporter_names(names, sizeof(names)));
			continue;
		}
		fprintf(out, "  %-22s %s\n", left, opts[i].help);
	}
	fprintf(out,
	        "\nEnvironment: BENCH_OPENOCD, BENCH_SIM (programs), BENCH_BOARDS_DIR, BENCH_SIM_PRELOAD=0 (program\n"
	        "an empty virtual board through OpenOCD), BENCH_STATS=1 (CPU time per process on stderr),\n"
	        "BENCH_RESETS=openocd-log (see resets as on silicon, from OpenOCD's log; docs/reliability.md).\n"
	        "Exit codes: docs/exit-codes.md. Details: docs/run.md.\n");
}

static int apply(const struct opt *op, const char *val, struct run_opts *o, struct bench_error *err)
{
	char *base = (char *)o;
	unsigned u;

	switch (op->kind) {
	case OPT_FORMAT:
		if (!reporter_find(val))
			return reporter_unknown("--format", val, err);
		*(const char **)(base + op->offset) = val;
		return 0;
	case OPT_STR:
		if (!*val)
			return bench_fail(err, BENCH_E_USAGE, "%s needs a non-empty value: see `bench run --help`",
			                  op->name);
		*(const char **)(base + op->offset) = val;
		return 0;
	case OPT_UINT:
		if (parse_uint(val, 100000000u, &u))
			return bench_fail(err, BENCH_E_USAGE, "%s %s: not a number from 0 to 100000000", op->name, val);
		if (!strcmp(op->name, "--repeat") && u == 0)
			return bench_fail(err, BENCH_E_USAGE, "--repeat 0 measures nothing: give 1 or more");
		*(unsigned *)(base + op->offset) = u;
		return 0;
	case OPT_MS:
		if (parse_ms(val, &u))
			return bench_fail(err, BENCH_E_USAGE,
			                  "%s %s: give milliseconds (1 to 3600000) or seconds like 10s", op->name, val);
		*(unsigned *)(base + op->offset) = u;
		return 0;
	case OPT_HZ: {
		char *end;
		unsigned long long hz;
		errno = 0;
		hz = strtoull(val, &end, 10);
		/* 1 kHz to 10 GHz: anything else is a typo (a value in MHz, a stray digit). */
		if (errno || *end || *val == '-' || hz < 1000 || hz > 10000000000ull)
			return bench_fail(err, BENCH_E_USAGE, "%s %s: give the core clock in Hz, e.g. 168000000",
			                  op->name, val);
		*(uint64_t *)(base + op->offset) = hz;
		return 0;
	}
	case OPT_PORT:
		if (parse_uint(val, 65535u, &u) || u == 0)
			return bench_fail(err, BENCH_E_USAGE, "%s %s: give a TCP port from 1 to 65535", op->name, val);
		*(uint16_t *)(base + op->offset) = (uint16_t)u;
		return 0;
	case OPT_ARG:
		if (o->n_sweeps == RUN_MAX_SWEEPS)
			return bench_fail(err, BENCH_E_USAGE, "more than %d --arg: combine fewer inputs",
			                  RUN_MAX_SWEEPS);
		for (size_t i = 0; i < o->n_sweeps; i++) {
			size_t l = strlen(o->sweeps[i].name);
			if (!strncmp(val, o->sweeps[i].name, l) && val[l] == '=')
				return bench_fail(err, BENCH_E_USAGE, "--arg %s given twice: give it once",
				                  o->sweeps[i].name);
		}
		{
			int rc = run_parse_sweep(val, &o->sweeps[o->n_sweeps], err);
			if (rc)
				return rc;
		}
		o->n_sweeps++;
		return 0;
	case OPT_SIM:
		if (!*val || val[0] != '-')
			return bench_fail(err, BENCH_E_USAGE,
			                  "--sim-opt '%s': give bench-sim options, like --sim-opt \"--wait-states 0\"",
			                  val);
		if (o->n_sim_opts == RUN_MAX_SIM_OPTS)
			return bench_fail(err, BENCH_E_USAGE, "more than %d --sim-opt: put several options in one",
			                  RUN_MAX_SIM_OPTS);
		o->sim_opts[o->n_sim_opts++] = val;
		return 0;
	case OPT_LIMIT: /* checked against the results after the run (report/junit.c) */
	case OPT_LIMIT_STACK:
		if (!o->limits)
			return bench_fail(err, BENCH_E_INTERNAL, "%s given to a parser without limits", op->name);
		return junit_limit_parse_measure(o->limits, val, op->kind == OPT_LIMIT ? JUNIT_CYCLES : JUNIT_STACK,
		                                 err);
	case OPT_FLAG:
	case OPT_NOFLAG:
		*(bool *)(base + op->offset) = op->kind == OPT_FLAG;
		return 0;
	case OPT_HELP:
		break;
	}
	return 0;
}

/* "--farm needs a farm file (docs/ci.md)": what is missing, from the option table. */
static const char *run_needs(int val, char *buf, size_t len)
{
	const struct opt *op;

	if (val < OPT_VAL(0) || val >= OPT_VAL(N_OPTS))
		return NULL;
	op = &opts[val - OPT_VAL(0)];
	if (op->kind == OPT_LIMIT)
		return "NAME=N, e.g. --max-cycles fut=40";
	if (op->kind == OPT_LIMIT_STACK)
		return "NAME=BYTES, e.g. --max-stack fut=256";
	if (op->offset == F(farm) && op->kind == OPT_STR)
		return "a farm file (docs/ci.md)";
	str_fmt_cut(buf, len, "a value (%s): see `bench run --help`", op->meta);
	return buf;
}

/* The number of iterations (inputs x (warmup + repeat)) must fit, and a run that would take
 * longer than anyone means is refused before anything starts. */
int run_check_size(const struct run_opts *o, struct bench_error *err)
{
	uint64_t combos = 1, total;

	for (size_t i = 0; i < o->n_sweeps; i++)
		if (__builtin_mul_overflow(combos, (uint64_t)o->sweeps[i].n, &combos))
			return bench_fail(err, BENCH_E_USAGE,
			                  "the --arg sweeps have more combinations than a 64-bit count holds: sweep "
			                  "fewer inputs");
	if (__builtin_mul_overflow(combos, (uint64_t)o->warmup + o->repeat, &total) || total > RUN_MAX_ITERATIONS)
		return bench_fail(err, BENCH_E_USAGE,
		                  "%" PRIu64 " inputs x %u iterations is more than %" PRIu64
		                  " iterations (about %.0f days "
		                  "at %u ms each): sweep fewer inputs or lower --repeat",
		                  combos, o->warmup + o->repeat, (uint64_t)RUN_MAX_ITERATIONS,
		                  (double)combos * (o->warmup + o->repeat) * RUN_EST_MS_PER_ITERATION / 86400e3,
		                  RUN_EST_MS_PER_ITERATION);
	return 0;
}

int run_parse_args(int argc, char **argv, struct run_opts *o, struct bench_error *err)
{
	struct option longopts[N_OPTS + 1];
	struct cli_args a;
	const char *val;
	int c;

	/* The long options from the table: "--repeat" is opts[k], given back as OPT_VAL(k). */
	for (size_t k = 0; k < N_OPTS; k++) {
		bool flag = opts[k].kind == OPT_FLAG || opts[k].kind == OPT_NOFLAG || opts[k].kind == OPT_HELP;
		longopts[k] =
		    (struct option){opts[k].name + 2, flag ? no_argument : required_argument, NULL, OPT_VAL(k)};
	}
	longopts[N_OPTS] = (struct option){NULL, 0, NULL, 0};
	cli_args_start(&a, "run", argc, argv, "h", longopts);
	a.needs = run_needs;
	o->progress = true;
	while ((c = cli_args_next(&a, &val, err)) != CLI_ARG_END) {
		const struct opt *op;
		int rc;

		if (c < 0)
			return c;
		if (c == CLI_ARG_POSITIONAL) {
			if (o->firmware)
				return bench_fail(err, BENCH_E_USAGE, "two firmware files ('%s', '%s'): give one",
				                  o->firmware, val);
			o->firmware = val;
			continue;
		}
		if (c == 'h')
			return 1;
		op = &opts[c - OPT_VAL(0)];
		if (op->kind == OPT_HELP)
			return 1;
		if ((rc = apply(op, val, o, err)))
			return rc;
	}
	if (!o->firmware)
		return bench_fail(err, BENCH_E_USAGE,
		                  "no firmware given: bench run FIRMWARE.elf (see `bench run --help`)");
	{
		int rc = run_check_size(o, err);
		if (rc)
			return rc;
	}
	if (!!o->start_sym != !!o->stop_sym)
		return bench_fail(err, BENCH_E_USAGE, "--start and --stop go together: give both symbols");
	if (o->openocd && o->gdb)
		return bench_fail(err, BENCH_E_USAGE, "--openocd and --gdb both given: pick one backend");
	if (o->transport && strcmp(o->transport, "dap") && strcmp(o->transport, "hla") && strcmp(o->transport, "jtag"))
		return bench_fail(
		    err, BENCH_E_USAGE,
		    "--transport %s: give dap (ST-LINK, dapdirect_swd), hla (ST-LINK, hla_swd) or jtag (the "
		    "virtual board's remote_bitbang)",
		    o->transport);
	if (o->transport && (o->openocd || o->gdb))
		return bench_fail(err, BENCH_E_USAGE,
		                  "--transport picks how the OpenOCD bench starts reaches the board: leave it out with "
		                  "--openocd/--gdb");
	/* `--json -` makes stdout the JSON report: one document. The console table then stays off
	 * (--format json would print the same report twice); another stdout format would mix. */
	if (o->json && outpath_is_stdout(o->json)) { /* "-", /dev/stdout, ... (report/outpath.h) */
		if (o->format && strcmp(o->format, "json") && strcmp(o->format, "console") && !o->quiet)
			return bench_fail(err, BENCH_E_USAGE,
			                  "--json %s and --format %s both write to stdout: write the report to a file "
			                  "or add --quiet",
			                  o->json, o->format);
		o->quiet = true;
	}
	if (o->n_sim_opts && (o->board || o->openocd || o->gdb))
		return bench_fail(err, BENCH_E_USAGE,
		                  "--sim-opt configures the virtual board bench starts: leave it out with "
		                  "--board, --openocd or --gdb");
	if (o->probe && (o->openocd || o->gdb))
		return bench_fail(err, BENCH_E_USAGE,
		                  "--probe selects the probe of an OpenOCD bench starts: leave it out "
		                  "with --openocd/--gdb");
	return 0;
}
