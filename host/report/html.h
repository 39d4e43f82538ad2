/* `bench report --html`: one self-contained page (inline CSS and SVG, no script, no network) with
 * the cycles-versus-input plot, per-region bars, a results table and the run's context. */
#ifndef HOST_REPORT_HTML_H
#define HOST_REPORT_HTML_H

#include <stdio.h>

#include "base/error.h"
#include "report/svg.h"
#include "results/results.h"

/* Writes the page for one or more reports (several: their series share the plot): a run that did
 * not finish and the warnings first, then the figures, the results (with interrupted counts) and
 * the context, each report named as svg_report_name() names it. */
int html_write(FILE *out, const struct svg_input *in, struct bench_error *err);

#endif /* HOST_REPORT_HTML_H */
