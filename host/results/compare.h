/* `bench compare`: the change per result and input between two reports, and whether it is a
 * regression beyond a threshold. Cycles are exact, so their medians are compared directly; noisy
 * figures (any other unit, or --utest) also need a two-sided Mann-Whitney U test below alpha,
 * as Google Benchmark's tools/gbench/report.py does for timings. */
#ifndef HOST_RESULTS_COMPARE_H
#define HOST_RESULTS_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

enum compare_verdict {
	CMP_SAME,       /* within the threshold (or not significant) */
	CMP_IMPROVED,   /* fewer cycles beyond the threshold */
	CMP_REGRESSED,  /* more cycles beyond the threshold (and significant when tested) */
	CMP_UNMEASURED, /* NEW has the result but no sample that counts (BASE either way): a regression */
	CMP_ONLY_BASE,  /* gone in NEW: counted as a regression */
	CMP_ONLY_NEW,   /* new in NEW */
};

struct compare_opts {
	double threshold;          /* relative, 0.01 for 1% */
	double alpha;              /* significance for the U test (default 0.05) */
	bool utest_always;         /* --utest: test cycles too (silicon with caches or wait states) */
	bool allow_other_firmware; /* --allow-different-firmware */
	bool allow_other_board;    /* --allow-different-board */
};

struct compare_row {
	const struct bench_result *base, *cur; /* either may be NULL */
	double base_median, cur_median;
	double change;  /* cur - base */
	double ratio;   /* change / base; 0 when base is 0 */
	bool tested;    /* the U test ran */
	double p_value; /* when tested */
	enum compare_verdict verdict;
};

struct compare_result {
	struct compare_row *rows;
	size_t n;
	size_t regressions; /* CMP_REGRESSED + CMP_UNMEASURED + CMP_ONLY_BASE */
};

void compare_opts_init(struct compare_opts *o);
/* "1%", "0.5%" or a fraction "0.01". BENCH_E_USAGE when malformed or negative. */
int compare_parse_threshold(const char *s, double *out, struct bench_error *err);
/* Refuses pairs that cannot be compared: another schema version, a report whose status is not ok,
 * another board unless allowed, another firmware (the same SHA-256 is the same firmware; else by
 * file name, since build paths differ between CI jobs) unless allowed. NAMES are for messages. */
int compare_check(const struct bench_report *base, const char *base_name, const struct bench_report *cur,
                  const char *cur_name, const struct compare_opts *o, struct bench_error *err);
/* Pairs results by name and args (BASE's order, then those only in NEW) and judges each. */
int compare_reports(const struct bench_report *base, const struct bench_report *cur, const struct compare_opts *o,
                    struct compare_result *out, struct bench_error *err);
void compare_free(struct compare_result *r);
/* The aligned table and a one-line summary. */
int compare_print(FILE *out, const struct compare_result *r, const struct compare_opts *o, struct bench_error *err);
/* Two-sided p-value of the Mann-Whitney U test of A against B: exact when one sample has at most 8
 * values (the other at most 64) and there are no ties, else the normal approximation with tie and continuity
 * corrections (the choices of scipy.stats.mannwhitneyu's method="auto", which report.py calls). 1.0 when either sample
 * is empty. */
double compare_mann_whitney_p(const int64_t *a, size_t na, const int64_t *b, size_t nb);
const char *compare_verdict_name(enum compare_verdict v);

#endif /* HOST_RESULTS_COMPARE_H */
