/* Everything a run starts or attaches to, and nothing it measures: the debug backend (attached to a
 * running OpenOCD or gdbserver, or to one bench starts), the children bench started (bench-sim,
 * OpenOCD, QEMU), the work folder with their logs, and the virtual board's 64-bit clock. The marker
 * loop (run/loop.h) only sees the backend and the answers to session_children_alive() and
 * session_sim_cycles(). Stopped on every exit path by session_close(). */
#ifndef HOST_SESSION_SESSION_H
#define HOST_SESSION_SESSION_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/cancel.h"
#include "base/error.h"
#include "session/openocd_proc.h"
#include "session/sim_log.h"
#include "transport/backend.h"

struct board;
struct proc;
struct sim_record_reader;

struct session_opts {
	const struct board *board; /* NULL when attaching with only --openocd or --gdb */
	const char *gdb;           /* "HOST:PORT" of a gdbserver to attach to */
	const char *openocd;       /* "HOST:PORT" of a running OpenOCD's TCL port to attach to */
	const char *probe;         /* OpenOCD `adapter serial` */
	const char *openocd_bin, *sim_bin;
	const char *work_dir; /* --work-dir; NULL: a fresh folder under $TMPDIR, removed after a good run */
	uint16_t tcl_port;    /* 0: the one OpenOCD binds for `tcl_port 0` */
	const char *elf_abs;  /* the firmware, absolute (QEMU loads it; bench-sim may start with it) */
	bool icount;          /* QEMU boards: -icount with record/replay into WORK_DIR/qemu.rr (--icount) */
	const char *arch;     /* its core family, elf_arch(): "cortex-m" or "tricore" (the RSP register layout) */
	bool allow_preload;   /* the virtual board may start holding elf_abs (BENCH_SIM_PRELOAD=0: not) */
	const char *const *sim_opts; /* --sim-opt: more bench-sim options, each split at spaces */
	size_t n_sim_opts;
	struct bench_cancel cancel; /* handed to the backend */
	/* The virtual board writes its halt records (session/sim_record.h) to WORK_DIR/sim-record:
	 * the run sets it for exact profiles, stack depth and code size. Refused for other boards. */
	bool want_record;
};

struct session {
	struct backend bk;
	bool bk_open;
	struct openocd_proc ocd;
	bool ocd_started;
	struct proc *qemu;
	int sim_clock_fd;       /* bench-sim's control port (session/sim_clock.h), or -1 */
	struct sim_log sim_log; /* bench-sim's log read as it grows (session/sim_log.h) */
	bool sim_log_on;        /* there is a bench-sim log to read */
	char work_dir[PATH_MAX];
	bool own_work_dir;
	int work_dir_lock;          /* --work-dir's bench.lock (session/workdir.h), or -1 */
	bool preloaded;             /* bench-sim started holding elf_abs: nothing to program or verify */
	char record_path[PATH_MAX]; /* want_record: WORK_DIR/sim-record; "" otherwise */
	char server_version[128];
	char transport[8]; /* the started OpenOCD's wire: "dap", "hla", "jtag" (session_transport_name); "" else */
};

/* The report's transport name ("dap", "hla", "jtag") for an OpenOCD session transport name
 * ("dapdirect_swd", "hla_swd", "jtag", ...), or NULL for one it does not know. */
const char *session_transport_name(const char *ocd);

/* Starts or attaches and checks that the server answers. 0 or a negated bench_err; what was
 * started stays recorded in s for session_close() either way. */
int session_open(struct session *s, const struct session_opts *o, struct bench_error *err);
/* 0 while every child bench started runs; else BENCH_E_CONNECT naming the one that exited. One
 * WNOHANG waitpid per child: cheap enough between two slices of a halt wait. */
int session_children_alive(struct session *s, struct bench_error *err);
/* Whether the virtual board is gone, for a run that failed with err: then err is rewritten as the
 * lost board (BENCH_E_CONNECT). A killed bench-sim's sockets close before it can be reaped, so
 * OpenOCD may report a failed resume while waitpid still sees it: when its control port no longer
 * answers either, it is given 500 ms to be reaped. True when err was rewritten. */
bool session_explain_loss(struct session *s, struct bench_error *err);
/* Appends " (OpenOCD log: ...)" with OpenOCD's last error lines to err's message, if any. */
void session_annotate(struct session *s, struct bench_error *err);
/* bench-sim's 64-bit cycle count; BENCH_E_UNSUPPORTED when there is no virtual board clock. */
int session_sim_cycles(struct session *s, uint64_t *cycles, struct bench_error *err);
/* The same, with the count of exceptions the virtual core has taken (session/sim_clock.h). */
int session_sim_stats(struct session *s, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err);
/* The same answer with the count of core resets too (one `stats`). */
int session_sim_stats_resets(struct session *s, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets,
                             struct bench_error *err);
/* The virtual board's count of core resets of any cause (bench-sim `stats` resets=). */
int session_sim_resets(struct session *s, uint64_t *resets, struct bench_error *err);
bool session_has_sim_clock(const struct session *s);
/* want_record: a reader of the virtual board's halt records (session/sim_record.h), for the run
 * loop to read the record of each halt after it sees the halt; the caller closes it. 0, or
 * BENCH_E_UNSUPPORTED when the session was opened without want_record. */
int session_open_record(struct session *s, struct sim_record_reader **out, struct bench_error *err);
/* Resets of the target neither bench nor OpenOCD made, from the log of the OpenOCD bench started
 * (openocd_log_resets()); BENCH_E_UNSUPPORTED when bench started none (--openocd, --gdb, QEMU). */
int session_log_resets(struct session *s, uint64_t *count, struct bench_error *err);
bool session_has_ocd_log(const struct session *s);
/* Hands bench-sim's new log lines to fn (the firmware's "uart: " lines, its "bench-sim: note: " lines); nothing
 * without a virtual board bench started. */
void session_sim_output(struct session *s, sim_log_line_fn fn, void *ctx);
/* What the virtual board has at addr (bench-sim's `where`); false without one or when it does not answer. */
bool session_name_addr(struct session *s, uint32_t addr, char *out, size_t len);
/* Stops everything started (backend, OpenOCD, bench-sim, QEMU). Safe to call twice. */
void session_close(struct session *s);
/* After a good run: removes the work folder bench made. After a failed one, keeps it and appends
 * " (logs kept in DIR)" to err's message unless it says so already. */
void session_finish_work_dir(struct session *s, int rc, struct bench_error *err);

#endif /* HOST_SESSION_SESSION_H */
