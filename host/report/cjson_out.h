/* Writing a cJSON tree to a reporter's FILE *: shared by the BMF and github-action-benchmark
 * reporters, which build their whole document in begin() because both are one JSON value. */
#ifndef HOST_REPORT_CJSON_OUT_H
#define HOST_REPORT_CJSON_OUT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "base/error.h"

/* Prints ROOT (formatted) and a newline to OUT, then deletes ROOT (also when ROOT is NULL: the
 * out-of-memory case of whoever built it). WHAT names the format in messages. */
int cjson_out_write(FILE *out, cJSON *root, const char *what, struct bench_error *err);
/* cJSON_AddNumberToObject that reports failure as -1 instead of NULL. */
int cjson_out_num(cJSON *obj, const char *key, double v);

#endif /* HOST_REPORT_CJSON_OUT_H */
