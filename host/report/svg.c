/* SVG figures; see svg.h. Output is built with stdio and checked once through ferror() at the end
 * of each figure (the stream's error indicator is sticky, C11 7.21.10.3), which keeps the drawing
 * code readable while still reporting a failed write. */
#include "report/svg.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "report/markup.h"
#include "report/reporter.h"

const char *const svg_palette[SVG_MAX_SERIES] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
};

#define PLOT_W   900.0
#define PLOT_H   440.0
#define M_LEFT   80.0
#define M_RIGHT  30.0
#define M_TOP    60.0
#define M_BOTTOM 60.0

struct series {
	const struct bench_report *rep;
	const char *name;
	char label[200];
};

struct xy {
	double x, y;
};

static int cmp_xy(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
	return (p > q) - (p < q);
}

static int io_check(FILE *out, struct bench_error *err)
{
	if (ferror(out))
		return bench_fail(err, BENCH_E_IO, "writing the SVG figure failed");
	return 0;
}

/* A "nice" step of 1, 2 or 5 times a power of ten (Heckbert, "Nice numbers for graph labels",
 * Graphics Gems, 1990), so tick labels are round numbers of cycles. */
static double nice_step(double span, int ticks)
{
	double raw = span / ticks, mag, f;

	if (raw <= 0)
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	f = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return f * mag < 1 ? 1 : f * mag; /* cycles and inputs are whole numbers */
}

static void nice_axis(double lo, double hi, double *alo, double *ahi, double *step)
{
	if (hi <= lo)
		hi = lo + 1;
	*step = nice_step(hi - lo, 6);
	*alo = floor(lo / *step) * *step;
	*ahi = ceil(hi / *step) * *step;
	if (*ahi <= *alo)
		*ahi = *alo + *step;
}

static void text(FILE *out, double x, double y, const char *anchor, const char *extra, const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, anchor, *extra ? " " : "", extra);
	markup_xml_puts(out, s);
	fputs("</text>\n", out);
}

static size_t collect_series(const struct bench_report *const *reps, size_t n_reps, struct series *s)
{
	size_t n = 0;

	for (size_t r = 0; r < n_reps; r++) {
		for (size_t i = 0; i < reps[r]->n_results; i++) {
			const struct bench_result *res = &reps[r]->results[i];
			size_t k;
			if (!res->n_args || !res->stats.n)
				continue;
			for (k = 0; k < n; k++)
				if (s[k].rep == reps[r] && !strcmp(s[k].name, res->name))
					break;
			if (k < n || n == SVG_MAX_SERIES)
				continue;
			s[n].rep = reps[r];
			s[n].name = res->name;
			if (n_reps > 1)
				str_fmt_cut(s[n].label, sizeof(s[n].label), "%s: %s",
				            results_basename(reps[r]->context.firmware), res->name);
			else
				str_fmt_cut(s[n].label, sizeof(s[n].label), "%s", res->name);
			n++;
		}
	}
	return n;
}

size_t svg_plot_points(const struct bench_report *const *reps, size_t n_reps)
{
	size_t n = 0;
	for (size_t r = 0; r < n_reps; r++)
		for (size_t i = 0; i < reps[r]->n_results; i++)
			n += reps[r]->results[i].n_args && reps[r]->results[i].stats.n;
	return n;
}

static void axes(FILE *out, double xlo, double xhi, double xstep, double ylo, double yhi, double ystep,
                 const char *xname, const char *yname)
{
	double pw = PLOT_W - M_LEFT - M_RIGHT, ph = PLOT_H - M_TOP - M_BOTTOM;
	char num[32];

	fprintf(out, "<g stroke=\"#cccccc\" stroke-width=\"1\">\n");
	/* Integer loop counters (CERT FLP30-C); y accumulates as before, so the ticks are the same. */
	double y = ylo, x;
	for (int k = 0; k < 1000 && y <= yhi + ystep / 2; k++, y += ystep) {
		double py = M_TOP + ph - (y - ylo) / (yhi - ylo) * ph;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", M_LEFT, py, M_LEFT + pw, py);
	}
	fprintf(out, "</g>\n<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\">\n");
	y = ylo;
	for (int k = 0; k < 1000 && y <= yhi + ystep / 2; k++, y += ystep) {
		double py = M_TOP + ph - (y - ylo) / (yhi - ylo) * ph;
		str_fmt_cut(num, sizeof(num), "%.0f", y);
		text(out, M_LEFT - 8, py + 4, "end", "", num);
	}
	x = xlo;
	for (int k = 0; k < 1000 && x <= xhi + xstep / 2; k++, x += xstep) {
		double px = M_LEFT + (x - xlo) / (xhi - xlo) * pw;
		str_fmt_cut(num, sizeof(num), "%.0f", x);
		text(out, px, M_TOP + ph + 18, "middle", "", num);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n", px,
		        M_TOP + ph, px, M_TOP + ph + 5);
	}
	text(out, M_LEFT + pw / 2, PLOT_H - 15, "middle", "", xname);
	fprintf(out, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">",
	        M_TOP + ph / 2, M_TOP + ph / 2);
	markup_xml_puts(out, yname);
	fputs("</text>\n</g>\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333333\"/>\n",
	        M_LEFT, M_TOP, pw, ph);
}

/* Dots for every distinct sample at each input (repetitions of one value collapse into one dot,
 * which keeps a --repeat 1000 figure small), then the medians joined by a line. */
static int draw_series(FILE *out, const struct series *s, const char *colour, double xlo, double xhi, double ylo,
                       double yhi)
{
	double pw = PLOT_W - M_LEFT - M_RIGHT, ph = PLOT_H - M_TOP - M_BOTTOM;
	const struct bench_report *rep = s->rep;
	struct xy *med = calloc(rep->n_results ? rep->n_results : 1, sizeof(*med));
	size_t n_med = 0;

	if (!med)
		return -1;
	fprintf(out, "<g fill=\"%s\" stroke=\"none\">\n", colour);
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct bench_result *res = &rep->results[i];
		int64_t *sorted;
		double px;
		if (!res->n_args || !res->stats.n || strcmp(res->name, s->name))
			continue;
		px = M_LEFT + ((double)res->args[0].value - xlo) / (xhi - xlo) * pw;
		sorted = malloc(res->n_samples * sizeof(*sorted));
		if (!sorted) {
			free(med);
			return -1;
		}
		memcpy(sorted, res->samples, res->n_samples * sizeof(*sorted));
		qsort(sorted, res->n_samples, sizeof(*sorted), cmp_i64);
		for (size_t k = 0; k < res->n_samples; k++) {
			if (k && sorted[k] == sorted[k - 1])
				continue;
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"/>\n", px,
			        M_TOP + ph - ((double)sorted[k] - ylo) / (yhi - ylo) * ph);
		}
		free(sorted);
		med[n_med].x = px;
		med[n_med].y = M_TOP + ph - (res->stats.median - ylo) / (yhi - ylo) * ph;
		n_med++;
	}
	fputs("</g>\n", out);
	qsort(med, n_med, sizeof(*med), cmp_xy);
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
	for (size_t k = 0; k < n_med; k++)
		fprintf(out, "%s%.1f,%.1f", k ? " " : "", med[k].x, med[k].y);
	fputs("\"/>\n", out);
	free(med);
	return 0;
}

int svg_plot(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err)
{
	struct series s[SVG_MAX_SERIES];
	size_t n = collect_series(reps, n_reps, s);
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
	double xlo, xhi, xstep, ylo, yhi, ystep;
	const char *xname = "input", *unit = "cycles";
	char title[300];

	for (size_t r = 0; r < n_reps; r++)
		for (size_t i = 0; i < reps[r]->n_results; i++) {
			const struct bench_result *res = &reps[r]->results[i];
			if (!res->n_args || !res->stats.n)
				continue;
			xname = res->args[0].name;
			unit = res->unit;
			xmin = fmin(xmin, (double)res->args[0].value);
			xmax = fmax(xmax, (double)res->args[0].value);
			ymax = fmax(ymax, res->stats.max);
		}
	if (!n)
		return bench_fail(err, BENCH_E_REPORT, "no result has an input to plot: sweep one with --arg");
	/* Cycles start at 0 so a flat series and a scattered one keep their true proportions. */
	nice_axis(xmin, xmax, &xlo, &xhi, &xstep);
	nice_axis(0, ymax * 1.05, &ylo, &yhi, &ystep);
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "role=\"img\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
	        PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	str_fmt_cut(title, sizeof(title), "%s versus %s", unit, xname);
	text(out, M_LEFT, 24, "start", "font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\"", title);
	axes(out, xlo, xhi, xstep, ylo, yhi, ystep, xname, unit);
	for (size_t k = 0; k < n; k++) {
		double lx = M_LEFT + 10 + (double)k * 270, ly = 36; /* one legend row of up to three */
		if (draw_series(out, &s[k], svg_palette[k], xlo, xhi, ylo, yhi) < 0)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory drawing the plot");
		if (k >= 3)
			continue; /* the legend has room for three; more series are named in the table below */
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", lx, ly,
		        svg_palette[k]);
		text(out, lx + 18, ly + 11, "start", "font-family=\"sans-serif\" font-size=\"12\"", s[k].label);
	}
	fputs("</svg>\n", out);
	return io_check(out, err);
}

struct bar {
	char label[200];
	double value;
};

static int bars(FILE *out, const char *title, const struct bar *b, size_t n, const char *colour, const char *unit,
                struct bench_error *err)
{
	double w = PLOT_W, left = 260, right = 90, row = 24, h = 50 + row * (double)n, vmax = 0;
	char num[64];

	for (size_t i = 0; i < n; i++)
		vmax = fmax(vmax, b[i].value);
	if (vmax <= 0)
		vmax = 1;
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "role=\"img\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
	        w, h, w, h);
	text(out, 10, 24, "start", "font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\"", title);
	fputs("<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\">\n", out);
	for (size_t i = 0; i < n; i++) {
		double y = 40 + row * (double)i, len = b[i].value / vmax * (w - left - right);
		text(out, left - 8, y + 15, "end", "", b[i].label);
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", left, y + 3,
		        len, row - 6, colour);
		str_fmt_cut(num, sizeof(num), "%.1f %s", b[i].value, unit);
		text(out, left + len + 6, y + 15, "start", "", num);
	}
	fputs("</g>\n</svg>\n", out);
	return io_check(out, err);
}

int svg_result_bars(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err)
{
	size_t n = 0, k = 0;
	struct bar *b;
	int rc;

	for (size_t r = 0; r < n_reps; r++)
		n += reps[r]->n_results;
	b = calloc(n ? n : 1, sizeof(*b));
	if (!b)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory drawing the result bars");
	for (size_t r = 0; r < n_reps; r++)
		for (size_t i = 0; i < reps[r]->n_results; i++) {
			char label[600];
			if (!reps[r]->results[i].stats.n)
				continue;
			results_label(&reps[r]->results[i], label, sizeof(label));
			/* A label cut short still names the result well enough beside its bar. */
			if (snprintf(b[k].label, sizeof(b[k].label), "%s%s%s",
			             n_reps > 1 ? results_basename(reps[r]->context.firmware) : "",
			             n_reps > 1 ? ": " : "", label) < 0)
				b[k].label[0] = '\0';
			b[k++].value = reps[r]->results[i].stats.median;
		}
	rc = bars(out, "median cycles per result", b, k, svg_palette[0], "cycles", err);
	free(b);
	return rc;
}

int svg_region_bars(FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	struct bar *b;
	size_t n = 0;
	int rc;

	if (!rep->n_regions)
		return 0;
	b = calloc(rep->n_regions, sizeof(*b));
	if (!b)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory drawing the region bars");
	for (size_t i = 0; i < rep->n_regions; i++) {
		if (rep->regions[i].no_cycles) /* not measured: no bar rather than a 0-cycle one */
			continue;
		str_fmt_cut(b[n].label, sizeof(b[n].label), "%s (x%llu)", rep->regions[i].name,
		            (unsigned long long)rep->regions[i].count);
		b[n++].value = rep->regions[i].mean;
	}
	rc = n ? bars(out, "mean cycles per region", b, n, svg_palette[2], "cycles", err) : 0;
	free(b);
	return rc;
}

int svg_summary(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err)
{
	if (svg_plot_points(reps, n_reps))
		return svg_plot(out, reps, n_reps, err);
	return svg_result_bars(out, reps, n_reps, err);
}

/* `bench report --svg FILE` and `--format svg`: svg_summary() of every report in the context, else
 * of the report being emitted. */
static int svg_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	if (ctx->n_reports)
		return svg_summary(out, ctx->reports, ctx->n_reports, err);
	return svg_summary(out, &rep, 1, err);
}

const struct reporter_ops svg_reporter = {
    .name = "svg",
    .extension = "svg",
    .help = "the plot alone (bars per result when nothing was swept), for a CI summary",
    .begin = svg_begin,
};
