/* SVG figures for `bench report`: the cycles-versus-input plot (the barebench article's figure,
 * Abbildung 7: one series per marker pair and firmware, every distinct sample a dot, the median a
 * line) and bar charts (per region, or per result when nothing was swept). Plain SVG 1.1 with no
 * script and no external reference, so it can be inlined in HTML or shown in a CI summary. */
#ifndef HOST_REPORT_SVG_H
#define HOST_REPORT_SVG_H

#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

#define SVG_MAX_SERIES 12

/* Series colours, in order (the "tab10" palette); tests look for the first two in a screenshot. */
extern const char *const svg_palette[SVG_MAX_SERIES];

/* How many results of the reports have at least one arg (plot points). */
size_t svg_plot_points(const struct bench_report *const *reps, size_t n_reps);
/* The cycles-versus-input plot of every result with an arg (x: its first arg). With several
 * reports, series are named "<firmware>: <result>". */
int svg_plot(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err);
/* Bars of each result's median (for reports without inputs). */
int svg_result_bars(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err);
/* Bars of each region's mean cycles (rep->regions); writes nothing when there are none. */
int svg_region_bars(FILE *out, const struct bench_report *rep, struct bench_error *err);
/* The figure `bench report --svg` writes: the plot when there are inputs, else the result bars. */
int svg_summary(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err);

#endif /* HOST_REPORT_SVG_H */
