/* bench compare BASE.json NEW.json [--threshold 1%] [--utest] [--alpha P] [--allow-different-firmware]
 *               [--allow-different-board]
 * Prints the change per result and input as a table. Exit codes (docs/exit-codes.md): 0 no
 * regression beyond the threshold, 1 a regression, 2 bad usage or reports that cannot be compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cmd.h"
#include "results/compare.h"
#include "results/compare_measures.h"
#include "results/compare_profile.h"
#include "report/json_read.h"

static void compare_usage(FILE *out)
{
	fputs("usage: bench compare BASE.json NEW.json [--threshold 1%] [--utest] [--alpha 0.05]\n"
	      "                     [--allow-different-firmware] [--allow-different-board]\n"
	      "  --threshold T   a median more than T above BASE is a regression (default 1%)\n"
	      "  --utest         also require a Mann-Whitney U test p < alpha for cycles (silicon noise);\n"
	      "                  figures in other units (times) are always tested\n"
	      "  --alpha P       significance level of the U test (default 0.05)\n"
	      "  --stack-threshold T  a result's most stack more than T above BASE is a regression (default 0%)\n"
	      "  --code-threshold T   its code bytes more than T above BASE are a regression (default 0%)\n"
	      "  --allow-different-firmware  compare reports of differently named firmware\n"
	      "  --allow-different-board     compare reports measured on different boards\n"
	      "a result missing from NEW counts as a regression; a report whose status is not ok is refused\n"
	      "exit: 0 no regression, 1 regression, 2 usage or incomparable reports\n",
	      out);
}

enum { CMP_UTEST = 256, CMP_ALLOW_FW, CMP_ALLOW_BOARD, CMP_THRESHOLD, CMP_ALPHA, CMP_STACK_T, CMP_CODE_T };

static int parse(int argc, char **argv, const char **paths, struct compare_opts *o, struct compare_measure_opts *mo,
                 struct bench_error *err)
{
	static const struct option longopts[] = {
	    {"utest", no_argument, NULL, CMP_UTEST},
	    {"allow-different-firmware", no_argument, NULL, CMP_ALLOW_FW},
	    {"allow-different-board", no_argument, NULL, CMP_ALLOW_BOARD},
	    {"threshold", required_argument, NULL, CMP_THRESHOLD},
	    {"alpha", required_argument, NULL, CMP_ALPHA},
	    {"stack-threshold", required_argument, NULL, CMP_STACK_T},
	    {"code-threshold", required_argument, NULL, CMP_CODE_T},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct cli_args a;
	const char *val;
	size_t n = 0;
	int c;

	cli_args_start(&a, "compare", argc, argv, "h", longopts);
	while ((c = cli_args_next(&a, &val, err)) != CLI_ARG_END) {
		char *end;
		switch (c) {
		case 'h':
			return 1;
		case CMP_UTEST:
			o->utest_always = true;
			break;
		case CMP_ALLOW_FW:
			o->allow_other_firmware = true;
			break;
		case CMP_ALLOW_BOARD:
			o->allow_other_board = true;
			break;
		case CMP_THRESHOLD:
			if (compare_parse_threshold(val, &o->threshold, err) < 0)
				return -(int)err->kind;
			break;
		case CMP_STACK_T:
		case CMP_CODE_T:
			if (compare_parse_threshold(
			        val, &mo->threshold[c == CMP_STACK_T ? CMP_MEASURE_STACK : CMP_MEASURE_CODE], err) < 0)
				return -(int)err->kind;
			break;
		case CMP_ALPHA:
			o->alpha = strtod(val, &end);
			if (end == val || *end || !(o->alpha > 0 && o->alpha < 1))
				return bench_fail(err, BENCH_E_USAGE, "--alpha '%s': expected a number between 0 and 1",
				                  val);
			break;
		case CLI_ARG_POSITIONAL:
			if (n == 2)
				return bench_fail(err, BENCH_E_USAGE,
				                  "more than two reports: bench compare BASE.json NEW.json");
			paths[n++] = val;
			break;
		default:
			return c; /* a negated bench_err: an unknown option, a missing value */
		}
	}
	if (n != 2)
		return bench_fail(err, BENCH_E_USAGE, "need two reports: bench compare BASE.json NEW.json");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL};
	struct bench_report base, cur;
	struct compare_opts o;
	struct compare_result res = {0};
	struct compare_measure_opts mo;
	struct compare_measure_result mres = {0};
	struct bench_error err;
	int rc;

	bench_error_clear(&err);
	compare_opts_init(&o);
	compare_measure_opts_init(&mo);
	rc = parse(argc, argv, paths, &o, &mo, &err);
	if (rc == 1) {
		compare_usage(stdout);
		return 0;
	}
	results_init(&base);
	results_init(&cur);
	if (rc == 0)
		rc = json_read_file(paths[0], &base, &err);
	if (rc == 0)
		rc = json_read_file(paths[1], &cur, &err);
	if (rc == 0)
		rc = compare_check(&base, paths[0], &cur, paths[1], &o, &err);
	if (rc == 0)
		rc = compare_reports(&base, &cur, &o, &res, &err);
	if (rc == 0)
		rc = compare_measures(&base, &cur, &mo, &mres, &err);
	if (rc == 0)
		rc = compare_print(stdout, &res, &o, &err);
	if (rc == 0 && compare_measures_print(stdout, &mres, &mo) < 0)
		rc = bench_fail(&err, BENCH_E_IO, "writing the comparison to stdout failed");
	if (rc == 0 && compare_print_profiles(stdout, &base, &cur, &res)) /* per-function deltas (docs/profile.md) */
		rc = bench_fail(&err, BENCH_E_IO, "writing the profile comparison to stdout failed");
	if (rc == 0 && fflush(stdout) != 0)
		rc = bench_fail(&err, BENCH_E_IO, "writing the comparison to stdout failed");
	if (rc == 0 && !res.regressions && mres.regressions)
		rc = bench_fail(&err, BENCH_E_REGRESSION, "%zu stack or code size regression%s (see the table)",
		                mres.regressions, mres.regressions == 1 ? "" : "s");
	else if (rc == 0 && res.regressions) {
		size_t missing = 0, unmeasured = 0;
		const struct bench_result *first = NULL;
		char label[600];
		for (size_t i = 0; i < res.n; i++) {
			missing += res.rows[i].verdict == CMP_ONLY_BASE;
			if (res.rows[i].verdict == CMP_UNMEASURED && !unmeasured++)
				first = res.rows[i].cur;
		}
		size_t beyond = res.regressions - missing - unmeasured, used;
		/* Each kind counted apart: a result missing or with nothing that counts is no slowdown
		 * "beyond 1%", but fails the gate all the same (docs/compare.md). */
		rc = bench_fail(&err, BENCH_E_REGRESSION, "%s", "");
		if (beyond)
			(void)snprintf(err.msg, sizeof(err.msg), "%zu regression%s beyond %g%%", beyond,
			               beyond == 1 ? "" : "s", o.threshold * 100.0);
		used = strlen(err.msg);
		if (missing)
			(void)snprintf(err.msg + used, sizeof(err.msg) - used, "%s%zu result%s missing from %s",
			               used ? ", " : "", missing, missing == 1 ? "" : "s", paths[1]);
		used = strlen(err.msg);
		if (first) { /* and when NEW has nothing that counts, the reason its report gives */
			results_label(first, label, sizeof(label));
			(void)snprintf(err.msg + used, sizeof(err.msg) - used,
			               "%s%zu result%s with no sample that counts in %s (%.100s: %.200s)",
			               used ? ", " : "", unmeasured, unmeasured == 1 ? "" : "s", paths[1], label,
			               first->error[0] ? first->error : "no sample measured");
		}
		used = strlen(err.msg);
		if (mres.regressions)
			(void)snprintf(err.msg + used, sizeof(err.msg) - used, ", %zu stack or code size regression%s",
			               mres.regressions, mres.regressions == 1 ? "" : "s");
	}
	compare_free(&res);
	compare_measures_free(&mres);
	results_free(&base);
	results_free(&cur);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	return 0;
}
