/* The console report's table of measures besides cycles (issue 24): stack depth per result, when
 * the run measured it (bench run --stack). Called by console.c below the cycles table. */
#ifndef HOST_REPORT_CONSOLE_MEASURES_H
#define HOST_REPORT_CONSOLE_MEASURES_H

#include <stdio.h>

#include "results/results.h"

/* Prints the table; nothing when no result has stack figures. <0 on a write error. */
int console_measures(FILE *out, const struct bench_report *rep);

#endif /* HOST_REPORT_CONSOLE_MEASURES_H */
