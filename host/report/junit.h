/* JUnit XML reporter and the cycle limits it checks (`--max-cycles NAME=N`): a result whose
 * largest sample is above its limit is a failed test case, so CI systems that read JUnit (GitLab,
 * Jenkins, GitHub test reporters) show the regression by name. */
#ifndef HOST_REPORT_JUNIT_H
#define HOST_REPORT_JUNIT_H

#include <stdbool.h>

#include "report/reporter.h"

#define JUNIT_MAX_LIMITS 32

struct junit_limit {
	char name[BENCH_NAME_MAX]; /* a result (marker pair) name; applies to every input */
	int64_t max_cycles;
};

struct junit_limits {
	struct junit_limit items[JUNIT_MAX_LIMITS];
	size_t n;
};

/* Parses one `NAME=N` argument into L (a later NAME replaces an earlier one). BENCH_E_USAGE on
 * a malformed argument. */
int junit_limit_parse(struct junit_limits *l, const char *arg, struct bench_error *err);
/* True when RES has a limit in L and its largest sample is above it; *LIMIT gets the limit. */
bool junit_limit_exceeded(const struct junit_limits *l, const struct bench_result *res, int64_t *limit);
/* The name of the first limit in L that names no result of REPS, or NULL. */
const char *junit_limit_unmatched(const struct junit_limits *l, const struct bench_report *const *reps, size_t n_reps);
/* How many results of REP exceed their limit. */
size_t junit_limit_failures(const struct junit_limits *l, const struct bench_report *rep);

/* Takes every `--max-cycles NAME=N` out of ARGV (shifting the rest down, updating *ARGC) into L,
 * for commands whose own parser does not know the flag (`bench run`). BENCH_E_USAGE when one is
 * malformed or lacks its value. */
int junit_limits_take(int *argc, char **argv, struct junit_limits *l, struct bench_error *err);
/* The exit code after a run: CODE when it is already a failure; else 1, with one line on stderr,
 * when a result of REP exceeds a limit of L (NULL: none); else 0. The junit reporter reads the same
 * limits from its context (reporter_ctx.limits). */
int junit_limit_exit(const struct junit_limits *l, const struct bench_report *rep, int code);

extern const struct reporter_ops junit_reporter;

#endif /* HOST_REPORT_JUNIT_H */
