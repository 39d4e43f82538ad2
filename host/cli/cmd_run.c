/* bench run: parse flags, measure (run.c), print the table, write the JSON report (also when the
 * run failed: docs/exit-codes.md), and exit with the documented code. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/str.h"
#include "cli/cmd.h"
#include "farm/farm.h"
#include "session/probes.h"
#include "session/proc.h"
#include "report/junit.h"
#include "report/outpath.h"
#include "report/reporter.h"
#include "profile/profile.h"
#include "run/run.h"

static int write_outputs(const struct run_opts *o, const struct junit_limits *limits, const struct bench_report *rep,
                         bool measured_any, struct bench_error *err)
{
	const struct reporter_ops *fmt = reporter_find(o->format ? o->format : "console");
	const struct reporter_ctx ctx = {.limits = limits};
	int rc = 0;

	if (!fmt)
		return reporter_unknown("--format", o->format, err);
	if (!o->quiet && (measured_any || strcmp(fmt->name, "console")))
		rc = report_emit(fmt, &ctx, stdout, rep, err);
	if (o->json) {
		struct bench_error jerr;
		int jrc = report_write_atomic(reporter_find("json"), &ctx, o->json, rep, &jerr);
		if (jrc && !rc) {
			*err = jerr;
			rc = jrc;
		}
	}
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct bench_report rep;
	struct bench_error err, werr, uerr;
	int rc, wrc, urc = 0, code;
	static struct junit_limits limits; /* --max-cycles NAME=N, checked after the run (report/junit.c) */

	run_opts_init(&o);
	o.limits = &limits;
	bench_error_clear(&err);
	rc = run_parse_args(argc, argv, &o, &err);
	if (rc == 0 && o.farm) { /* --farm FILE: every board of the farm at once (farm_run.c) */
		code = farm_cmd_run(&o);
		run_opts_free(&o);
		return code;
	}
	if (rc == 0)
		rc = probes_check_run(&o, &err); /* --probe SERIAL attached, or one probe only (probes_run.c) */
	if (rc == 1) {
		run_print_usage(stdout);
		run_opts_free(&o);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "bench: %s\n", err.msg);
		run_opts_free(&o);
		return bench_exit_code(err.kind);
	}
	/* A report that cannot be written is known before the run, not after minutes of measuring
	 * (and a second error line); and it never replaces the firmware (report/outpath.h). */
	{
		char folded[4096] = "", cg[4096] = ""; /* --profile PREFIX's files (one pair; docs/profile.md) */
		if (o.profile) {
			str_fmt_cut(folded, sizeof(folded), "%s.folded", o.profile);
			str_fmt_cut(cg, sizeof(cg), "%s.callgrind", o.profile);
		}
		const struct outpath out[] = {
		    {"--json", o.json}, {"--profile", o.profile ? folded : NULL}, {"--profile", o.profile ? cg : NULL}};
		const char *in[] = {o.firmware};
		if (outpath_check(out, 3, in, 1, &err)) {
			fprintf(stderr, "bench: %s\n", err.msg);
			run_opts_free(&o);
			return bench_exit_code(err.kind);
		}
	}
	proc_install_signal_handlers();
	{
		/* A run this long should not start unnoticed: say how long it may take (run.h's estimate). */
		uint64_t combos = 1;
		for (size_t i = 0; i < o.n_sweeps; i++)
			combos *= o.sweeps[i].n; /* run_check_size: no overflow */
		if (combos * (o.warmup + o.repeat) >= RUN_NOTE_ITERATIONS)
			fprintf(stderr,
			        "bench: note: %" PRIu64 " inputs x %u iterations = %" PRIu64
			        " iterations, about %.1f hours "
			        "at %u ms each; Ctrl-C stops it and keeps what was measured\n",
			        combos, o.warmup + o.repeat, combos * (o.warmup + o.repeat),
			        (double)combos * (o.warmup + o.repeat) * RUN_EST_MS_PER_ITERATION / 3600e3,
			        RUN_EST_MS_PER_ITERATION);
	}
	results_init(&rep);
	rc = run_measure(&o, &rep, &err);
	bench_error_clear(&werr);
	bench_error_clear(&uerr);
	if (!rc) /* a result with nothing that counts: the report says incomplete before it is written */
		urc = results_fail_unmeasured(&rep, &uerr);
	wrc = write_outputs(&o, &limits, &rep, rep.n_results > 0, &werr);
	if (!wrc && o.profile) /* the top-N table, PREFIX.folded and PREFIX.callgrind (docs/profile.md) */
		wrc = profile_write_all(&rep, o.profile, o.quiet ? NULL : stdout, &werr);
	if (rc)
		fprintf(stderr, "bench: %s\n", err.msg);
	if (wrc)
		fprintf(stderr, "bench: %s\n", werr.msg);
	code = rc ? bench_exit_code(err.kind) : wrc ? bench_exit_code(werr.kind) : 0;
	code = junit_limit_exit(&limits, &rep, code);
	if (!code && urc) { /* a --max-cycles limit naming it has said so already (exit 1) */
		fprintf(stderr, "bench: %s\n", uerr.msg);
		code = bench_exit_code(uerr.kind);
	}
	results_free(&rep);
	run_opts_free(&o);
	return code;
}
