/* Helpers shared by the reporters; see markup.h. */
#include "report/markup.h"

#include <string.h>

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD REPLACEMENT CHARACTER in UTF-8 */

size_t markup_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned lo = 0x80, hi = 0xBF; /* the second byte's range (RFC 3629 section 4, UTF8-2..4) */
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		n = 2;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF)
		n = 3;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		n = 4;
	else
		return 0; /* a continuation byte, C0/C1 (overlong) or F5..FF (beyond U+10FFFF) */
	if (p[0] == 0xE0)
		lo = 0xA0; /* overlong below U+0800 */
	else if (p[0] == 0xED)
		hi = 0x9F; /* U+D800..DFFF: surrogates */
	else if (p[0] == 0xF0)
		lo = 0x90; /* overlong below U+10000 */
	else if (p[0] == 0xF4)
		hi = 0x8F; /* above U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF) /* also stops at the NUL */
			return 0;
	return n;
}

int markup_utf8_valid(const char *s)
{
	for (size_t n; *s; s += n)
		if (!(n = markup_utf8_len(s)))
			return 0;
	return 1;
}

char *markup_utf8_repair(const char *s, void *(*malloc_fn)(size_t))
{
	size_t len = strlen(s), o = 0;
	char *out = malloc_fn(3 * len + 1); /* each byte at most becomes 3 */

	if (!out)
		return NULL;
	while (*s) {
		size_t n = markup_utf8_len(s);
		if (n) {
			memcpy(out + o, s, n);
			o += n;
			s += n;
		} else {
			memcpy(out + o, REPLACEMENT, 3);
			o += 3;
			s++;
		}
	}
	out[o] = '\0';
	return out;
}

/* U+FFFE and U+FFFF are no XML 1.0 Char (section 2.2) although valid UTF-8: EF BF BE/BF. */
static int xml_noncharacter(const unsigned char *p, size_t n)
{
	return n == 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF);
}

int markup_xml_puts(FILE *out, const char *s)
{
	while (*s) {
		const char *rep = NULL;
		unsigned char c = (unsigned char)*s;
		size_t n = markup_utf8_len(s);

		if (!n || xml_noncharacter((const unsigned char *)s, n)) {
			if (fputs(REPLACEMENT, out) == EOF)
				return -1;
			s += n ? n : 1;
			continue;
		}
		if (n > 1) {
			if (fwrite(s, 1, n, out) != n)
				return -1;
			s += n;
			continue;
		}
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
		s++;
	}
	return 0;
}
