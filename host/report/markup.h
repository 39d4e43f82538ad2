/* What the XML-based reporters share (junit, html, svg): text escaping. How a result is named is
 * in results/results.h, shared by every format. */
#ifndef HOST_REPORT_MARKUP_H
#define HOST_REPORT_MARKUP_H

#include <stdio.h>

/* Writes S with &, <, >, " and ' escaped (XML 1.0 section 2.4); control characters other than
 * tab/newline become spaces since XML 1.0 cannot carry them. Returns 0 or -1 on a write error. */
int markup_xml_puts(FILE *out, const char *s);

#endif /* HOST_REPORT_MARKUP_H */
