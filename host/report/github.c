/* github-action-benchmark reporter, tool `customSmallerIsBetter`
 * (benchmark-action/github-action-benchmark README, "Examples": custom benchmarks): a JSON array
 * of {"name", "unit", "value", "range", "extra"}; range and extra are free text shown in the
 * chart's tooltip. value is the mean, range the sample standard deviation. */
#include "base/str.h"
#include "report/cjson_out.h"
#include "report/measures_fmt.h"
#include "report/reporter.h"

static int add_entry(cJSON *root, const struct bench_report *rep, const struct bench_result *res)
{
	const struct bench_stats *s = &res->stats;
	cJSON *e = cJSON_CreateObject();
	char label[600], text[1400];

	if (!e || !cJSON_AddItemToArray(root, e))
		return -1;
	results_label(res, label, sizeof(label));
	if (!cJSON_AddStringToObject(e, "name", label) || !cJSON_AddStringToObject(e, "unit", res->unit))
		return -1;
	/* No sample counts: the entry stays, its value null and the reason in the tooltip, so the chart
	 * shows a gap with the error rather than losing the benchmark (issue 26). */
	if (!s->n) {
		str_fmt_cut(text, sizeof(text), "error: %s\nfirmware=%s board=%s", res->error,
		            results_basename(rep->context.firmware), rep->context.board);
		return cJSON_AddNullToObject(e, "value") && cJSON_AddStringToObject(e, "range", "") &&
		               cJSON_AddStringToObject(e, "extra", text)
		           ? 0
		           : -1;
	}
	if (cjson_out_num(e, "value", s->mean))
		return -1;
	str_fmt_cut(text, sizeof(text), "± %.3f", s->stddev);
	if (!cJSON_AddStringToObject(e, "range", text))
		return -1;
	str_fmt_cut(text, sizeof(text), "n=%zu min=%.0f max=%.0f median=%.3f\nfirmware=%s board=%s%s", s->n, s->min,
	            s->max, s->median, results_basename(rep->context.firmware), rep->context.board,
	            rep->context.cycles_modelled ? " (cycles modelled)" : "");
	return cJSON_AddStringToObject(e, "extra", text) ? 0 : -1;
}

static int github_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                        struct bench_error *err)
{
	cJSON *root = cJSON_CreateArray();

	for (size_t i = 0; root && i < rep->n_results; i++) {
		if (add_entry(root, rep, &rep->results[i]) < 0 || measures_github(root, rep, &rep->results[i]) < 0) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	return cjson_out_write(out, root, "github-action-benchmark", err);
}

static int github_result(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                         const struct bench_result *res, struct bench_error *err)
{
	return 0;
}

static int github_end(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                      struct bench_error *err)
{
	return 0;
}

const struct reporter_ops github_reporter = {
    .name = "github",
    .help = "github-action-benchmark, tool: customSmallerIsBetter",
    .extension = "json",
    .begin = github_begin,
    .result = github_result,
    .end = github_end,
};
