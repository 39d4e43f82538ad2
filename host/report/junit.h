/* JUnit XML reporter and the cycle limits it checks (`--max-cycles NAME=N`): a result whose
 * largest sample is above its limit is a failed test case, so CI systems that read JUnit (GitLab,
 * Jenkins, GitHub test reporters) show the regression by name. */
#ifndef HOST_REPORT_JUNIT_H
#define HOST_REPORT_JUNIT_H

#include <stdbool.h>

#include "report/reporter.h"

#define JUNIT_MAX_LIMITS 32

/* What a limit bounds: the largest counted sample's cycles (--max-cycles), or the most stack a
 * sample used (--max-stack NAME=BYTES, bench run --stack; a possible overflow is no figure). */
enum junit_measure { JUNIT_CYCLES = 0, JUNIT_STACK, JUNIT_MEASURES };

struct junit_limit {
	char name[BENCH_NAME_MAX]; /* a result (marker pair) name; applies to every input */
	int64_t max_cycles;        /* the limit, in the measure's unit */
	enum junit_measure measure;
};

struct junit_limits {
	struct junit_limit items[JUNIT_MAX_LIMITS];
	size_t n;
};

/* Parses one `NAME=N` argument into L (a later NAME replaces an earlier one). BENCH_E_USAGE on
 * a malformed argument. */
int junit_limit_parse(struct junit_limits *l, const char *arg, struct bench_error *err);
/* The same for MEASURE's flag (--max-stack for JUNIT_STACK). */
int junit_limit_parse_measure(struct junit_limits *l, const char *arg, enum junit_measure measure,
                              struct bench_error *err);
/* "--max-cycles", "--max-stack". */
const char *junit_measure_flag(enum junit_measure m);
/* How a result stands against the limits. A limit on a result with no sample that counts (all
 * interrupted, none measured) fails: a gate must not pass on nothing (issue 26). */
enum junit_verdict {
	JUNIT_NO_LIMIT,   /* no limit names the result */
	JUNIT_WITHIN,     /* its largest sample is at or below the limit */
	JUNIT_EXCEEDED,   /* its largest sample is above the limit */
	JUNIT_UNMEASURED, /* a limit names it but it has no sample to check (its error says why) */
};

/* RES against L (NULL: none), the worst of the limits naming it; *LIMIT gets that limit. */
enum junit_verdict junit_limit_check(const struct junit_limits *l, const struct bench_result *res, int64_t *limit);
/* The same, also saying which measure's limit gave the verdict (NULL: not wanted). */
enum junit_verdict junit_limit_check_measure(const struct junit_limits *l, const struct bench_result *res,
                                             int64_t *limit, enum junit_measure *measure);
/* True when junit_limit_check is JUNIT_EXCEEDED or JUNIT_UNMEASURED: the test case fails. */
bool junit_limit_exceeded(const struct junit_limits *l, const struct bench_result *res, int64_t *limit);
/* The name of the first limit in L that names no result of REPS, or NULL. */
const char *junit_limit_unmatched(const struct junit_limits *l, const struct bench_report *const *reps, size_t n_reps);
/* How many results of REP fail their limit (above it, or nothing to check). */
size_t junit_limit_failures(const struct junit_limits *l, const struct bench_report *rep);
/* One line on ERR saying how many results of REPS fail their limits, naming the first one without
 * a sample and why; nothing when none fails. Returns how many fail. */
size_t junit_limit_explain(FILE *err, const struct junit_limits *l, const struct bench_report *const *reps,
                           size_t n_reps);

/* The exit code after a run: CODE when it is already a failure; else 2 when a limit of L (NULL:
 * none) names no result; else 1, with one line on stderr, when a result of REP exceeds its limit or
 * has no sample that counts to check against it (unmeasured: its error says why); else 0. A result
 * with no sample that no limit names is the caller's (results_fail_unmeasured, exit 5). The junit
 * reporter reads the same limits from its context (reporter_ctx.limits). */
int junit_limit_exit(const struct junit_limits *l, const struct bench_report *rep, int code);

extern const struct reporter_ops junit_reporter;

#endif /* HOST_REPORT_JUNIT_H */
