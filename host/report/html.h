/* `bench report --html`: one self-contained page (inline CSS and SVG, no script, no network) with
 * the cycles-versus-input plot, per-region bars, a results table and the run's context. */
#ifndef HOST_REPORT_HTML_H
#define HOST_REPORT_HTML_H

#include <stdio.h>

#include "base/error.h"
#include "results/results.h"

/* Writes the page for one or more reports (several: their series share the plot). */
int html_write(FILE *out, const struct bench_report *const *reps, size_t n_reps, struct bench_error *err);

#endif /* HOST_REPORT_HTML_H */
