/* See cjson_out.h. */
#include "report/cjson_out.h"

#include <stdlib.h>

#include "report/markup.h"

/* A string of the tree, replaced when it is not UTF-8; flagged const or reference strings are not
 * the tree's to free (bench never builds such, but a repair must not free what it does not own). */
static int repair(char **str, int owned)
{
	char *fixed;

	if (!*str || markup_utf8_valid(*str))
		return 0;
	if (!owned)
		return -1;
	fixed = markup_utf8_repair(*str, cJSON_malloc);
	if (!fixed)
		return -1;
	cJSON_free(*str);
	*str = fixed;
	return 0;
}

int cjson_out_utf8(cJSON *root)
{
	for (cJSON *it = root; it; it = it->next) {
		if (repair(&it->string, !(it->type & cJSON_StringIsConst)) ||
		    (cJSON_IsString(it) && repair(&it->valuestring, !(it->type & cJSON_IsReference))) ||
		    cjson_out_utf8(it->child))
			return -1;
	}
	return 0;
}

int cjson_out_write(FILE *out, cJSON *root, const char *what, struct bench_error *err)
{
	char *text;
	int rc = 0;

	if (!root)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory building the %s output", what);
	if (cjson_out_utf8(root)) {
		cJSON_Delete(root);
		return bench_fail(err, BENCH_E_NOMEM, "out of memory building the %s output", what);
	}
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
