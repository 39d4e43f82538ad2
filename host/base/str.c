/* See str.h. vsnprintf always terminates a buffer of LEN > 0 (C11 7.21.6.12), so a cut text is
 * still a string; the functions only add the checking. */
#include "base/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool str_fits(int n, size_t len)
{
	return n >= 0 && (size_t)n < len;
}

static int vfmt(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n;

	if (!len)
		return -1;
	n = vsnprintf(buf, len, fmt, ap);
	if (n < 0) {
		buf[0] = '\0';
		return -1;
	}
	return str_fits(n, len) ? 0 : -1;
}

int str_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfmt(buf, len, fmt, ap);
	va_end(ap);
	return rc;
}

int str_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;
	int rc;

	if (used >= len)
		return -1;
	va_start(ap, fmt);
	rc = vfmt(buf + used, len - used, fmt, ap);
	va_end(ap);
	return rc;
}

char *str_fmt_cut(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	str_vfmt_cut(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

char *str_vfmt_cut(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n;

	if (!len)
		return buf;
	n = vsnprintf(buf, len, fmt, ap);
	if (n < 0) {
		(void)str_copy(buf, len, "?"); /* LEN >= 1: "?" or "" both fit the meaning */
	} else if (!str_fits(n, len) && len > 3) {
		memcpy(buf + len - 4, "...", 4);
	}
	return buf;
}

int str_copy(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!len)
		return -1;
	n = strnlen(src, len);
	if (n == len) {
		memcpy(dst, src, len - 1);
		dst[len - 1] = '\0';
		return -1;
	}
	memcpy(dst, src, n + 1);
	return 0;
}
