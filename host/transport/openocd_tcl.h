/* The OpenOCD TCL RPC backend (OpenOCD manual, "Tcl RPC server"; src/server/tcl_server.c): each
 * command is sent terminated by 0x1a and the reply, terminated by 0x1a, is only the command's
 * result string. Errors are not marked, so every command is wrapped as
 * `if {[catch {CMD} r]} {list E $r} else {list O $r}`. Every string that reaches Tcl is quoted
 * with tcl_quote() (braces, with backslash escapes where braces cannot be used). */
#ifndef HOST_TRANSPORT_OPENOCD_TCL_H
#define HOST_TRANSPORT_OPENOCD_TCL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transport/backend.h"

/* Connects to HOST:PORT (or ":PORT" / "PORT" for 127.0.0.1) and fills *bk. Capabilities:
 * HALT_ON_BKPT, CYCCNT, FLASH, HW_BREAK, RESET, MONITOR (OpenOCD halts on BKPT with C_DEBUGEN).
 * Returns 0 or a negated bench_err (BENCH_E_CONNECT). */
int tcl_backend_open(struct backend *bk, const char *host_port, unsigned timeout_ms, struct bench_error *err);
/* Per-exchange timeout in ms (default 10000; `program` and `reset` get 60000). */
void tcl_backend_set_timeout(struct backend *bk, unsigned timeout_ms);

/* Sends script and returns its result; a Tcl error becomes BENCH_E_TARGET with OpenOCD's message.
 * For callers with a command the ops struct lacks. */
int tcl_eval(struct backend *bk, const char *script, char *out, size_t outlen, struct bench_error *err);

/* Quotes s as one Tcl word into out: "{s}" when braces are safe (balanced, no backslash before a
 * brace, no trailing backslash), else with backslashes before every special character. Returns the
 * length, or -1 when out is too small. */
int tcl_quote(const char *s, char *out, size_t len);
/* Splits a reply of the wrapper above: *is_error set for "E", *body points into reply at the
 * (unbraced) result. Returns 0, or -1 for a reply not of that form. Modifies reply in place. */
int tcl_parse_reply(char *reply, bool *is_error, char **body);
/* Parses a Tcl list of integers ("0x1 22 0x33"): returns how many were stored, -1 on junk. */
int tcl_parse_u32_list(const char *s, uint32_t *out, size_t max);

#endif /* HOST_TRANSPORT_OPENOCD_TCL_H */
