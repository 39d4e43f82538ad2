/* Reporters: one file per output format behind this interface (after Google Benchmark's
 * BenchmarkReporter, whose reporters hold their options). A reporter writes to an injected FILE *
 * and reads its options from the context the command hands it, never from a global; the caller
 * writes report files atomically (report_write_atomic: temp file + rename), so a reader never
 * sees half a file. */
#ifndef HOST_REPORT_REPORTER_H
#define HOST_REPORT_REPORTER_H

#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

struct junit_limits; /* report/junit.h */

/* The options of one report_emit(), filled by the command from its flags; a reporter reads the
 * fields it knows. A zeroed context (or NULL to report_emit) means "no options". */
struct reporter_ctx {
	/* --max-cycles NAME=N: junit marks a result above its limit as a failed test case. NULL: none. */
	const struct junit_limits *limits;
	/* The figures (html, svg) draw all of these in one plot (`bench report A.json B.json`);
	 * n_reports 0: the report being emitted alone. */
	const struct bench_report *const *reports;
	size_t n_reports;
	/* The JSON file each of reports came from (bench report's arguments), so figures can tell two
	 * reports of one firmware name apart; NULL: unknown. */
	const char *const *report_files;
};

struct reporter_ops {
	const char *name;      /* the --format name: "console", "json", ... */
	const char *extension; /* default file extension */
	const char *help;      /* one line for `--help` and docs/reports.md's table */
	/* Each may be NULL (nothing to do at that step). */
	int (*begin)(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
	             struct bench_error *err);
	int (*result)(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
	              const struct bench_result *res, struct bench_error *err);
	int (*end)(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err);
};

/* The table of every reporter (report/registry.c), in the order help texts list them; NULL-terminated. */
extern const struct reporter_ops *const reporter_table[];
const struct reporter_ops *reporter_find(const char *name);
/* "console, json, ... or svg" from reporter_table, for help texts and error messages; truncated to LEN. */
const char *reporter_names(char *buf, size_t len);
/* The line every "unknown format" error ends with: BENCH_E_USAGE, "unknown OPTION 'NAME': use ...". */
int reporter_unknown(const char *option, const char *name, struct bench_error *err);

/* begin, result for each result, end, with the options in CTX (NULL: none). */
int report_emit(const struct reporter_ops *ops, const struct reporter_ctx *ctx, FILE *out,
                const struct bench_report *rep, struct bench_error *err);
/* Emits into PATH.tmp.XXXXXX in the same directory, fsyncs, renames over PATH. "-" is stdout. */
int report_write_atomic(const struct reporter_ops *ops, const struct reporter_ctx *ctx, const char *path,
                        const struct bench_report *rep, struct bench_error *err);

#endif /* HOST_REPORT_REPORTER_H */
