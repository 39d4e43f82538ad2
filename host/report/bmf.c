/* Bencher Metric Format reporter (https://bencher.dev/docs/reference/bencher-metric-format):
 * {"<benchmark>": {"<measure>": {"value", "lower_value", "upper_value"}}}. Each result is a
 * benchmark named like every other format names it ("fut[input=7]"); its measures are "cycles"
 * (a custom measure Bencher creates on first upload) and, when the core clock is known, Bencher's
 * built-in "latency" in nanoseconds. value is the mean, the bounds are min and max. */
#include "report/cjson_out.h"
#include "report/measures_fmt.h"
#include "report/reporter.h"

#include <string.h>

static int add_measure(cJSON *bench, const char *measure, double value, double lo, double hi)
{
	cJSON *m = cJSON_AddObjectToObject(bench, measure);
	if (!m || cjson_out_num(m, "value", value) || cjson_out_num(m, "lower_value", lo) ||
	    cjson_out_num(m, "upper_value", hi))
		return -1;
	return 0;
}

static int bmf_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	cJSON *root = cJSON_CreateObject();
	char label[600];

	for (size_t i = 0; root && i < rep->n_results; i++) {
		const struct bench_result *res = &rep->results[i];
		const struct bench_stats *s = &res->stats;
		cJSON *bench;

		results_label(res, label, sizeof(label));
		bench = cJSON_AddObjectToObject(root, label);
		/* No sample counts: BMF has no "not measured", so the measure's value is null and an "error"
		 * says why; Bencher refuses the upload instead of charting nothing as a pass (issue 26). */
		if (bench && !s->n) {
			cJSON *m = cJSON_AddObjectToObject(bench, res->unit);
			if (m && cJSON_AddNullToObject(m, "value") && cJSON_AddStringToObject(m, "error", res->error))
				continue;
		}
		if (!bench || !s->n || add_measure(bench, res->unit, s->mean, s->min, s->max) ||
		    /* only cycles become time: an instruction count (--icount) is no duration */
		    (rep->context.core_clock_hz && !strcmp(res->unit, "cycles") &&
		     add_measure(bench, "latency", results_cycles_to_ns(rep, s->mean),
		                 results_cycles_to_ns(rep, s->min), results_cycles_to_ns(rep, s->max))) ||
		    measures_bmf(bench, res)) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	return cjson_out_write(out, root, "BMF", err);
}

static int bmf_result(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                      const struct bench_result *res, struct bench_error *err)
{
	return 0;
}

static int bmf_end(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	return 0;
}

const struct reporter_ops bmf_reporter = {
    .name = "bmf",
    .help = "Bencher Metric Format (bencher run --adapter json)",
    .extension = "json",
    .begin = bmf_begin,
    .result = bmf_result,
    .end = bmf_end,
};
