/* bench compare BASE.json NEW.json [--threshold 1%] [--utest] [--alpha P] [--allow-different-firmware]
 *               [--allow-different-board]
 * Prints the change per result and input as a table. Exit codes (docs/exit-codes.md): 0 no
 * regression beyond the threshold, 1 a regression, 2 bad usage or reports that cannot be compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "results/compare.h"
#include "report/json_read.h"

static void compare_usage(FILE *out)
{
	fputs("usage: bench compare BASE.json NEW.json [--threshold 1%] [--utest] [--alpha 0.05]\n"
	      "                     [--allow-different-firmware] [--allow-different-board]\n"
	      "  --threshold T   a median more than T above BASE is a regression (default 1%)\n"
	      "  --utest         also require a Mann-Whitney U test p < alpha for cycles (silicon noise);\n"
	      "                  figures in other units (times) are always tested\n"
	      "  --alpha P       significance level of the U test (default 0.05)\n"
	      "  --allow-different-firmware  compare reports of differently named firmware\n"
	      "  --allow-different-board     compare reports measured on different boards\n"
	      "a result missing from NEW counts as a regression; a report whose status is not ok is refused\n"
	      "exit: 0 no regression, 1 regression, 2 usage or incomparable reports\n",
	      out);
}

static int parse(int argc, char **argv, const char **paths, struct compare_opts *o, struct bench_error *err)
{
	size_t n = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "--utest")) {
			o->utest_always = true;
		} else if (!strcmp(a, "--allow-different-firmware")) {
			o->allow_other_firmware = true;
		} else if (!strcmp(a, "--allow-different-board")) {
			o->allow_other_board = true;
		} else if (!strcmp(a, "--threshold") || !strcmp(a, "--alpha")) {
			int rc;
			if (i + 1 >= argc)
				return bench_fail(err, BENCH_E_USAGE, "%s needs a value: see `bench compare --help`",
				                  a);
			if (!strcmp(a, "--threshold")) {
				rc = compare_parse_threshold(argv[++i], &o->threshold, err);
				if (rc < 0)
					return rc;
			} else {
				char *end;
				o->alpha = strtod(argv[++i], &end);
				if (*end || !(o->alpha > 0 && o->alpha < 1))
					return bench_fail(err, BENCH_E_USAGE,
					                  "--alpha '%s': expected a number between 0 and 1", argv[i]);
			}
		} else if (a[0] == '-' && a[1]) {
			return bench_fail(err, BENCH_E_USAGE, "unknown option '%s': see `bench compare --help`", a);
		} else if (n < 2) {
			paths[n++] = a;
		} else {
			return bench_fail(err, BENCH_E_USAGE,
			                  "more than two reports: bench compare BASE.json NEW.json");
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
	struct bench_error err;
	int rc;

	bench_error_clear(&err);
	compare_opts_init(&o);
	rc = parse(argc, argv, paths, &o, &err);
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
		rc = compare_print(stdout, &res, &o, &err);
	if (rc == 0 && fflush(stdout) != 0)
		rc = bench_fail(&err, BENCH_E_IO, "writing the comparison to stdout failed");
	if (rc == 0 && res.regressions) {
		size_t missing = 0, unmeasured = 0;
		const struct bench_result *first = NULL;
		char label[600];
		for (size_t i = 0; i < res.n; i++) {
			missing += res.rows[i].verdict == CMP_ONLY_BASE;
			if (res.rows[i].verdict == CMP_UNMEASURED && !unmeasured++)
				first = res.rows[i].cur;
		}
		rc = bench_fail(&err, BENCH_E_REGRESSION, "%zu regression%s beyond %g%%", res.regressions,
		                res.regressions == 1 ? "" : "s", o.threshold * 100.0);
		if (missing) /* say why a gate with no slower result failed */
			(void)snprintf(err.msg + strlen(err.msg), sizeof(err.msg) - strlen(err.msg),
			               " (%zu of them missing from %s)", missing, paths[1]);
		if (first) { /* and when NEW has nothing that counts, the reason its report gives */
			results_label(first, label, sizeof(label));
			(void)snprintf(err.msg + strlen(err.msg), sizeof(err.msg) - strlen(err.msg),
			               " (%zu with no sample in %s; %.100s: %.200s)", unmeasured, paths[1], label,
			               first->error[0] ? first->error : "no sample measured");
		}
	}
	compare_free(&res);
	results_free(&base);
	results_free(&cur);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	return 0;
}
