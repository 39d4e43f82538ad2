/* `bench compare` on the measures besides cycles (issue 24): a result's most stack (stack.max)
 * and its code bytes, between BASE and NEW. Both are exact byte counts, so a rise above the
 * measure's threshold is a regression without a significance test; the default threshold is 0: a
 * byte more fails the gate. A measure BASE has and NEW lost (a possible overflow, no --stack) is a
 * regression too. */
#ifndef HOST_RESULTS_COMPARE_MEASURES_H
#define HOST_RESULTS_COMPARE_MEASURES_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

enum compare_measure { CMP_MEASURE_STACK, CMP_MEASURE_CODE, CMP_MEASURES };

struct compare_measure_opts {
	double threshold[CMP_MEASURES]; /* relative; --stack-threshold, --code-threshold (default 0) */
};

struct compare_measure_row {
	const struct bench_result *base, *cur;
	enum compare_measure measure;
	bool base_known, cur_known;
	uint64_t base_value, cur_value;
	bool regressed;
};

struct compare_measure_result {
	struct compare_measure_row *rows;
	size_t n, regressions;
};

void compare_measure_opts_init(struct compare_measure_opts *o);
/* Every result in both reports with the measure in BASE: one row per measure. */
int compare_measures(const struct bench_report *base, const struct bench_report *cur,
                     const struct compare_measure_opts *o, struct compare_measure_result *out, struct bench_error *err);
/* The table below compare_print's (nothing when no row). <0 on a write error. */
int compare_measures_print(FILE *out, const struct compare_measure_result *r, const struct compare_measure_opts *o);
void compare_measures_free(struct compare_measure_result *r);
/* "stack", "code". */
const char *compare_measure_name(enum compare_measure m);

#endif /* HOST_RESULTS_COMPARE_MEASURES_H */
