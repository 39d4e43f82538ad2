/* SVG figures for `bench report`: the cycles-versus-input plot (the barebench article's figure,
 * Abbildung 7: one series per marker pair and firmware, every distinct sample a dot, the median a
 * line) and bar charts (per region, or per result when nothing was swept). Plain SVG 1.1 with no
 * script and no external reference, so it can be inlined in HTML or shown in a CI summary.
 * Every series is drawn and named in the legend below the plot (issue 26: a legend of three and a
 * cap of twelve series dropped the rest silently); the margins grow to fit the axis labels. */
#ifndef HOST_REPORT_SVG_H
#define HOST_REPORT_SVG_H

#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

#define SVG_PALETTE 12
#define SVG_SHAPES  3 /* circle, square, diamond: series k has colour k % 12 and shape k / 12 % 3 */

/* Series colours, in order (the "tab10" palette and two more); tests look for the first two in a
 * screenshot. */
extern const char *const svg_palette[SVG_PALETTE];

/* The reports one figure draws, and where each came from. */
struct svg_input {
	const struct bench_report *const *reps;
	const char *const *files; /* the JSON file of each (bench report's arguments); NULL: unknown */
	size_t n;
};

/* How report I of IN is named in figures and tables: its firmware's file name, and when another
 * report of IN has the same, also its JSON file's name ("cmp.elf (base.json)"), or path where the
 * names are alike too ("cmp.elf (new/run.json)"), else its position ("cmp.elf #2"), so two builds
 * of one firmware never read alike. Always NUL-terminates. */
void svg_report_name(const struct svg_input *in, size_t i, char *buf, size_t cap);
/* How many results of the reports have at least one arg (plot points). */
size_t svg_plot_points(const struct svg_input *in);
/* The cycles-versus-input plot of every result with an arg (x: its first arg), with a legend
 * naming every series (interrupted samples drawn hollow, and counted) and the results that have no
 * input to plot. With several reports, series are named "<report name>: <result>". */
int svg_plot(FILE *out, const struct svg_input *in, struct bench_error *err);
/* The same figure of the stack each sample used (bench run --stack): "stack bytes versus input",
 * a dot per distinct figure, the line through each input's most; a possible overflow has no dot.
 * Results without stack figures are left out; BENCH_E_REPORT when none has one. */
int svg_plot_stack(FILE *out, const struct svg_input *in, struct bench_error *err);
/* How many results of the reports have an arg and stack figures. */
size_t svg_stack_points(const struct svg_input *in);
/* Bars of each result's median (for reports without inputs); a result with no sample that counts
 * is listed with its reason instead of a bar. */
int svg_result_bars(FILE *out, const struct svg_input *in, struct bench_error *err);
/* Bars of each region's mean cycles (rep->regions); writes nothing when there are none. */
int svg_region_bars(FILE *out, const struct bench_report *rep, struct bench_error *err);
/* The figure `bench report --svg` writes: the plot when there are inputs, else the result bars. */
int svg_summary(FILE *out, const struct svg_input *in, struct bench_error *err);

#endif /* HOST_REPORT_SVG_H */
