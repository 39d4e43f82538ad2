/* The JSON report's exact profiles (bench run --profile on the virtual board, docs/profile.md,
 * docs/report-schema.md `profile`): written by json.c, read back by json_read.c for bench compare. */
#ifndef HOST_REPORT_JSON_PROFILE_H
#define HOST_REPORT_JSON_PROFILE_H

#include <cjson/cJSON.h>

#include "base/error.h"
#include "results/results.h"

/* One exact profile as a JSON object; NULL when out of memory. */
cJSON *json_profile_exact(const struct bench_profile *p);
/* The report's `profile` entries into rep->profiles, either source, with the fields bench compare
 * sets side by side (name, source, args, stretches, cycles, reasons, the functions) and the
 * instructions and stacks bench report's listing and flame graph show; lines and calls are not
 * read back.
 * An entry of a source this bench does not know
 * is skipped. 0, or a negated BENCH_E_REPORT naming what is wrong (BENCH_E_NOMEM). */
int json_profile_read_all(const cJSON *arr, const char *what, struct bench_report *rep, struct bench_error *err);

#endif /* HOST_REPORT_JSON_PROFILE_H */
