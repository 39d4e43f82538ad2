/* What the reporters share for text: XML escaping (junit, html, svg) and UTF-8 repair (every
 * format). A firmware path or marker name is whatever bytes the file system or ELF held; a report
 * must stay valid XML or JSON whatever they are (issue 26, class 7). How a result is named is in
 * results/results.h, shared by every format. */
#ifndef HOST_REPORT_MARKUP_H
#define HOST_REPORT_MARKUP_H

#include <stddef.h>
#include <stdio.h>

/* Writes S with &, <, >, " and ' escaped (XML 1.0 section 2.4); control characters other than
 * tab/newline become spaces since XML 1.0 cannot carry them (section 2.2, Char: not even as a
 * character reference), and a byte that is not part of valid UTF-8 becomes U+FFFD. Returns 0 or
 * -1 on a write error. */
int markup_xml_puts(FILE *out, const char *s);
/* The length (1 to 4) of the well-formed UTF-8 sequence at S (RFC 3629 section 4: no overlong
 * form, no surrogate, nothing above U+10FFFF), 0 when S does not start one. S is NUL-terminated. */
size_t markup_utf8_len(const char *s);
/* True when S is well-formed UTF-8 throughout. */
int markup_utf8_valid(const char *s);
/* S with every byte that is not part of well-formed UTF-8 replaced by U+FFFD (the Unicode
 * Standard's "substitution of maximal subparts" is not needed: one U+FFFD per bad byte), in a new
 * buffer from MALLOC_FN (free with its pair); NULL when out of memory. */
char *markup_utf8_repair(const char *s, void *(*malloc_fn)(size_t));

#endif /* HOST_REPORT_MARKUP_H */
