/* See cjson_out.h. */
#include "report/cjson_out.h"

#include <stdlib.h>

int cjson_out_write(FILE *out, cJSON *root, const char *what, struct bench_error *err)
{
	char *text;
	int rc = 0;

	if (!root)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory building the %s output", what);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory printing the %s output", what);
	if (fputs(text, out) == EOF || putc('\n', out) == EOF)
		rc = bench_fail(err, BENCH_E_IO, "writing %s output failed", what);
	free(text);
	return rc;
}

int cjson_out_num(cJSON *obj, const char *key, double v)
{
	return cJSON_AddNumberToObject(obj, key, v) ? 0 : -1;
}
