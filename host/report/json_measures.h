/* The JSON report's measures besides cycles (issue 24): a result's `stack` and the context's
 * `stack` (docs/report-schema.md), written by json.c and read back by json_read.c, here so that
 * each measure is one place. */
#ifndef HOST_REPORT_JSON_MEASURES_H
#define HOST_REPORT_JSON_MEASURES_H

#include <cjson/cJSON.h>

#include "base/error.h"
#include "results/results.h"

/* Adds `stack` to a result object O when RES has stack figures; false when out of memory. */
bool json_measures_result(cJSON *o, const struct bench_result *res);
/* Adds the context's `stack` object when a method is set; false when out of memory. */
bool json_measures_context(cJSON *o, const struct bench_context *c);
/* Reads a result's `stack` (absent: none) into RES; BENCH_E_REPORT naming WHAT and IDX when it is
 * malformed. Needs RES's samples read first (one figure per sample). */
int json_measures_read_result(const cJSON *jr, const char *what, size_t idx, struct bench_result *res,
                              struct bench_error *err);
/* Reads the context's `stack` (absent: none). */
int json_measures_read_context(const cJSON *ctx, const char *what, struct bench_context *c, struct bench_error *err);

#endif /* HOST_REPORT_JSON_MEASURES_H */
