/* Formatting into fixed-size buffers with snprintf's result checked (C11 7.21.6.5: it returns the
 * length the whole text needed, or a negative value on an encoding error; clang-tidy cert-err33-c
 * asks for it to be used). Every call site says which of two kinds it is:
 *  - text that must arrive whole (a path, a name that is looked up or compared, a number a tool
 *    parses): str_fmt() returns -1 when it did not fit, and the caller fails with an error;
 *  - text for people (a table cell, a label, a message): str_fmt_cut() cuts it visibly, ending
 *    in "...", and cannot fail. */
#ifndef HOST_BASE_STR_H
#define HOST_BASE_STR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* 0 when the text fitted; -1 when it was cut (BUF holds what fitted, terminated) or on an encoding
 * error (BUF empty). LEN 0 writes nothing and returns -1. */
int str_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends to the string in BUF; the same result as str_fmt(). */
int str_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Formats for people: a text too long for BUF ends in "..." (when LEN > 3); an encoding error
 * leaves "?". Returns BUF. */
char *str_fmt_cut(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char *str_vfmt_cut(char *buf, size_t len, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* Copies SRC into DST as str_fmt(DST, LEN, "%s", SRC) would, without the format. */
int str_copy(char *dst, size_t len, const char *src);
/* True when snprintf's return N says the text fitted into LEN bytes. */
bool str_fits(int n, size_t len);

#endif /* HOST_BASE_STR_H */
