/* The HTML page of `bench report`; see html.h. Like svg.c it checks the stream once through
 * ferror() at the end (C11 7.21.10.3: the error indicator is sticky). */
#include "report/html.h"

#include <inttypes.h>

#include "base/str.h"
#include "report/markup.h"
#include "report/reporter.h"
#include "report/svg.h"

static void cell(FILE *out, const char *tag, const char *s)
{
	fprintf(out, "<%s>", tag);
	markup_xml_puts(out, s);
	fprintf(out, "</%s>", tag);
}

static void context_rows(FILE *out, const struct bench_report *const *reps, size_t n)
{
	static const char *const names[] = {"firmware", "firmware SHA-256", "board",  "probe",      "backend",
	                                    "server",   "counter",          "cycles", "core clock", "overhead (cycles)",
	                                    "date",     "tool version",     "status"};
	char v[1200];

	for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
		fputs("<tr>", out);
		cell(out, "th", names[f]);
		for (size_t r = 0; r < n; r++) {
			const struct bench_context *c = &reps[r]->context;
			switch (f) {
			case 0:
				str_fmt_cut(v, sizeof(v), "%s", c->firmware);
				break;
			case 1:
				str_fmt_cut(v, sizeof(v), "%s", c->firmware_sha256);
				break;
			case 2:
				str_fmt_cut(v, sizeof(v), "%s", c->board);
				break;
			case 3:
				str_fmt_cut(v, sizeof(v), "%s", c->probe);
				break;
			case 4:
				str_fmt_cut(v, sizeof(v), "%s", c->backend);
				break;
			case 5:
				str_fmt_cut(v, sizeof(v), "%s", c->server_version);
				break;
			case 6:
				str_fmt_cut(v, sizeof(v), "%s", c->counter);
				break;
			case 7:
				str_fmt_cut(v, sizeof(v), "%s",
				            c->cycles_modelled ? "modelled (virtual board)" : "measured");
				break;
			case 8:
				str_fmt_cut(v, sizeof(v), "%" PRIu64 " Hz", c->core_clock_hz);
				break;
			case 9:
				str_fmt_cut(v, sizeof(v), "%" PRId64, c->overhead_cycles);
				break;
			case 10:
				str_fmt_cut(v, sizeof(v), "%s", c->date);
				break;
			case 11:
				str_fmt_cut(v, sizeof(v), "%s", c->tool_version);
				break;
			default:
				if (snprintf(v, sizeof(v), "%s%s%s", results_status_name(reps[r]->status),
				             reps[r]->error[0] ? ": " : "", reps[r]->error) < 0)
					v[0] = '\0';
				break;
			}
			cell(out, "td", v);
		}
		fputs("</tr>\n", out);
	}
}

static void result_rows(FILE *out, const struct bench_report *const *reps, size_t n)
{
	char label[600], v[64];

	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < reps[r]->n_results; i++) {
			const struct bench_result *res = &reps[r]->results[i];
			const struct bench_stats *s = &res->stats;
			fputs("<tr>", out);
			if (n > 1)
				cell(out, "td", results_basename(reps[r]->context.firmware));
			results_label(res, label, sizeof(label));
			cell(out, "td", label);
			str_fmt_cut(v, sizeof(v), "%zu", s->n);
			cell(out, "td", v);
			str_fmt_cut(v, sizeof(v), "%.0f", s->min);
			cell(out, "td", s->n ? v : "");
			str_fmt_cut(v, sizeof(v), "%.0f", s->max);
			cell(out, "td", s->n ? v : "");
			str_fmt_cut(v, sizeof(v), "%.2f", s->median);
			cell(out, "td", s->n ? v : "");
			str_fmt_cut(v, sizeof(v), "%.2f", s->stddev);
			cell(out, "td", s->n ? v : "");
			cell(out, "td", res->unit);
			cell(out, "td", res->error);
			fputs("</tr>\n", out);
		}
}

int html_write(FILE *out, const struct bench_report *const *reps, size_t n, struct bench_error *err)
{
	int rc;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>bench report: ", out);
	for (size_t r = 0; r < n; r++) {
		fputs(r ? ", " : "", out);
		markup_xml_puts(out, results_basename(reps[r]->context.firmware));
	}
	fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:24px;color:#222}\n"
	      "table{border-collapse:collapse;margin:8px 0 24px}\n"
	      "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px;overflow-wrap:anywhere}\n"
	      "th{background:#f3f3f3}\n.note{color:#666;font-size:13px}\n</style>\n</head>\n<body>\n<h1>bench "
	      "report</h1>\n",
	      out);
	for (size_t r = 0; r < n; r++)
		if (reps[r]->context.cycles_modelled) {
			fputs("<p class=\"note\">Cycles from the virtual board are modelled (Cortex-M4 TRM timings), "
			      "not measured on silicon.</p>\n",
			      out);
			break;
		}
	if (svg_plot_points(reps, n)) {
		fputs("<h2>Cycles versus input</h2>\n", out);
		rc = svg_plot(out, reps, n, err);
	} else {
		fputs("<h2>Cycles per result</h2>\n", out);
		rc = svg_result_bars(out, reps, n, err);
	}
	if (rc < 0)
		return rc;
	for (size_t r = 0; r < n; r++) {
		if (!reps[r]->n_regions)
			continue;
		fputs("<h2>Regions: ", out);
		markup_xml_puts(out, results_basename(reps[r]->context.firmware));
		fputs("</h2>\n", out);
		rc = svg_region_bars(out, reps[r], err);
		if (rc < 0)
			return rc;
	}
	fputs("<h2>Results</h2>\n<table>\n<tr>", out);
	if (n > 1)
		cell(out, "th", "firmware");
	fputs("<th>result</th><th>n</th><th>min</th><th>max</th><th>median</th><th>stddev</th><th>unit</th>"
	      "<th>error</th></tr>\n",
	      out);
	result_rows(out, reps, n);
	fputs("</table>\n<h2>Context</h2>\n<table>\n", out);
	context_rows(out, reps, n);
	fputs("</table>\n</body>\n</html>\n", out);
	if (ferror(out))
		return bench_fail(err, BENCH_E_IO, "writing the HTML page failed");
	return 0;
}

/* `bench report --html FILE` and `--format html`: one page of every report in the context (several
 * share the plot), else of the report being emitted. */
static int html_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                      struct bench_error *err)
{
	if (ctx->n_reports)
		return html_write(out, ctx->reports, ctx->n_reports, err);
	return html_write(out, &rep, 1, err);
}

const struct reporter_ops html_reporter = {
    .name = "html",
    .extension = "html",
    .help = "one self-contained page: cycles-versus-input plot, region bars, results, context",
    .begin = html_begin,
};
