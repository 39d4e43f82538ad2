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

const char *const svg_palette[SVG_PALETTE] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
};

#define FIG_W    900.0
#define M_TOP    44.0
#define PLOT_IN  320.0 /* the plot area's height */
#define CHAR_W   7.0   /* a generous width of one 12 px sans-serif character: margins from it never clip */
#define LEGEND_H 18.0  /* one legend row */

/* Where the plot area sits in the figure: margins wide enough for the axis labels. */
struct layout {
	double left, right, top, pw, ph, legend_y, h;
};

struct series {
	const struct bench_report *rep;
	size_t rep_index;
	const char *name;
	char label[240];
	size_t interrupted, results, unmeasured; /* over the series' results */
	bool stack;                              /* the stack plot: interrupted means an exception frame */
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

void svg_report_name(const struct svg_input *in, size_t i, char *buf, size_t cap)
{
	const char *fw = results_basename(in->reps[i]->context.firmware);
	bool twin = false, same_base = false, same_file = false;

	for (size_t j = 0; j < in->n; j++) {
		if (j == i || strcmp(fw, results_basename(in->reps[j]->context.firmware)))
			continue;
		twin = true;
		same_file |= !in->files || !strcmp(in->files[i], in->files[j]);
		same_base |= !in->files || !strcmp(results_basename(in->files[i]), results_basename(in->files[j]));
	}
	/* The JSON's file name where that tells them apart (base.json, new.json), its path where only
	 * that does (base/run.json, new/run.json), else its position (the same file given twice). */
	if (!twin)
		str_fmt_cut(buf, cap, "%s", fw);
	else if (!same_base)
		str_fmt_cut(buf, cap, "%s (%s)", fw, results_basename(in->files[i]));
	else if (!same_file)
		str_fmt_cut(buf, cap, "%s (%s)", fw, in->files[i]);
	else
		str_fmt_cut(buf, cap, "%s #%zu", fw, i + 1);
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

/* S cut to at most MAX characters, visibly ("..."), into BUF: a legend or bar label that would run
 * off the figure is shortened rather than clipped. */
static const char *fit(char *buf, size_t cap, const char *s, double max_chars)
{
	size_t max = max_chars < 8 ? 8 : (size_t)max_chars;

	str_fmt_cut(buf, cap < max + 1 ? cap : max + 1, "%s", s);
	return buf;
}

static double label_chars(double v)
{
	char num[32];
	str_fmt_cut(num, sizeof(num), "%.0f", v);
	return (double)strlen(num);
}

/* What a plot draws: the cycles of each sample, or the stack it used (--stack). */
enum plot_measure { PLOT_CYCLES, PLOT_STACK };

/* Whether RES has something to draw for M. */
static bool plotted(const struct bench_result *res, enum plot_measure m)
{
	return res->n_args && (m == PLOT_CYCLES || res->stack.n);
}

/* One series per (report, marker pair name) with an input; none is dropped. */
static size_t collect_series(const struct svg_input *in, struct series *s, enum plot_measure m)
{
	size_t n = 0;
	char rname[160];

	for (size_t r = 0; r < in->n; r++) {
		svg_report_name(in, r, rname, sizeof(rname));
		for (size_t i = 0; i < in->reps[r]->n_results; i++) {
			const struct bench_result *res = &in->reps[r]->results[i];
			size_t k;
			if (!plotted(res, m))
				continue;
			for (k = 0; k < n; k++)
				if (s[k].rep == in->reps[r] && !strcmp(s[k].name, res->name))
					break;
			if (k == n) {
				memset(&s[n], 0, sizeof(s[n]));
				s[n].rep = in->reps[r];
				s[n].rep_index = r;
				s[n].name = res->name;
				s[n].stack = m == PLOT_STACK;
				if (in->n > 1)
					str_fmt_cut(s[n].label, sizeof(s[n].label), "%s: %s", rname, res->name);
				else
					str_fmt_cut(s[n].label, sizeof(s[n].label), "%s", res->name);
				n++;
			}
			s[k].results++;
			s[k].interrupted += m == PLOT_STACK ? res->stack.n_exception : results_interrupted(res);
			s[k].unmeasured += m == PLOT_STACK ? !res->stack.n_depths : !res->stats.n;
		}
	}
	return n;
}

size_t svg_plot_points(const struct svg_input *in)
{
	size_t n = 0;
	for (size_t r = 0; r < in->n; r++)
		for (size_t i = 0; i < in->reps[r]->n_results; i++)
			n += in->reps[r]->results[i].n_args != 0;
	return n;
}

/* Series k's marker: colour k % 12, shape k / 12 % 3; hollow (outline only) for a sample that
 * took an exception. */
static void marker(FILE *out, size_t k, double x, double y, bool hollow)
{
	const char *c = svg_palette[k % SVG_PALETTE];
	char paint[64];

	str_fmt_cut(paint, sizeof(paint), hollow ? "fill=\"none\" stroke=\"%s\"" : "fill=\"%s\"", c);
	switch (k / SVG_PALETTE % SVG_SHAPES) {
	case 0:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" %s/>\n", x, y, paint);
		break;
	case 1:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" %s/>\n", x - 3.5, y - 3.5, paint);
		break;
	default:
		fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" %s/>\n", x, y - 4.5, x + 4.5,
		        y, x, y + 4.5, x - 4.5, y, paint);
		break;
	}
}

static void axes(FILE *out, const struct layout *L, const double xa[3], const double ya[3], const char *xname,
                 const char *yname)
{
	char num[32];
	double y = ya[0], x = xa[0];

	fprintf(out, "<g stroke=\"#cccccc\" stroke-width=\"1\">\n");
	/* Integer loop counters (CERT FLP30-C); y accumulates as before, so the ticks are the same. */
	for (int k = 0; k < 1000 && y <= ya[1] + ya[2] / 2; k++, y += ya[2]) {
		double py = L->top + L->ph - (y - ya[0]) / (ya[1] - ya[0]) * L->ph;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", L->left, py, L->left + L->pw,
		        py);
	}
	fprintf(out, "</g>\n<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\">\n");
	y = ya[0];
	for (int k = 0; k < 1000 && y <= ya[1] + ya[2] / 2; k++, y += ya[2]) {
		double py = L->top + L->ph - (y - ya[0]) / (ya[1] - ya[0]) * L->ph;
		str_fmt_cut(num, sizeof(num), "%.0f", y);
		text(out, L->left - 8, py + 4, "end", "", num);
	}
	for (int k = 0; k < 1000 && x <= xa[1] + xa[2] / 2; k++, x += xa[2]) {
		double px = L->left + (x - xa[0]) / (xa[1] - xa[0]) * L->pw;
		str_fmt_cut(num, sizeof(num), "%.0f", x);
		text(out, px, L->top + L->ph + 18, "middle", "", num);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n", px,
		        L->top + L->ph, px, L->top + L->ph + 5);
	}
	text(out, L->left + L->pw / 2, L->top + L->ph + 40, "middle", "", xname);
	fprintf(out, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">",
	        L->top + L->ph / 2, L->top + L->ph / 2);
	markup_xml_puts(out, yname);
	fputs("</text>\n</g>\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333333\"/>\n",
	        L->left, L->top, L->pw, L->ph);
}

/* The distinct values of RES's samples with (or without) the interrupted flag, sorted, into V:
 * cycles, or the stack figures (an exception frame in it counts as interrupted; no overflow). */
static size_t distinct(const struct bench_result *res, bool interrupted, int64_t *v, enum plot_measure m)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; m == PLOT_CYCLES && i < res->n_samples; i++)
		if (!!(res->sample_flags && (res->sample_flags[i] & BENCH_SAMPLE_INTERRUPTED)) == interrupted)
			v[n++] = res->samples[i];
	for (size_t i = 0; m == PLOT_STACK && i < res->stack.n; i++)
		if (!(res->stack.flags[i] & BENCH_STACK_OVERFLOW) &&
		    !!(res->stack.flags[i] & BENCH_STACK_EXCEPTION) == interrupted)
			v[n++] = res->stack.bytes[i];
	qsort(v, n, sizeof(*v), cmp_i64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* Dots for every distinct sample at each input (repetitions of one value collapse into one dot,
 * which keeps a --repeat 1000 figure small), hollow for interrupted ones, then the medians of the
 * samples that count joined by a line. */
static int draw_series(FILE *out, const struct layout *L, const struct series *s, size_t k, const double xa[3],
                       const double ya[3], enum plot_measure m)
{
	const struct bench_report *rep = s->rep;
	struct xy *med = calloc(rep->n_results ? rep->n_results : 1, sizeof(*med));
	size_t n_med = 0;

	if (!med)
		return -1;
	fputs("<g>\n", out);
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct bench_result *res = &rep->results[i];
		int64_t *v;
		double px;
		if (!plotted(res, m) || strcmp(res->name, s->name))
			continue;
		px = L->left + ((double)res->args[0].value - xa[0]) / (xa[1] - xa[0]) * L->pw;
		v = malloc((res->n_samples + res->stack.n + 1) * sizeof(*v));
		if (!v) {
			free(med);
			return -1;
		}
		for (int hollow = 0; hollow < 2; hollow++) {
			size_t nv = distinct(res, hollow, v, m);
			for (size_t j = 0; j < nv; j++)
				marker(out, k, px, L->top + L->ph - ((double)v[j] - ya[0]) / (ya[1] - ya[0]) * L->ph,
				       hollow);
		}
		free(v);
		/* The line: the median cycles of the samples that count, or the most stack of any sample. */
		if (m == PLOT_CYCLES ? res->stats.n != 0 : res->stack.n_depths != 0) {
			double y = m == PLOT_CYCLES ? res->stats.median : (double)res->stack.max;
			med[n_med].x = px;
			med[n_med].y = L->top + L->ph - (y - ya[0]) / (ya[1] - ya[0]) * L->ph;
			n_med++;
		}
	}
	fputs("</g>\n", out);
	qsort(med, n_med, sizeof(*med), cmp_xy);
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
	        svg_palette[k % SVG_PALETTE]);
	for (size_t j = 0; j < n_med; j++)
		fprintf(out, "%s%.1f,%.1f", j ? " " : "", med[j].x, med[j].y);
	fputs("\"/>\n", out);
	free(med);
	return 0;
}

/* The legend below the plot: every series with its marker, and what it holds that does not show
 * as a dot (interrupted samples, inputs with no sample that counts); then the results with no
 * input, which the plot cannot place. */
static void legend(FILE *out, const struct layout *L, const struct series *s, size_t n, const char *unplotted)
{
	double max_chars = (FIG_W - L->left - 24) / CHAR_W;
	char line[400], cut[400];

	fputs("<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\">\n", out);
	for (size_t k = 0; k < n; k++) {
		double y = L->legend_y + LEGEND_H * (double)k;
		int w = snprintf(line, sizeof(line), "%s", s[k].label);
		if (w >= 0 && s[k].interrupted && s[k].stack)
			w += snprintf(line + strlen(line), sizeof(line) - strlen(line),
			              " (%zu sample%s with an exception frame, hollow)", s[k].interrupted,
			              s[k].interrupted == 1 ? "" : "s");
		else if (w >= 0 && s[k].interrupted)
			w += snprintf(line + strlen(line), sizeof(line) - strlen(line),
			              " (%zu interrupted sample%s, hollow%s)", s[k].interrupted,
			              s[k].interrupted == 1 ? "" : "s",
			              s[k].rep->context.keep_interrupted ? ", kept" : ", left out");
		if (w >= 0 && s[k].unmeasured)
			(void)snprintf(line + strlen(line), sizeof(line) - strlen(line),
			               s[k].stack ? " (%zu of %zu inputs only possible overflows)"
			                          : " (%zu of %zu inputs with no sample that counts)",
			               s[k].unmeasured, s[k].results);
		marker(out, k, L->left + 4, y - 4, false);
		text(out, L->left + 16, y, "start", "", fit(cut, sizeof(cut), line, max_chars));
	}
	if (unplotted[0])
		text(out, L->left, L->legend_y + LEGEND_H * (double)n, "start", "",
		     fit(cut, sizeof(cut), unplotted, (FIG_W - L->left - 8) / CHAR_W));
	fputs("</g>\n", out);
}

/* "not plotted (no input): sled, crc" for the results without args, "" when there are none. */
static void unplotted_names(const struct svg_input *in, char *buf, size_t cap)
{
	char label[600], rname[160];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t r = 0; r < in->n; r++) {
		svg_report_name(in, r, rname, sizeof(rname));
		for (size_t i = 0; i < in->reps[r]->n_results; i++) {
			int w;
			if (in->reps[r]->results[i].n_args)
				continue;
			results_label(&in->reps[r]->results[i], label, sizeof(label));
			w = snprintf(buf + used, cap - used, "%s%s%s%s",
			             used ? ", " : "not plotted (no input): ", in->n > 1 ? rname : "",
			             in->n > 1 ? ": " : "", label);
			if (w < 0 || (size_t)w >= cap - used)
				return; /* cut: the legend line shows "..." (fit) */
			used += (size_t)w;
		}
	}
}

static void plot_layout(struct layout *L, const double xa[3], const double ya[3], size_t legend_rows)
{
	double ylab = label_chars(ya[1]) > label_chars(ya[0]) ? label_chars(ya[1]) : label_chars(ya[0]);

	/* The y title (x = 16, rotated), 12 px, then the widest tick label ending 8 px from the axis. */
	L->left = fmax(80, 30 + ylab * CHAR_W + 8);
	/* Half of an x tick label centred on the plot's edges. */
	L->left = fmax(L->left, label_chars(xa[0]) * CHAR_W / 2 + 8);
	L->right = fmax(30, label_chars(xa[1]) * CHAR_W / 2 + 8);
	L->top = M_TOP;
	L->pw = FIG_W - L->left - L->right;
	L->ph = PLOT_IN;
	L->legend_y = L->top + L->ph + 66;
	L->h = L->legend_y + LEGEND_H * (double)legend_rows;
}

static int plot(FILE *out, const struct svg_input *in, enum plot_measure m, struct bench_error *err)
{
	struct series *s;
	size_t n, total = 0;
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0, xa[3], ya[3];
	const char *xname = "input", *unit = "cycles";
	char title[300], unplotted[1200];
	struct layout L;

	for (size_t r = 0; r < in->n; r++)
		total += in->reps[r]->n_results;
	s = calloc(total ? total : 1, sizeof(*s));
	if (!s)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory drawing the plot");
	n = collect_series(in, s, m);
	for (size_t r = 0; r < in->n; r++)
		for (size_t i = 0; i < in->reps[r]->n_results; i++) {
			const struct bench_result *res = &in->reps[r]->results[i];
			if (!plotted(res, m))
				continue;
			xname = res->args[0].name;
			unit = m == PLOT_CYCLES ? res->unit : "stack bytes";
			for (size_t k = 0; m == PLOT_STACK && k < res->stack.n; k++)
				ymax = fmax(ymax, (double)res->stack.bytes[k]);
			xmin = fmin(xmin, (double)res->args[0].value);
			xmax = fmax(xmax, (double)res->args[0].value);
			for (size_t k = 0; m == PLOT_CYCLES && k < res->n_samples; k++) /* interrupted ones too */
				ymax = fmax(ymax, (double)res->samples[k]);
		}
	if (!n) {
		free(s);
		return bench_fail(err, BENCH_E_REPORT, "no result has an input to plot%s: sweep one with --arg",
		                  m == PLOT_STACK ? " with stack figures (bench run --stack)" : "");
	}
	unplotted_names(in, unplotted, sizeof(unplotted));
	/* Cycles start at 0 so a flat series and a scattered one keep their true proportions. */
	nice_axis(xmin, xmax, &xa[0], &xa[1], &xa[2]);
	nice_axis(0, ymax * 1.05, &ya[0], &ya[1], &ya[2]);
	plot_layout(&L, xa, ya, n + (unplotted[0] != '\0'));
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "role=\"img\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
	        FIG_W, L.h, FIG_W, L.h);
	str_fmt_cut(title, sizeof(title), "%s versus %s", unit, xname);
	text(out, L.left, 24, "start", "font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\"", title);
	axes(out, &L, xa, ya, xname, unit);
	for (size_t k = 0; k < n; k++)
		if (draw_series(out, &L, &s[k], k, xa, ya, m) < 0) {
			free(s);
			return bench_fail(err, BENCH_E_NOMEM, "out of memory drawing the plot");
		}
	legend(out, &L, s, n, unplotted);
	fputs("</svg>\n", out);
	free(s);
	return io_check(out, err);
}

int svg_plot(FILE *out, const struct svg_input *in, struct bench_error *err)
{
	return plot(out, in, PLOT_CYCLES, err);
}

int svg_plot_stack(FILE *out, const struct svg_input *in, struct bench_error *err)
{
	return plot(out, in, PLOT_STACK, err);
}

size_t svg_stack_points(const struct svg_input *in)
{
	size_t n = 0;
	for (size_t r = 0; r < in->n; r++)
		for (size_t i = 0; i < in->reps[r]->n_results; i++)
			n += plotted(&in->reps[r]->results[i], PLOT_STACK);
	return n;
}

struct bar {
	char label[200];
	double value;
	const char *error; /* no bar: this instead */
};

static int bars(FILE *out, const char *title, const struct bar *b, size_t n, const char *colour, const char *unit,
                struct bench_error *err)
{
	double w = FIG_W, right = 110, row = 24, h = 50 + row * (double)n, vmax = 0, left, widest = 0;
	char num[64], cut[400];

	for (size_t i = 0; i < n; i++) {
		vmax = fmax(vmax, b[i].value);
		widest = fmax(widest, (double)strlen(b[i].label));
	}
	if (vmax <= 0)
		vmax = 1;
	/* As wide as the longest label, up to 60 % of the figure; a longer label is cut, not clipped. */
	left = fmin(fmax(120, widest * CHAR_W + 16), w * 0.6);
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "role=\"img\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
	        w, h, w, h);
	text(out, 10, 24, "start", "font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\"", title);
	fputs("<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\">\n", out);
	for (size_t i = 0; i < n; i++) {
		double y = 40 + row * (double)i, len = b[i].error ? 0 : b[i].value / vmax * (w - left - right);
		text(out, left - 8, y + 15, "end", "", fit(cut, sizeof(cut), b[i].label, (left - 16) / CHAR_W));
		if (b[i].error) {
			text(out, left + 6, y + 15, "start", "",
			     fit(cut, sizeof(cut), b[i].error, (w - left - 12) / CHAR_W));
			continue;
		}
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", left, y + 3,
		        len, row - 6, colour);
		str_fmt_cut(num, sizeof(num), "%.1f %s", b[i].value, unit);
		text(out, left + len + 6, y + 15, "start", "", num);
	}
	fputs("</g>\n</svg>\n", out);
	return io_check(out, err);
}

int svg_result_bars(FILE *out, const struct svg_input *in, struct bench_error *err)
{
	size_t n = 0, k = 0;
	struct bar *b;
	int rc;
	char rname[160];

	for (size_t r = 0; r < in->n; r++)
		n += in->reps[r]->n_results;
	b = calloc(n ? n : 1, sizeof(*b));
	if (!b)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory drawing the result bars");
	for (size_t r = 0; r < in->n; r++) {
		svg_report_name(in, r, rname, sizeof(rname));
		for (size_t i = 0; i < in->reps[r]->n_results; i++) {
			const struct bench_result *res = &in->reps[r]->results[i];
			char label[600];
			results_label(res, label, sizeof(label));
			/* A label cut short still names the result well enough beside its bar. */
			if (snprintf(b[k].label, sizeof(b[k].label), "%s%s%s", in->n > 1 ? rname : "",
			             in->n > 1 ? ": " : "", label) < 0)
				b[k].label[0] = '\0';
			/* No sample counts: its reason where the bar would be, never a silent gap. */
			b[k].error = res->stats.n ? NULL : res->error[0] ? res->error : "no sample measured";
			b[k++].value = res->stats.median;
		}
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

int svg_summary(FILE *out, const struct svg_input *in, struct bench_error *err)
{
	if (svg_plot_points(in))
		return svg_plot(out, in, err);
	return svg_result_bars(out, in, err);
}

/* `bench report --svg FILE` and `--format svg`: svg_summary() of every report in the context, else
 * of the report being emitted. */
static int svg_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	const struct svg_input all = {ctx->reports, ctx->report_files, ctx->n_reports}, one = {&rep, NULL, 1};

	return svg_summary(out, ctx->n_reports ? &all : &one, err);
}

const struct reporter_ops svg_reporter = {
    .name = "svg",
    .extension = "svg",
    .help = "the plot alone (bars per result when nothing was swept), for a CI summary",
    .begin = svg_begin,
};
