/* bench report: render JSON reports (docs/report-schema.md) for people and CI tools.
 *   bench report RUN.json [MORE.json...] [--html FILE] [--svg FILE]
 *                [--format NAME] [--output FILE] [--max-cycles NAME=N]...
 * Several reports share one plot (fut-hardfp.elf beside fut-softfp.elf: the barebench figure);
 * --format converts one report to any format of the reporter registry (report/registry.c). Exit
 * codes: 0, 1 when a --max-cycles limit is exceeded (after every output is written), 2 for bad
 * usage or an unreadable report, 6 when writing fails. */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cmd.h"
#include "report/json_read.h"
#include "report/junit.h"
#include "report/outpath.h"
#include "report/reporter.h"

#define REPORT_MAX_INPUTS 8

struct report_args {
	const char *inputs[REPORT_MAX_INPUTS];
	size_t n_inputs;
	const char *html, *svg, *format, *output;
	struct junit_limits limits;
};

/* The formats are listed from the registry, so a new reporter shows up here by itself (and
 * tests/ci checks docs/reports.md's table against this list). */
static void report_usage(FILE *out)
{
	fputs("usage: bench report RUN.json [MORE.json...] [--html FILE] [--svg FILE]\n"
	      "                    [--format NAME] [--output FILE] [--max-cycles NAME=N]...\n"
	      "  --html FILE        the html format into FILE; several reports share its plot\n"
	      "  --svg FILE         the svg format into FILE; several reports share its plot\n"
	      "  --format NAME      convert the report (one input) to NAME; --output FILE (default stdout)\n"
	      "  --max-cycles N=C   junit: result N fails above C cycles; exit 1 when any does\n"
	      "  --max-stack N=B    junit: result N fails above B bytes of stack (bench run --stack)\n"
	      "formats:\n",
	      out);
	for (size_t i = 0; reporter_table[i]; i++)
		fprintf(out, "  %-18s %s\n", reporter_table[i]->name, reporter_table[i]->help);
	fputs("docs/reports.md describes every format.\n", out);
}

enum { REP_HTML = 256, REP_SVG, REP_FORMAT, REP_MAX_CYCLES, REP_MAX_STACK };

static int parse(int argc, char **argv, struct report_args *a, struct bench_error *err)
{
	static const struct option longopts[] = {
	    {"html", required_argument, NULL, REP_HTML},
	    {"svg", required_argument, NULL, REP_SVG},
	    {"format", required_argument, NULL, REP_FORMAT},
	    {"output", required_argument, NULL, 'o'},
	    {"max-cycles", required_argument, NULL, REP_MAX_CYCLES},
	    {"max-stack", required_argument, NULL, REP_MAX_STACK},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct cli_args args;
	const char *val;
	int c;

	cli_args_start(&args, "report", argc, argv, "ho:", longopts);
	while ((c = cli_args_next(&args, &val, err)) != CLI_ARG_END) {
		switch (c) {
		case 'h':
			return 1;
		case REP_HTML:
			a->html = val;
			break;
		case REP_SVG:
			a->svg = val;
			break;
		case REP_FORMAT:
			a->format = val;
			break;
		case 'o':
			a->output = val;
			break;
		case REP_MAX_CYCLES:
		case REP_MAX_STACK:
			if (junit_limit_parse_measure(&a->limits, val, c == REP_MAX_CYCLES ? JUNIT_CYCLES : JUNIT_STACK,
			                              err) < 0)
				return -(int)err->kind;
			break;
		case CLI_ARG_POSITIONAL:
			if (a->n_inputs == REPORT_MAX_INPUTS)
				return bench_fail(err, BENCH_E_USAGE, "more than %d reports: render them in groups",
				                  REPORT_MAX_INPUTS);
			a->inputs[a->n_inputs++] = val;
			break;
		default:
			return c; /* a negated bench_err: an unknown option, a missing value */
		}
	}
	if (!a->n_inputs)
		return bench_fail(err, BENCH_E_USAGE, "no report given: bench report RUN.json --html FILE");
	if (!a->html && !a->svg && !a->format)
		return bench_fail(err, BENCH_E_USAGE,
		                  "nothing to write: pass --html FILE, --svg FILE or --format NAME");
	if (a->output && !a->format)
		return bench_fail(err, BENCH_E_USAGE, "--output goes with --format NAME");
	if (a->format && a->n_inputs != 1)
		return bench_fail(err, BENCH_E_USAGE, "--format converts one report, %zu given", a->n_inputs);
	return 0;
}

static int write_outputs(const struct report_args *a, const struct bench_report *const *reps, size_t n,
                         struct bench_error *err)
{
	/* Every output gets the same options: the figures draw all reports, junit checks the limits. */
	const struct reporter_ctx ctx = {
	    .limits = &a->limits, .reports = reps, .n_reports = n, .report_files = a->inputs};
	int rc = 0;

	if (a->html)
		rc = report_write_atomic(reporter_find("html"), &ctx, a->html, reps[0], err);
	if (rc == 0 && a->svg)
		rc = report_write_atomic(reporter_find("svg"), &ctx, a->svg, reps[0], err);
	if (rc == 0 && a->format) {
		const struct reporter_ops *ops = reporter_find(a->format);
		if (!ops)
			return reporter_unknown("--format", a->format, err);
		rc = report_write_atomic(ops, &ctx, a->output ? a->output : "-", reps[0], err);
	}
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static struct report_args a; /* static: struct junit_limits is 2.5 KiB */
	struct bench_report reps[REPORT_MAX_INPUTS];
	const struct bench_report *ptrs[REPORT_MAX_INPUTS] = {NULL};
	struct bench_error err;
	size_t loaded = 0, failures = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	bench_error_clear(&err);
	rc = parse(argc, argv, &a, &err);
	if (rc == 1) {
		report_usage(stdout);
		return 0;
	}
	if (rc == 0) {
		/* Every output is checked before a report is read: none may replace an input. */
		const struct outpath outs[] = {{"--html", a.html}, {"--svg", a.svg}, {"--output", a.output}};
		rc = outpath_check(outs, 3, a.inputs, a.n_inputs, &err);
	}
	for (; rc == 0 && loaded < a.n_inputs; loaded++) {
		results_init(&reps[loaded]);
		ptrs[loaded] = &reps[loaded];
		rc = json_read_file(a.inputs[loaded], &reps[loaded], &err);
	}
	if (rc == 0 && junit_limit_unmatched(&a.limits, ptrs, a.n_inputs)) {
		const char *u = junit_limit_unmatched(&a.limits, ptrs, a.n_inputs);
		enum junit_measure m = JUNIT_CYCLES;
		for (size_t i = 0; i < a.limits.n; i++)
			if (a.limits.items[i].name == u)
				m = a.limits.items[i].measure;
		rc = bench_fail(&err, BENCH_E_USAGE, "%s %s: no result is named %s: check the name",
		                junit_measure_flag(m), u, u);
	}
	if (rc == 0)
		rc = write_outputs(&a, ptrs, a.n_inputs, &err);
	if (rc == 0) /* above a limit, or nothing to check against one: exit 1 */
		failures = junit_limit_explain(stderr, &a.limits, ptrs, a.n_inputs);
	for (size_t i = 0; i < loaded; i++)
		results_free(&reps[i]);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	return failures ? 1 : 0;
}
