/* Reads a JSON report (docs/report-schema.md) back into struct bench_report, for `bench compare`
 * and `bench report`. Parsing is cJSON's; this file only maps fields and refuses what it cannot
 * trust (another schema_version, missing required fields) with a message naming the file. */
#ifndef HOST_REPORT_JSON_READ_H
#define HOST_REPORT_JSON_READ_H

#include <stddef.h>

#include "base/error.h"
#include "results/results.h"

/* Parses TEXT (LEN bytes, need not be NUL-terminated); WHAT names the source in messages
 * (usually the path). REP must be results_init()ed; on failure it may hold a partial report
 * that results_free() releases. Errors are BENCH_E_REPORT (exit code 2). */
int json_read_text(const char *text, size_t len, const char *what, struct bench_report *rep, struct bench_error *err);

/* Reads the file at PATH ("-" is stdin) and parses it as above. */
int json_read_file(const char *path, struct bench_report *rep, struct bench_error *err);

#endif /* HOST_REPORT_JSON_READ_H */
