/* One error type for the whole host tool: a kind (which maps to a documented exit code, see
 * docs/exit-codes.md) and a one-line message that says what to do next. Functions that can fail
 * return an int (0 or a negative bench_err) and fill a struct bench_error the caller owns. */
#ifndef HOST_BASE_ERROR_H
#define HOST_BASE_ERROR_H

#include <stddef.h>

enum bench_err {
	BENCH_OK = 0,
	BENCH_E_USAGE,        /* bad command line */
	BENCH_E_FILE,         /* a file is missing or unreadable */
	BENCH_E_ELF,          /* not an ELF, or a broken one */
	BENCH_E_ARCH,         /* an ELF for another architecture */
	BENCH_E_NO_MARKERS,   /* firmware without a marker section / table */
	BENCH_E_BOARD,        /* unknown board or a bad board file */
	BENCH_E_TOOL_MISSING, /* OpenOCD, QEMU or bench-sim not installed */
	BENCH_E_TOOL_START,   /* a helper process failed to start or died */
	BENCH_E_CONNECT,      /* nothing listening / connection lost */
	BENCH_E_PROTOCOL,     /* the peer said something we cannot parse */
	BENCH_E_TARGET,       /* the backend refused a command (flash, reset, ...) */
	BENCH_E_TIMEOUT,      /* the target did not reach the next marker in time */
	BENCH_E_FAULT,        /* the target faulted (HardFault, lockup) */
	BENCH_E_UNSUPPORTED,  /* the backend lacks a capability the run needs */
	BENCH_E_REPORT,       /* a report file is unreadable or of another schema */
	BENCH_E_REGRESSION,   /* compare found a regression beyond the threshold */
	BENCH_E_INTERRUPTED,  /* SIGINT / SIGTERM */
	BENCH_E_IO,           /* writing output failed */
	BENCH_E_NOMEM,
	BENCH_E_INTERNAL,
	BENCH_E_COUNT
};

/* Who can act on an error, so call sites ask one question instead of listing kinds:
 * the user (bad input, a missing tool, Ctrl-C), the link to the debug server or its children,
 * the target (it refused, timed out or faulted), or bench itself. */
enum bench_err_class {
	BENCH_CLASS_USER,
	BENCH_CLASS_LINK,
	BENCH_CLASS_TARGET,
	BENCH_CLASS_INTERNAL,
};

struct bench_error {
	enum bench_err kind;
	char msg[1024];
};

/* Sets kind and a printf-style message; returns -(int)kind so callers can `return bench_fail(...)`. */
int bench_fail(struct bench_error *err, enum bench_err kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void bench_error_clear(struct bench_error *err);
/* Short name of a kind ("timeout"), as used in the JSON report's "status_detail". */
const char *bench_err_name(enum bench_err kind);
/* The process exit code for a kind (docs/exit-codes.md). */
int bench_exit_code(enum bench_err kind);
/* The class of a kind (BENCH_CLASS_INTERNAL for an unknown one). */
enum bench_err_class bench_err_class(enum bench_err kind);

#endif /* HOST_BASE_ERROR_H */
