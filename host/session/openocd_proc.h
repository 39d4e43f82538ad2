/* Starting the debug server a run talks to: OpenOCD with a real board's config (and `adapter serial`
 * for --probe), or, for the virtual board, bench-sim plus OpenOCD with boards/sim-stm32f4/openocd.cfg,
 * over the ST-LINK bench-sim serves (dap, hla) or its remote_bitbang JTAG port (jtag).
 * Every server listens on 127.0.0.1 on a port of its own: bench-sim and OpenOCD bind port 0 and say
 * which they got (OpenOCD in its log), unless --tcl-port names one (gdb and telnet disabled). A
 * failure to start quotes the last lines of OpenOCD's log. */
#ifndef HOST_SESSION_OPENOCD_PROC_H
#define HOST_SESSION_OPENOCD_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/clock.h"

struct board;
struct proc;

struct openocd_start_opts {
	const struct board *board; /* its openocd_cfg; virtual_board: start bench-sim first */
	const char *probe_serial;  /* NULL: any probe */
	const char *work_dir;      /* where the logs and the simulator's socket go (must exist) */
	const char *openocd_bin;   /* NULL: $BENCH_OPENOCD, else "openocd" from PATH */
	const char *sim_bin;       /* NULL: $BENCH_SIM, else bench-sim next to the bench binary */
	uint16_t tcl_port;         /* 0: the port OpenOCD binds for `tcl_port 0`, read from its log */
	const char *preload_elf;   /* virtual board: start bench-sim with this image already in flash
	                            * (`--elf`), so programming finds it verified; NULL: an empty chip */
	unsigned timeout_ms;       /* how long OpenOCD may take to answer; 0: 10000 */
	/* "dap", "hla" or "jtag" (struct board's transport); NULL: the board's. OpenOCD gets it as the Tcl
	 * variable BENCH_TRANSPORT before the board's openocd.cfg, which picks its interface from it. */
	const char *transport;
	const char *const *sim_opts; /* virtual board: more bench-sim options, each split at spaces */
	size_t n_sim_opts;
	/* Virtual board: bench-sim writes its halt records there (`--record=PATH`,
	 * session/sim_record.h); NULL: not. */
	const char *record_path;
};

struct openocd_proc {
	struct proc *sim; /* NULL for a real board */
	struct proc *ocd;
	char host[64]; /* "127.0.0.1" */
	uint16_t tcl_port;
	char log_path[1100]; /* OpenOCD's log */
	char sim_log_path[1100];
	uint16_t sim_ctl_port; /* bench-sim's control interface (docs/sim.md) on 127.0.0.1; 0: none */
	/* CPU time (user + system, seconds) each used, known after openocd_stop(): from the growth of
	 * RUSAGE_CHILDREN as each is reaped, so only exact when no other child exits meanwhile. */
	double ocd_cpu_s, sim_cpu_s;
	uint64_t sim_ready_ms, tcl_ready_ms; /* clock_now_ms() when each was listening (0: not started) */
	long reset_scan_off;                 /* openocd_log_resets(): the log read up to here (whole lines) */
	uint64_t reset_lines;                /* and the "external reset detected" lines seen in it */
	bool probe_check; /* a real board without --probe: a start that finds no adapter asks the USB bus */
};

/* Returns 0 with both running and the TCL port answering, or a negated bench_err
 * (BENCH_E_TOOL_MISSING, BENCH_E_TOOL_START with the log's last lines, BENCH_E_INTERRUPTED);
 * on failure nothing is left running. */
int openocd_start(const struct openocd_start_opts *o, struct openocd_proc *out, struct bench_error *err);
/* Asks nothing of OpenOCD: stops it and the simulator (SIGTERM, then SIGKILL). Safe to call twice. */
void openocd_stop(struct openocd_proc *p);
/* The last `max` lines of OpenOCD's log that start with "Error:", joined with " | " ("" if none):
 * OpenOCD logs why a command failed, while the command's Tcl result often does not say. */
void openocd_log_errors(const struct openocd_proc *p, unsigned max, char *out, size_t len);
/* One line of OpenOCD's log: 0 and *port when it is OpenOCD's (0.11 and later) "Listening on port N for SERVICE
 * connections" (src/server/server.c add_service(), the port read back with getsockname(), so it is
 * the real one after `tcl_port 0`), at any debug_level; -1 for any other line. */
int openocd_log_listen_port(const char *line, const char *service, uint16_t *port);
/* How many resets OpenOCD did not make itself it has seen on the target: the "external reset
 * detected" lines of its log, read on from where the last call stopped (whole lines only). OpenOCD
 * 0.12's cortex_m_poll() logs that line (Info, flushed at once) when the DHCSR.S_RESET_ST it reads and
 * cumulates (dcb_dhcsr_cumulated_sticky, src/target/cortex_m.c) shows a reset while the target is
 * not already in its own reset (its `reset` sets TARGET_RESET first: no line). Its polling reads, and
 * so clears, S_RESET_ST before bench could, so the line is the only trace. 0, or BENCH_E_TOOL_START
 * when the log cannot be read. */
int openocd_log_resets(struct openocd_proc *p, uint64_t *count, struct bench_error *err);
/* What to do next when OpenOCD failed to start, from its log's errors (openocd_log_errors()): a
 * known cause's own advice, else "check the board, the probe and its USB permissions". */
const char *openocd_start_advice(const char *errors);
/* Fails err with BENCH_E_TOOL_START (exit 4): "OpenOCD failed to start[: it HOW] (log PATH: its
 * errors or last lines): ADVICE". how: NULL, or how the process ended ("exited with status 1").
 * Returns -BENCH_E_TOOL_START. */
int openocd_fail_start(const struct openocd_proc *p, const char *how, struct bench_error *err);
/* The bench-sim binary: $BENCH_SIM, else next to /proc/self/exe (bench-sim, sim/bench-sim, ../bench-sim). */
int openocd_find_sim(char *out, size_t len, struct bench_error *err);

#endif /* HOST_SESSION_OPENOCD_PROC_H */
