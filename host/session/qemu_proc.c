/* QEMU as a debug peer (see qemu_proc.h): qemu-system-arm (or the board's qemu_system) with its gdbstub on a free
 * 127.0.0.1 port, the CPU held at reset (-S) until the gdb_rsp backend connects. Process control (process group, log
 * file, stop on every exit path and on SIGINT) is host/session/proc.c's. */
#include "session/qemu_proc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/str.h"
#include "firmware/board.h"
#include "session/proc.h"

#define QEMU_START_TIMEOUT_MS 5000u
#define QEMU_STOP_GRACE_MS    1000u
#define QEMU_PORT_ATTEMPTS    3

static int start_once(const struct qemu_opts *o, uint16_t port, const char *log, struct proc **out,
                      struct bench_error *err)
{
	char gdb[64], tail[512], icount[PATH_MAX + 64], hint[96];
	const char *argv[16], *bin = o->binary ? o->binary : "qemu-system-arm";
	size_t n = 0;
	int rc;

	(void)snprintf(gdb, sizeof(gdb), "tcp:127.0.0.1:%u", (unsigned)port);
	argv[n++] = bin;
	argv[n++] = "-M";
	argv[n++] = o->machine;
	argv[n++] = "-nographic";
	/* The HMP monitor stays reachable through the gdbstub (qRcmd); no second one on stdio. */
	argv[n++] = "-monitor";
	argv[n++] = "none";
	argv[n++] = "-S"; /* halted at reset until the debugger continues it */
	argv[n++] = "-gdb";
	argv[n++] = gdb;
	argv[n++] = "-kernel";
	argv[n++] = o->elf;
	if (o->icount) {
		/* 2^0 ns of virtual time per instruction: virtual time counts instructions, not cycles. */
		argv[n++] = "-icount";
		/* Record/replay counts every executed instruction exactly (`info replay`, QEMU's
		 * docs/devel/replay.rst); plain icount only keeps time by it. */
		if (o->rr_file)
			(void)snprintf(icount, sizeof(icount), "shift=0,rr=record,rrfile=%s", o->rr_file);
		else
			(void)snprintf(icount, sizeof(icount), "shift=0");
		argv[n++] = icount;
	}
	argv[n] = NULL;
	/* Debian ships qemu-system-tricore in qemu-system-misc, qemu-system-arm in its own package. */
	(void)snprintf(hint, sizeof(hint), "install it with: apt-get install %s",
	               strcmp(bin, "qemu-system-arm") ? "qemu-system-misc" : "qemu-system-arm");
	rc = proc_start(argv, log, NULL, hint, out, err);
	if (rc < 0)
		return rc;
	rc = proc_wait_port("127.0.0.1", port, *out, QEMU_START_TIMEOUT_MS, err);
	if (rc < 0) {
		proc_log_tail(log, 3, tail, sizeof(tail));
		proc_stop(*out, QEMU_STOP_GRACE_MS);
		*out = NULL;
		/* The message is extended, not formatted from itself: vsnprintf from the buffer it writes
		 * is undefined (C11 7.21.6.12) and garbled it. */
		if (tail[0])
			(void)str_append(err->msg, sizeof(err->msg), "; %s said: %s", bin, tail);
		return rc;
	}
	return 0;
}

int qemu_start_opts(const struct qemu_opts *o, char *host_port_out, size_t len, struct proc **out,
                    struct bench_error *err)
{
	char log[] = "/tmp/bench-qemu-XXXXXX.log";
	int fd, rc = 0;

	*out = NULL;
	if (access(o->elf, R_OK) != 0)
		return bench_fail(err, BENCH_E_FILE, "cannot read firmware %s: check the path", o->elf);
	fd = mkstemps(log, 4);
	if (fd < 0)
		return bench_fail(err, BENCH_E_IO, "cannot create a log file for QEMU in /tmp");
	close(fd);
	/* A free port may be taken again before QEMU binds it: try a fresh one a few times. */
	for (int attempt = 0; attempt < QEMU_PORT_ATTEMPTS; attempt++) {
		uint16_t port;

		rc = proc_free_port(&port, err);
		if (rc < 0)
			break;
		rc = start_once(o, port, log, out, err);
		if (rc == 0) {
			(void)snprintf(host_port_out, len, "127.0.0.1:%u", (unsigned)port);
			return 0;
		}
		if (err->kind != BENCH_E_TOOL_START)
			break;
	}
	return rc;
}

int qemu_start(const struct board *b, const char *elf, const char *rr_file, char *host_port_out, size_t len,
               struct proc **out, struct bench_error *err)
{
	/* boards/qemu-<machine>/: the folder name after "qemu-" is QEMU's -M machine name. */
	struct qemu_opts o = {
	    .binary = b->qemu_system, .machine = b->name, .elf = elf, .icount = rr_file != NULL, .rr_file = rr_file};

	if (strcmp(b->backend, "qemu"))
		return bench_fail(err, BENCH_E_BOARD, "board %s is not a QEMU board (\"backend\": \"%s\")", b->name,
		                  b->backend);
	if (b->qemu_machine[0])
		o.machine = b->qemu_machine;
	else if (!strncmp(b->name, "qemu-", 5))
		o.machine = b->name + 5;
	return qemu_start_opts(&o, host_port_out, len, out, err);
}

void qemu_stop(struct proc *p)
{
	char log[1024];

	if (!p)
		return;
	(void)snprintf(log, sizeof(log), "%s", proc_log_path(p));
	proc_stop(p, QEMU_STOP_GRACE_MS);
	if (log[0] && unlink(log) != 0)
		log[0] = '\0'; /* already gone: nothing to clean */
}
