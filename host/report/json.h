/* The JSON report (docs/report-schema.md, schema version 1) as a cJSON tree, for the json
 * reporter and for callers that merge reports (a farm). */
#ifndef HOST_REPORT_JSON_H
#define HOST_REPORT_JSON_H

#include <cjson/cJSON.h>

#include "results/results.h"

/* The whole report; NULL when out of memory. The caller cJSON_Delete()s it. */
cJSON *json_report_build(const struct bench_report *rep);

#endif /* HOST_REPORT_JSON_H */
