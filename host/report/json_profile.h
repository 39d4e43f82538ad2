/* The JSON report's exact profiles (bench run --profile on the virtual board, docs/profile.md,
 * docs/report-schema.md `profile`), as json.c writes them. */
#ifndef HOST_REPORT_JSON_PROFILE_H
#define HOST_REPORT_JSON_PROFILE_H

#include <cjson/cJSON.h>

#include "base/error.h"
#include "results/results.h"

/* One exact profile as a JSON object; NULL when out of memory. */
cJSON *json_profile_exact(const struct bench_profile *p);

#endif /* HOST_REPORT_JSON_PROFILE_H */
