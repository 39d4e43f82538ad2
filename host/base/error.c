/* Error kinds, their names and exit codes (docs/exit-codes.md is the user-facing copy). */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/str.h"

static const struct {
	const char *name;
	int exit_code;
	enum bench_err_class cls;
} err_table[BENCH_E_COUNT] = {
    [BENCH_OK] = {"ok", 0, BENCH_CLASS_USER},
    [BENCH_E_USAGE] = {"usage", 2, BENCH_CLASS_USER},
    [BENCH_E_FILE] = {"file", 3, BENCH_CLASS_USER},
    [BENCH_E_ELF] = {"elf", 3, BENCH_CLASS_USER},
    [BENCH_E_ARCH] = {"arch", 3, BENCH_CLASS_USER},
    [BENCH_E_NO_MARKERS] = {"no-markers", 3, BENCH_CLASS_USER},
    [BENCH_E_BOARD] = {"board", 2, BENCH_CLASS_USER},
    [BENCH_E_TOOL_MISSING] = {"tool-missing", 4, BENCH_CLASS_USER},
    [BENCH_E_TOOL_START] = {"tool-start", 4, BENCH_CLASS_LINK},
    [BENCH_E_CONNECT] = {"connect", 4, BENCH_CLASS_LINK},
    [BENCH_E_PROTOCOL] = {"protocol", 4, BENCH_CLASS_LINK},
    [BENCH_E_TARGET] = {"target", 5, BENCH_CLASS_TARGET},
    [BENCH_E_TIMEOUT] = {"timeout", 5, BENCH_CLASS_TARGET},
    [BENCH_E_FAULT] = {"fault", 5, BENCH_CLASS_TARGET},
    [BENCH_E_UNSUPPORTED] = {"unsupported", 4, BENCH_CLASS_USER},
    [BENCH_E_REPORT] = {"report", 2, BENCH_CLASS_USER},
    [BENCH_E_REGRESSION] = {"regression", 1, BENCH_CLASS_USER},
    [BENCH_E_INTERRUPTED] = {"interrupted", 130, BENCH_CLASS_USER},
    [BENCH_E_IO] = {"io", 6, BENCH_CLASS_INTERNAL},
    [BENCH_E_NOMEM] = {"nomem", 6, BENCH_CLASS_INTERNAL},
    [BENCH_E_INTERNAL] = {"internal", 6, BENCH_CLASS_INTERNAL},
};

int bench_fail(struct bench_error *err, enum bench_err kind, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->kind = kind;
		va_start(ap, fmt);
		str_vfmt_cut(err->msg, sizeof(err->msg), fmt, ap); /* a message too long ends in "..." */
		va_end(ap);
	}
	return -(int)kind;
}

void bench_error_clear(struct bench_error *err)
{
	err->kind = BENCH_OK;
	err->msg[0] = '\0';
}

const char *bench_err_name(enum bench_err kind)
{
	if ((unsigned)kind >= BENCH_E_COUNT || !err_table[kind].name)
		return "internal";
	return err_table[kind].name;
}

int bench_exit_code(enum bench_err kind)
{
	if ((unsigned)kind >= BENCH_E_COUNT)
		return 6;
	return err_table[kind].exit_code;
}

enum bench_err_class bench_err_class(enum bench_err kind)
{
	if ((unsigned)kind >= BENCH_E_COUNT)
		return BENCH_CLASS_INTERNAL;
	return err_table[kind].cls;
}
