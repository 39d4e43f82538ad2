/* Helpers shared by the CI reporters; see markup.h. */
#include "report/markup.h"

#include <string.h>

int markup_xml_puts(FILE *out, const char *s)
{
	for (; *s; s++) {
		const char *rep = NULL;
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			break;
		}
		if (rep) {
			if (fputs(rep, out) == EOF)
				return -1;
		} else if (putc(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c, out) == EOF) {
			return -1;
		}
	}
	return 0;
}
