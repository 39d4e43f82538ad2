/* The HTML page of `bench report`; see html.h. Like svg.c it checks the stream once through
 * ferror() at the end (C11 7.21.10.3: the error indicator is sticky). */
#include "report/html.h"

#include <inttypes.h>

#include "base/str.h"
#include "report/html_profile.h"
#include "report/markup.h"
#include "report/reporter.h"
#include "report/svg.h"

static void cell(FILE *out, const char *tag, const char *s)
{
	fprintf(out, "<%s>", tag);
	markup_xml_puts(out, s);
	fprintf(out, "</%s>", tag);
}

static void context_rows(FILE *out, const struct svg_input *in)
{
	const struct bench_report *const *reps = in->reps;
	size_t n = in->n;
	static const char *const names[] = {"firmware", "firmware SHA-256", "board",  "probe",      "backend",
	                                    "server",   "counter",          "cycles", "core clock", "overhead (cycles)",
	                                    "date",     "tool version",     "status"};
	char v[1200];

	/* A head row naming each column as the plot and the results name the report. */
	fputs("<tr><th></th>", out);
	for (size_t r = 0; r < n; r++) {
		svg_report_name(in, r, v, sizeof(v));
		cell(out, "th", v);
	}
	fputs("</tr>\n", out);
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

static void result_rows(FILE *out, const struct svg_input *in)
{
	char label[600], v[200];

	for (size_t r = 0; r < in->n; r++)
		for (size_t i = 0; i < in->reps[r]->n_results; i++) {
			const struct bench_result *res = &in->reps[r]->results[i];
			const struct bench_stats *s = &res->stats;
			size_t irq = results_interrupted(res);
			fputs("<tr>", out);
			if (in->n > 1) {
				svg_report_name(in, r, v, sizeof(v));
				cell(out, "td", v);
			}
			results_label(res, label, sizeof(label));
			cell(out, "td", label);
			str_fmt_cut(v, sizeof(v), "%zu", s->n);
			cell(out, "td", s->n ? v : "");
			/* How many samples took an exception: left out of n (or kept, --keep-interrupted). */
			str_fmt_cut(v, sizeof(v), "%zu of %zu%s", irq, res->n_samples,
			            in->reps[r]->context.keep_interrupted ? ", kept" : "");
			cell(out, "td", irq ? v : "");
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

/* What a run survived and a reader must not miss: a run that did not finish, and its warnings
 * (interrupted samples, restarts, failed --poll reads), above the figures. */
static void run_notes(FILE *out, const struct svg_input *in)
{
	char name[160];

	for (size_t r = 0; r < in->n; r++) {
		const struct bench_report *rep = in->reps[r];
		if (rep->status == BENCH_STATUS_OK && !rep->n_warnings)
			continue;
		svg_report_name(in, r, name, sizeof(name));
		fputs("<div class=\"warn\"><b>", out);
		markup_xml_puts(out, name);
		fputs("</b>", out);
		if (rep->status != BENCH_STATUS_OK) {
			fprintf(out, ": run %s", results_status_name(rep->status));
			if (rep->error[0]) {
				fputs(": ", out);
				markup_xml_puts(out, rep->error);
			}
		}
		if (rep->n_warnings) {
			fputs("<ul>\n", out);
			for (size_t w = 0; w < rep->n_warnings; w++)
				cell(out, "li", rep->warnings[w]);
			fputs("</ul>", out);
		}
		fputs("</div>\n", out);
	}
}

int html_write(FILE *out, const struct svg_input *in, struct bench_error *err)
{
	char name[160];
	int rc;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>bench report: ", out);
	for (size_t r = 0; r < in->n; r++) {
		fputs(r ? ", " : "", out);
		svg_report_name(in, r, name, sizeof(name));
		markup_xml_puts(out, name);
	}
	fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:24px;color:#222}\n"
	      "table{border-collapse:collapse;margin:8px 0 24px}\n"
	      "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px;overflow-wrap:break-word}\n"
	      ".ctx td{overflow-wrap:anywhere}\n"
	      "th{background:#f3f3f3}\n.note{color:#666;font-size:13px}\n"
	      ".warn{background:#fff4e5;border-left:4px solid #ff7f0e;padding:4px 12px;margin:8px 0;font-size:13px}\n"
	      "svg{max-width:100%;height:auto}\n",
	      out);
	for (size_t r = 0; r < in->n; r++)
		if (html_profile_any(in->reps[r])) { /* the listing's styles, only on a page that has one */
			fputs(HTML_PROFILE_CSS, out);
			break;
		}
	fputs("</style>\n</head>\n<body>\n<h1>bench report</h1>\n", out);
	for (size_t r = 0; r < in->n; r++)
		if (in->reps[r]->context.cycles_modelled) {
			fputs("<p class=\"note\">Cycles from the virtual board are modelled (Cortex-M4 TRM timings), "
			      "not measured on silicon.</p>\n",
			      out);
			break;
		}
	run_notes(out, in);
	if (svg_plot_points(in)) {
		fputs("<h2>Cycles versus input</h2>\n", out);
		rc = svg_plot(out, in, err);
	} else {
		fputs("<h2>Cycles per result</h2>\n", out);
		rc = svg_result_bars(out, in, err);
	}
	if (rc < 0)
		return rc;
	if (svg_stack_points(in)) { /* bench run --stack: the stack beside the cycles */
		fputs("<h2>Stack versus input</h2>\n", out);
		if ((rc = svg_plot_stack(out, in, err)) < 0)
			return rc;
	}
	for (size_t r = 0; r < in->n; r++) {
		if (!in->reps[r]->n_regions)
			continue;
		fputs("<h2>Regions: ", out);
		svg_report_name(in, r, name, sizeof(name));
		markup_xml_puts(out, name);
		fputs("</h2>\n", out);
		rc = svg_region_bars(out, in->reps[r], err);
		if (rc < 0)
			return rc;
	}
	fputs("<h2>Results</h2>\n<table>\n<tr>", out);
	if (in->n > 1)
		cell(out, "th", "report");
	fputs("<th>result</th><th>n</th><th>interrupted</th><th>min</th><th>max</th><th>median</th><th>stddev</th>"
	      "<th>unit</th><th>error</th></tr>\n",
	      out);
	result_rows(out, in);
	/* Numbers never break inside (break-word); the context's SHA-256 and paths may (anywhere). */
	fputs("</table>\n", out);
	for (size_t r = 0; r < in->n; r++) /* bench run --profile's exact profiles (docs/profile.md) */
		html_profile(out, in->reps[r]);
	fputs("<h2>Context</h2>\n<table class=\"ctx\">\n", out);
	context_rows(out, in);
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
	const struct svg_input all = {ctx->reports, ctx->report_files, ctx->n_reports}, one = {&rep, NULL, 1};

	return html_write(out, ctx->n_reports ? &all : &one, err);
}

const struct reporter_ops html_reporter = {
    .name = "html",
    .extension = "html",
    .help = "one self-contained page: cycles-versus-input plot, region bars, results, context",
    .begin = html_begin,
};
