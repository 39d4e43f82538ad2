/* bench report: render JSON reports (docs/report-schema.md) for people and CI tools.
 *   bench report RUN.json [MORE.json...] [--html FILE] [--svg FILE]
 *                [--format csv|junit|bmf|github|json|console] [--output FILE] [--max-cycles NAME=N]...
 * Several reports share one plot (fut-hardfp.elf beside fut-softfp.elf: the barebench figure);
 * --format converts one report. Exit codes: 0, 1 when a --max-cycles limit is exceeded (after
 * every output is written), 2 for bad usage or an unreadable report, 6 when writing fails. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "report/html.h"
#include "report/json_read.h"
#include "report/junit.h"
#include "report/outpath.h"
#include "report/reporter.h"
#include "report/svg.h"

#define REPORT_MAX_INPUTS 8

struct report_args {
	const char *inputs[REPORT_MAX_INPUTS];
	size_t n_inputs;
	const char *html, *svg, *format, *output;
	struct junit_limits limits;
};

static void report_usage(FILE *out)
{
	fputs("usage: bench report RUN.json [MORE.json...] [--html FILE] [--svg FILE]\n"
	      "                    [--format csv|junit|bmf|github|json|console] [--output FILE]\n"
	      "                    [--max-cycles NAME=N]...\n"
	      "  --html FILE        one self-contained page: cycles-versus-input plot, region bars, context\n"
	      "  --svg FILE         the plot alone (or bars per result when nothing was swept)\n"
	      "  --format NAME      convert the report (one input) to NAME; --output FILE (default stdout)\n"
	      "  --max-cycles N=C   junit: result N fails above C cycles; exit 1 when any does\n"
	      "docs/reports.md describes every format.\n",
	      out);
}

static int parse(int argc, char **argv, struct report_args *a, struct bench_error *err)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char **dst = NULL;
		if (!strcmp(o, "--help") || !strcmp(o, "-h"))
			return 1;
		if (!strcmp(o, "--html"))
			dst = &a->html;
		else if (!strcmp(o, "--svg"))
			dst = &a->svg;
		else if (!strcmp(o, "--format"))
			dst = &a->format;
		else if (!strcmp(o, "--output") || !strcmp(o, "-o"))
			dst = &a->output;
		if (dst || !strcmp(o, "--max-cycles")) {
			int rc;
			if (i + 1 >= argc)
				return bench_fail(err, BENCH_E_USAGE, "%s needs a value: see `bench report --help`", o);
			if (dst) {
				*dst = argv[++i];
				continue;
			}
			rc = junit_limit_parse(&a->limits, argv[++i], err);
			if (rc < 0)
				return rc;
			continue;
		}
		if (o[0] == '-' && o[1])
			return bench_fail(err, BENCH_E_USAGE, "unknown option '%s': see `bench report --help`", o);
		if (a->n_inputs == REPORT_MAX_INPUTS)
			return bench_fail(err, BENCH_E_USAGE, "more than %d reports: render them in groups",
			                  REPORT_MAX_INPUTS);
		a->inputs[a->n_inputs++] = o;
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

/* The figures take several reports while report_write_atomic() hands its reporter one; the
 * page's reporter reads them from here (one command per process, so no sharing arises). */
static struct {
	const struct bench_report *const *reps;
	size_t n;
} figure_input;

static int html_begin(FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	return html_write(out, figure_input.reps, figure_input.n, err);
}

static int svg_begin(FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	return svg_summary(out, figure_input.reps, figure_input.n, err);
}

static int figure_nothing(FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	return 0;
}

static int figure_result(FILE *out, const struct bench_report *rep, const struct bench_result *res,
                         struct bench_error *err)
{
	return 0;
}

static const struct reporter_ops html_page = {"html", "html", html_begin, figure_result, figure_nothing};
static const struct reporter_ops svg_figure = {"svg", "svg", svg_begin, figure_result, figure_nothing};

static int write_outputs(const struct report_args *a, const struct bench_report *const *reps, size_t n,
                         struct bench_error *err)
{
	int rc = 0;

	figure_input.reps = reps;
	figure_input.n = n;
	if (a->html)
		rc = report_write_atomic(&html_page, a->html, reps[0], err);
	if (rc == 0 && a->svg)
		rc = report_write_atomic(&svg_figure, a->svg, reps[0], err);
	if (rc == 0 && a->format) {
		const struct reporter_ops *ops = reporter_find(a->format);
		if (!ops)
			return bench_fail(err, BENCH_E_USAGE,
			                  "unknown format '%s': use csv, junit, bmf, github, json or console",
			                  a->format);
		junit_set_limits(&a->limits);
		rc = report_write_atomic(ops, a->output ? a->output : "-", reps[0], err);
		junit_set_limits(NULL);
	}
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static struct report_args a; /* static: struct junit_limits is 2.5 KiB */
	struct bench_report reps[REPORT_MAX_INPUTS];
	const struct bench_report *ptrs[REPORT_MAX_INPUTS];
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
		rc = bench_fail(&err, BENCH_E_USAGE, "--max-cycles %s: no result is named %s: check the name", u, u);
	}
	if (rc == 0)
		rc = write_outputs(&a, ptrs, a.n_inputs, &err);
	for (size_t i = 0; rc == 0 && i < a.n_inputs; i++)
		failures += junit_limit_failures(&a.limits, &reps[i]);
	for (size_t i = 0; i < loaded; i++)
		results_free(&reps[i]);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	if (failures) {
		fprintf(stderr, "bench: %zu result%s above --max-cycles\n", failures, failures == 1 ? "" : "s");
		return 1;
	}
	return 0;
}
