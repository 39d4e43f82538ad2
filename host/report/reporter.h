/* Reporters: one file per output format behind this interface (after Google Benchmark's
 * BenchmarkReporter). A reporter writes to an injected FILE *; the caller writes report files
 * atomically (report_write_atomic: temp file + rename), so a reader never sees half a file. */
#ifndef HOST_REPORT_REPORTER_H
#define HOST_REPORT_REPORTER_H

#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

struct reporter_ops {
	const char *name;      /* "console", "json", "csv", "junit", "bmf", "github" */
	const char *extension; /* default file extension */
	int (*begin)(FILE *out, const struct bench_report *rep, struct bench_error *err);
	int (*result)(FILE *out, const struct bench_report *rep, const struct bench_result *res,
		      struct bench_error *err);
	int (*end)(FILE *out, const struct bench_report *rep, struct bench_error *err);
};

/* The table of every reporter (report/registry.c); NULL-terminated. */
extern const struct reporter_ops *const reporter_table[];
const struct reporter_ops *reporter_find(const char *name);

/* begin, result for each result, end. */
int report_emit(const struct reporter_ops *ops, FILE *out, const struct bench_report *rep, struct bench_error *err);
/* Emits into PATH.tmp.XXXXXX in the same directory, fsyncs, renames over PATH. "-" is stdout. */
int report_write_atomic(const struct reporter_ops *ops, const char *path, const struct bench_report *rep,
			struct bench_error *err);

#endif /* HOST_REPORT_REPORTER_H */
