/* The text side of OpenOCD's TCL RPC (openocd_tcl.h): quoting a word for Tcl, reading its
 * integer lists and HOST:PORT. Pure string work, no socket: tests/host drives it directly,
 * and openocd_tcl.c calls it; nothing here calls back. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "transport/openocd_tcl.h"
#include "transport/openocd_tcl_priv.h"

int tcl_quote(const char *s, char *out, size_t len)
{
	size_t n = 0;
	bool brace_ok = !strpbrk(s, "{}\\\n\r");

	if (brace_ok) {
		size_t sl = strlen(s);
		if (sl + 3 > len)
			return -1;
		out[0] = '{';
		memcpy(out + 1, s, sl);
		out[sl + 1] = '}';
		out[sl + 2] = '\0';
		return (int)(sl + 2);
	}
	/* Backslash-escape every character that is not plainly safe (Tcl(n) rule [9]: "\x" for a
	 * non-special x is x itself); newlines become \n, never backslash-newline. */
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		             c == '.' || c == '/' || c == '-';
		const char *rep = NULL;
		char tmp[8];
		if (c == '\n')
			rep = "\\n";
		else if (c == '\r')
			rep = "\\r";
		else if (c < 0x20 || c == 0x7f) {
			tmp[0] = '\\', tmp[1] = 'x', tmp[2] = "0123456789abcdef"[c >> 4];
			tmp[3] = "0123456789abcdef"[c & 15], tmp[4] = '\0';
			rep = tmp;
		}
		if (rep) {
			size_t rl = strlen(rep);
			if (n + rl + 1 > len)
				return -1;
			memcpy(out + n, rep, rl);
			n += rl;
			continue;
		}
		if (n + (plain ? 1 : 2) + 1 > len)
			return -1;
		if (!plain)
			out[n++] = '\\';
		out[n++] = (char)c;
	}
	if (n == 0) {
		if (len < 3)
			return -1;
		memcpy(out, "{}", 3);
		return 2;
	}
	out[n] = '\0';
	return (int)n;
}

int tcl_parse_u32_list(const char *s, uint32_t *out, size_t max)
{
	size_t n = 0;

	for (;;) {
		char *end;
		unsigned long long v;
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '{' || *s == '}')
			s++;
		if (!*s)
			return (int)n;
		if (*s == '-' || *s == '+')
			return -1;
		errno = 0;
		v = strtoull(s, &end, 0);
		if (end == s || errno || v > 0xffffffffull ||
		    (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r' && *end != '}'))
			return -1;
		if (n == max)
			return -1;
		out[n++] = (uint32_t)v;
		s = end;
	}
}

int tcl_split_host_port(const char *hp, char *host, size_t hlen, char *port, size_t plen)
{
	const char *colon = strrchr(hp, ':');

	if (!colon || colon == hp) {
		if (str_copy(host, hlen, "127.0.0.1"))
			return -1;
		if (!colon)
			colon = hp - 1;
	} else {
		size_t n = (size_t)(colon - hp);
		if (n >= hlen)
			return -1;
		memcpy(host, hp, n);
		host[n] = '\0';
	}
	if (!colon[1] || strlen(colon + 1) >= plen || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -1;
	return str_copy(port, plen, colon + 1); /* the length was checked above */
}
