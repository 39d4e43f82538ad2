/* Writing a cJSON tree to a reporter's FILE *: shared by the BMF and github-action-benchmark
 * reporters, which build their whole document in begin() because both are one JSON value. */
#ifndef HOST_REPORT_CJSON_OUT_H
#define HOST_REPORT_CJSON_OUT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "base/error.h"

/* Prints ROOT (formatted, its strings made valid UTF-8) and a newline to OUT, then deletes ROOT (also when ROOT is
 * NULL: the out-of-memory case of whoever built it). WHAT names the format in messages. */
int cjson_out_write(FILE *out, cJSON *root, const char *what, struct bench_error *err);
/* Replaces every byte of ROOT's strings and keys that is not well-formed UTF-8 by U+FFFD, so the
 * document is valid JSON (RFC 8259 section 8.1: UTF-8) whatever bytes a firmware path or marker
 * name held; cJSON prints them as they are. -1 when out of memory. */
int cjson_out_utf8(cJSON *root);
/* cJSON_AddNumberToObject that reports failure as -1 instead of NULL. */
int cjson_out_num(cJSON *obj, const char *key, double v);

#endif /* HOST_REPORT_CJSON_OUT_H */
