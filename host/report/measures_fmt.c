/* Stack and code size in CSV, BMF and github-action-benchmark (report/measures_fmt.h). A stack
 * figure is the most a sample used (max over samples); a possible overflow is never a figure. */
#include "report/measures_fmt.h"

#include <inttypes.h>

#include "base/str.h"
#include "report/cjson_out.h"

bool measures_any_stack(const struct bench_report *rep)
{
	for (size_t i = 0; i < rep->n_results; i++)
		if (rep->results[i].stack.n)
			return true;
	return false;
}

bool measures_any_code(const struct bench_report *rep)
{
	for (size_t i = 0; i < rep->n_results; i++)
		if (rep->results[i].code.method[0])
			return true;
	return false;
}

int measures_csv_header(FILE *out, const struct bench_report *rep)
{
	if (!measures_any_stack(rep) && !measures_any_code(rep))
		return 0;
	return fputs(",stack_min,stack_max,stack_overflows,code_bytes", out) == EOF ? -1 : 0;
}

int measures_csv_row(FILE *out, const struct bench_report *rep, const struct bench_result *res)
{
	const struct bench_stack *s = &res->stack;
	int bad = 0;

	if (!measures_any_stack(rep) && !measures_any_code(rep))
		return 0;
	if (s->n_depths)
		bad |= fprintf(out, ",%" PRIu32 ",%" PRIu32, s->min, s->max) < 0;
	else
		bad |= fputs(",,", out) == EOF;
	bad |= (s->n ? fprintf(out, ",%zu", s->n_overflow) : fprintf(out, ",")) < 0;
	bad |= (res->code.method[0] ? fprintf(out, ",%" PRIu64, res->code.bytes) : fprintf(out, ",")) < 0;
	return bad ? -1 : 0;
}

int measures_bmf(cJSON *bench, const struct bench_result *res)
{
	const struct bench_stack *s = &res->stack;

	if (s->n) {
		cJSON *m = cJSON_AddObjectToObject(bench, "stack-bytes");
		if (!m)
			return -1;
		/* Only overflows: no depth to chart, and Bencher must refuse it rather than chart 0. */
		if (!s->n_depths)
			return cJSON_AddNullToObject(m, "value") &&
			               cJSON_AddStringToObject(
			                   m, "error", "every sample reached the stack limit: possible overflow")
			           ? 0
			           : -1;
		if (cjson_out_num(m, "value", s->max) || cjson_out_num(m, "lower_value", s->min) ||
		    cjson_out_num(m, "upper_value", s->max))
			return -1;
	}
	if (res->code.method[0]) {
		cJSON *m = cJSON_AddObjectToObject(bench, "code-bytes");
		if (!m || cjson_out_num(m, "value", (double)res->code.bytes))
			return -1;
	}
	return 0;
}

static int entry(cJSON *root, const char *name, double value, const char *extra)
{
	cJSON *e = cJSON_CreateObject();

	if (!e || !cJSON_AddItemToArray(root, e))
		return -1;
	return cJSON_AddStringToObject(e, "name", name) && cJSON_AddStringToObject(e, "unit", "bytes") &&
	               !cjson_out_num(e, "value", value) && cJSON_AddStringToObject(e, "range", "") &&
	               cJSON_AddStringToObject(e, "extra", extra)
	           ? 0
	           : -1;
}

int measures_github(cJSON *root, const struct bench_report *rep, const struct bench_result *res)
{
	const struct bench_stack *s = &res->stack;
	char label[600], name[700], extra[800];

	results_label(res, label, sizeof(label));
	if (s->n_depths) {
		str_fmt_cut(name, sizeof(name), "%s [stack]", label);
		str_fmt_cut(extra, sizeof(extra), "max of %zu samples, min %" PRIu32 ", %s%s", s->n_depths, s->min,
		            rep->context.stack_method, s->n_exception ? ", exception frames included" : "");
		if (entry(root, name, s->max, extra))
			return -1;
	}
	if (res->code.method[0]) {
		str_fmt_cut(name, sizeof(name), "%s [code]", label);
		str_fmt_cut(extra, sizeof(extra), "%zu functions, %s", res->code.n_functions, res->code.method);
		if (entry(root, name, (double)res->code.bytes, extra))
			return -1;
	}
	return 0;
}
