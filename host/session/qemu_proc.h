/* QEMU as a debug peer: starts qemu-system-arm with its gdbstub on a free 127.0.0.1 port,
 * halted at reset (-S), and stops it on every exit path. The gdb_rsp backend then connects to
 * the returned HOST:PORT. */
#ifndef HOST_SESSION_QEMU_PROC_H
#define HOST_SESSION_QEMU_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct board;
struct proc;

struct qemu_opts {
	const char *binary;  /* "qemu-system-arm" (NULL: that), "qemu-system-tricore" */
	const char *machine; /* -M, "mps2-an386", "KIT_AURIX_TC277_TRB" */
	const char *elf;     /* -kernel */
	bool icount;         /* -icount shift=0: one instruction per virtual ns (instruction counts, not cycles) */
	const char *rr_file; /* with icount: record into this file (rr=record), so `info replay` gives the exact
	                      * instruction count; NULL: no record/replay */
};

/* rr_file non-NULL: -icount shift=0 with record/replay into that file (exact instruction counts
 * through `info replay`). */
/* Starts QEMU for board b (board.json "backend": "qemu"; "qemu_system" names the emulator,
 * "qemu_machine" the machine, by default the board name without its "qemu-" prefix) with kernel elf. Writes
 * "127.0.0.1:PORT" to host_port_out; *out is the running process, stopped with qemu_stop(). Returns 0 or a negated
 * bench_err (BENCH_E_TOOL_MISSING: the emulator is not installed; BENCH_E_TOOL_START: it exited early, the message
 * carries the last lines of its output). */
int qemu_start(const struct board *b, const char *elf, const char *rr_file, char *host_port_out, size_t len,
               struct proc **out, struct bench_error *err);
/* The same with explicit options, for callers without a board. */
int qemu_start_opts(const struct qemu_opts *o, char *host_port_out, size_t len, struct proc **out,
                    struct bench_error *err);
/* Stops a QEMU started above (SIGTERM, then SIGKILL after a deadline) and frees *p; NULL-safe. */
void qemu_stop(struct proc *p);

#endif /* HOST_SESSION_QEMU_PROC_H */
