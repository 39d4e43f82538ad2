/* Small helpers the CI reporters share (csv, junit, bmf, github, html, svg): one label per result
 * so every format names a result the same way, and XML text escaping. */
#ifndef HOST_REPORT_MARKUP_H
#define HOST_REPORT_MARKUP_H

#include <stdio.h>

#include "results/results.h"

/* "fut[input=7]" or "fut[input=7,n=3]"; just "fut" without args. Always NUL-terminates. */
void markup_label(const struct bench_result *res, char *buf, size_t cap);
/* "input=7;n=3" ("" without args), for a CSV column. */
void markup_args(const struct bench_result *res, char *buf, size_t cap);
/* Writes S with &, <, >, " and ' escaped (XML 1.0 section 2.4); control characters other than
 * tab/newline become spaces since XML 1.0 cannot carry them. Returns 0 or -1 on a write error. */
int markup_xml_puts(FILE *out, const char *s);
/* The base name of a path ("fut-hardfp.elf"), pointing into PATH. */
const char *markup_basename(const char *path);
/* Cycles to nanoseconds with the report's core clock; a negative value when the clock is unknown. */
double markup_cycles_to_ns(const struct bench_report *rep, double cycles);

#endif /* HOST_REPORT_MARKUP_H */
