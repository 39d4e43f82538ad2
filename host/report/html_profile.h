/* The HTML page's exact profiles (bench run --profile on the virtual board, docs/profile.md): per
 * profile its functions and the annotated listing, each instruction's disassembly under its source
 * line with its executions, cycles and main ledger reasons. */
#ifndef HOST_REPORT_HTML_PROFILE_H
#define HOST_REPORT_HTML_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

/* The styles of the listing, for the page's <style>. */
#define HTML_PROFILE_CSS                                                                                               \
	".asm td{font-size:12px;padding:1px 6px}.asm .code{font-family:monospace}\n"                                   \
	".asm .fn td{background:#eef;font-weight:bold}.asm .src td{font-family:monospace;color:#555}\n"                \
	".bar{height:10px;background:#1f77b4}\n"

/* Whether rep has an exact profile (a section to write). */
bool html_profile_any(const struct bench_report *rep);
/* Writes a section per exact profile of rep (nothing when it has none); the stream's error
 * indicator says whether it worked (html.c checks it once). */
void html_profile(FILE *out, const struct bench_report *rep);

#endif /* HOST_REPORT_HTML_PROFILE_H */
