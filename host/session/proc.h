/* Child processes the host starts (OpenOCD, bench-sim, QEMU): each in its own process group with
 * stdout and stderr going to a log file, stopped on every exit path: explicitly (proc_stop), at
 * exit (atexit), and when the host dies (PR_SET_PDEATHSIG). SIGINT/SIGTERM only set a flag
 * (proc_interrupted) that long waits poll, so the run can write its report before it exits 130.
 * Thread-safe: the live-process list is guarded by a mutex, so a farm may start boards in threads. */
#ifndef HOST_SESSION_PROC_H
#define HOST_SESSION_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

struct proc;

/* Starts argv[0] (searched in PATH when it has no '/') with argv, stdin from /dev/null, stdout and
 * stderr appended to log_path (NULL: /dev/null), in directory cwd (NULL: unchanged). The program
 * missing is BENCH_E_TOOL_MISSING ("<prog> not found: install it with ..." uses install_hint).
 * Returns 0 or a negated bench_err. */
int proc_start(const char *const argv[], const char *log_path, const char *cwd, const char *install_hint,
               struct proc **out, struct bench_error *err);
/* SIGTERM to the group, waits up to grace_ms, then SIGKILL; reaps and frees. NULL-safe. */
void proc_stop(struct proc *p, unsigned grace_ms);
/* True while the child runs; when it has exited, *status (may be NULL) gets its wait status
 * (0 for a NULL P, which is never running). */
bool proc_alive(struct proc *p, int *status);
pid_t proc_pid(const struct proc *p);
const char *proc_log_path(const struct proc *p);
/* "exited with status 1" / "killed by signal 9" for a wait status. */
void proc_describe_status(int status, char *out, size_t len);

/* A free TCP port on 127.0.0.1 (bound, read back, closed). Returns 0 or a negated bench_err. */
int proc_free_port(uint16_t *port, struct bench_error *err);
/* Polls until host:port accepts a TCP connection, p dies (BENCH_E_TOOL_START), timeout_ms passes
 * (BENCH_E_TOOL_START), or SIGINT/SIGTERM arrives (BENCH_E_INTERRUPTED). p may be NULL. */
int proc_wait_port(const char *host, uint16_t port, struct proc *p, unsigned timeout_ms, struct bench_error *err);
/* Polls until a line starting with prefix appears in p's log; copies the rest of that line (without
 * the prefix and newline) into out. Same errors as proc_wait_port. */
int proc_wait_log_line(struct proc *p, const char *prefix, char *out, size_t len, unsigned timeout_ms,
                       struct bench_error *err);
/* The same for the first whole line (newline cut) that match() accepts (returns true); what names
 * the line in a timeout error. */
typedef bool (*proc_line_match)(const char *line, void *ctx);
int proc_wait_log_match(struct proc *p, proc_line_match match, void *ctx, const char *what, unsigned timeout_ms,
                        struct bench_error *err);
/* The last `lines` lines of a log file, joined with " | ", into out ("" when unreadable). */
void proc_log_tail(const char *log_path, unsigned lines, char *out, size_t len);

/* Installs SIGINT/SIGTERM handlers (set the flag; a second signal stops every child and exits 130)
 * and the atexit hook. Idempotent. */
void proc_install_signal_handlers(void);
bool proc_interrupted(void);
/* Clears the flag (tests). */
void proc_clear_interrupted(void);

#endif /* HOST_SESSION_PROC_H */
