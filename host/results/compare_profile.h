/* Profiles side by side (bench compare on two reports with profiles, and one report's inputs of one
 * pair, docs/profile.md): per function the cycles in A and in B and the difference, the functions
 * with the largest change first. Exact profiles also give the difference per ledger reason; an
 * exact profile summed over several stretches counts per stretch (its sums / stretches). */
#ifndef HOST_RESULTS_COMPARE_PROFILE_H
#define HOST_RESULTS_COMPARE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

#define PROFILE_DIFF_REASONS 32

struct profile_delta {
	char name[BENCH_NAME_MAX];
	double a, b;           /* exclusive cycles; 0 where the function is absent */
	double a_incl, b_incl; /* inclusive (exact profiles; else the exclusive) */
	bool in_a, in_b;
	double by_reason[PROFILE_DIFF_REASONS]; /* B - A per reason (both exact, same reasons) */
};

struct profile_diff {
	const struct bench_profile *a, *b;
	struct profile_delta *rows; /* largest |b - a| first, then by name */
	size_t n;
	bool reasons; /* by_reason holds figures */
};

/* The functions of a and b paired by name. -1 when out of memory. */
int profile_diff(const struct bench_profile *a, const struct bench_profile *b, struct profile_diff *out);
void profile_diff_free(struct profile_diff *d);
/* The exact profile of `name` with exactly these args in rep, or the profile of that pair when it
 * is sampled (one per pair); NULL when none. */
const struct bench_profile *profile_find(const struct bench_report *rep, const char *name, const struct bench_arg *args,
                                         size_t n_args);
/* A table of d: function, A, B, B - A, and for exact profiles the reasons that changed most. Rows
 * with no change are left out; `title` heads it. -1 on a failed write. */
int profile_diff_print(FILE *out, const struct profile_diff *d, const char *title, size_t top);

/* bench compare: for every pair of results (base, cur) of r with a profile in both reports, the
 * profile diff (NEW against BASE). Nothing when neither report has profiles. -1 on a failed write
 * or out of memory. */
struct compare_result;
int compare_print_profiles(FILE *out, const struct bench_report *base, const struct bench_report *cur,
                           const struct compare_result *r);

#endif /* HOST_RESULTS_COMPARE_PROFILE_H */
