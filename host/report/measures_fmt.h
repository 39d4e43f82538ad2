/* Stack depth and code size (issue 24) in the formats besides JSON and the console: CSV columns,
 * Bencher measures `stack-bytes` and `code-bytes`, github-action-benchmark entries. Each reporter
 * calls these beside its cycles, so a report without --stack or --code-size looks as before. */
#ifndef HOST_REPORT_MEASURES_FMT_H
#define HOST_REPORT_MEASURES_FMT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

/* Whether any result has stack figures / a code size. */
bool measures_any_stack(const struct bench_report *rep);
bool measures_any_code(const struct bench_report *rep);
/* CSV: ",stack_min,stack_max,stack_overflows,code_bytes" after the header's columns, when the report
 * has either measure; the row's values (empty where not measured). <0 on a write error. */
int measures_csv_header(FILE *out, const struct bench_report *rep);
int measures_csv_row(FILE *out, const struct bench_report *rep, const struct bench_result *res);
/* BMF: "stack-bytes" {value: max, lower_value: min, upper_value: max} and "code-bytes" {value} into
 * BENCH. -1 out of memory. */
int measures_bmf(cJSON *bench, const struct bench_result *res);
/* github-action-benchmark: entries "LABEL [stack]" and "LABEL [code]" in unit "bytes". */
int measures_github(cJSON *root, const struct bench_report *rep, const struct bench_result *res);

#endif /* HOST_REPORT_MEASURES_FMT_H */
