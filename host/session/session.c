/* See session.h. */
#include "session/session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/clock.h"
#include "firmware/board.h"
#include "session/proc.h"
#include "session/qemu_proc.h"
#include "session/sim_clock.h"
#include "session/sim_record.h"
#include "session/workdir.h"
#include "transport/gdb_rsp.h"
#include "transport/openocd_tcl.h"

/* Longest work folder: its files' paths (DIR/openocd.log, DIR/jtag.sock, a farm's DIR/BOARD/...)
 * then fit openocd_proc.h's 1100-byte buffers with room to spare. */
#define SESSION_WORK_DIR_MAX 1000

/* Room the logs need: bench-sim and OpenOCD write theirs into the work folder from their first
 * line, and on a full file system exit before they are ready with an empty log ("bench-sim exited
 * with status 1"), which names neither the folder nor the cause. */
#define SESSION_MIN_FREE (64u * 1024u)

static int check_room(const char *dir, const char *what, struct bench_error *err)
{
	struct statvfs v;

	if (statvfs(dir, &v) != 0 || (unsigned long long)v.f_bavail * v.f_frsize >= SESSION_MIN_FREE)
		return 0; /* unknown: the first write will say */
	return bench_fail(err, BENCH_E_IO,
	                  "%s %s is full (%llu bytes free, the logs need %u): free space there or set %s to "
	                  "another folder",
	                  what, dir, (unsigned long long)v.f_bavail * v.f_frsize, SESSION_MIN_FREE,
	                  strcmp(what, "TMPDIR") ? "--work-dir" : "TMPDIR");
}

static int make_work_dir(struct session *s, const char *want, struct bench_error *err)
{
	const char *tmp = getenv("TMPDIR");

	if (want) {
		if (mkdir(want, 0755) && errno != EEXIST)
			return bench_fail(err, BENCH_E_IO, "cannot create --work-dir %s: %s", want, strerror(errno));
		/* Absolute: bench-sim and OpenOCD run inside it and get paths in it (their sockets, logs),
		 * which a relative name would resolve twice (bench-sim then failed to create its socket). */
		if (!realpath(want, s->work_dir))
			return bench_fail(err, BENCH_E_IO, "cannot resolve --work-dir %s: %s", want, strerror(errno));
		/* The logs' and sockets' paths inside it must fit their buffers whole (openocd_proc.h's
		 * log_path): a cut path names a different file. */
		if (strlen(s->work_dir) > SESSION_WORK_DIR_MAX)
			return bench_fail(err, BENCH_E_USAGE,
			                  "--work-dir %.80s...: longer than %d bytes: give a shorter path", s->work_dir,
			                  SESSION_WORK_DIR_MAX);
		if (check_room(s->work_dir, "--work-dir", err))
			return -(int)err->kind;
		return workdir_lock(s->work_dir, &s->work_dir_lock, err); /* one run per folder */
	}
	if (strlen(tmp && *tmp ? tmp : "/tmp") > SESSION_WORK_DIR_MAX - 16)
		return bench_fail(err, BENCH_E_USAGE,
		                  "TMPDIR is longer than %d bytes: set a shorter TMPDIR or --work-dir",
		                  SESSION_WORK_DIR_MAX - 16);
	if (check_room(tmp && *tmp ? tmp : "/tmp", "TMPDIR", err))
		return -(int)err->kind;
	(void)snprintf(s->work_dir, sizeof(s->work_dir), "%s/bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->work_dir))
		return bench_fail(err, BENCH_E_IO, "cannot create a temporary folder in %s: %s: set TMPDIR",
		                  tmp && *tmp ? tmp : "/tmp", strerror(errno));
	s->own_work_dir = true;
	return 0;
}

static int start_openocd(struct session *s, const struct session_opts *o, char *hp, size_t hp_len,
                         struct bench_error *err)
{
	struct openocd_start_opts so = {
	    .board = o->board,
	    .probe_serial = o->probe,
	    .openocd_bin = o->openocd_bin,
	    .sim_bin = o->sim_bin,
	    .tcl_port = o->tcl_port,
	    .sim_opts = o->sim_opts,
	    .n_sim_opts = o->n_sim_opts,
	};
	int rc = make_work_dir(s, o->work_dir, err);

	if (rc)
		return rc;
	/* The virtual board comes "factory programmed" with the firmware: loading then only verifies
	 * it (docs/run.md). */
	if (o->board->virtual_board && o->allow_preload)
		so.preload_elf = o->elf_abs;
	s->preloaded = so.preload_elf != NULL;
	so.work_dir = s->work_dir;
	if (o->want_record) {
		if (snprintf(s->record_path, sizeof(s->record_path), "%s/" SIM_RECORD_FILE, s->work_dir) >=
		    (int)sizeof(s->record_path))
			return bench_fail(err, BENCH_E_USAGE, "work folder %s: too long: use a shorter --work-dir",
			                  s->work_dir);
		so.record_path = s->record_path;
	}
	if ((rc = openocd_start(&so, &s->ocd, err)))
		return rc;
	s->ocd_started = true;
	if (s->ocd.sim) {
		sim_log_init(&s->sim_log, s->ocd.sim_log_path);
		s->sim_log_on = true;
	}
	if (s->ocd.sim_ctl_port) {
		rc = sim_clock_open(s->ocd.sim_ctl_port, err);
		if (rc < 0)
			return rc;
		s->sim_clock_fd = rc;
	}
	(void)snprintf(hp, hp_len, "%s:%u", s->ocd.host, s->ocd.tcl_port);
	return tcl_backend_open(&s->bk, hp, 0, err);
}

/* OpenOCD opens its TCL port before it scans the JTAG chain: the first command waits for init
 * and, when init fails, finds OpenOCD gone. Say so with its log, not as a lost connection. */
static int first_answer(struct session *s, struct bench_error *err)
{
	int st = 0;
	bool dead = false;

	if (!backend_version(&s->bk, s->server_version, sizeof(s->server_version), err))
		return 0;
	/* A lost connection may be OpenOCD exiting: give it half a second to be reaped. */
	for (uint64_t end = clock_now_ms() + 500; s->ocd_started && err->kind == BENCH_E_CONNECT;) {
		if ((dead = !proc_alive(s->ocd.ocd, &st)) || clock_now_ms() >= end)
			break;
		usleep(10000);
	}
	if (dead) {
		char how[64];
		proc_describe_status(st, how, sizeof(how));
		return openocd_fail_start(&s->ocd, how, err);
	}
	if (err->kind == BENCH_E_INTERRUPTED || err->kind == BENCH_E_CONNECT)
		return -(int)err->kind;
	(void)snprintf(s->server_version, sizeof(s->server_version), "unknown");
	bench_error_clear(err);
	return 0;
}

/* The report's name for an OpenOCD 0.12 session transport (src/transport/transport.c; the
 * adapters' .transports lists): the ST-LINK's own Cortex-M commands are "hla", a JTAG wire is
 * "jtag" whatever drives it (remote_bitbang, an FTDI, the ST-LINK's JTAG), and an ADIv5 DAP over SWD
 * ("dapdirect_swd", a CMSIS-DAP's "swd") is "dap". NULL for a name OpenOCD 0.12 does not have. */
const char *session_transport_name(const char *ocd)
{
	if (!strncmp(ocd, "hla_", 4))
		return "hla";
	if (!strcmp(ocd, "jtag") || !strcmp(ocd, "dapdirect_jtag"))
		return "jtag";
	if (!strcmp(ocd, "dapdirect_swd") || !strcmp(ocd, "swd"))
		return "dap";
	return NULL;
}

/* Which wire OpenOCD took, asked of OpenOCD itself: a board's own openocd.cfg may select another
 * transport than board.json says (OpenOCD 0.12 `transport select` without an argument prints the
 * session's transport, src/transport/transport.c handle_transport_select). A server that cannot
 * say keeps board.json's name. */
static int ask_transport(struct session *s, struct bench_error *err)
{
	char out[64];
	const char *name = NULL;

	if (backend_monitor(&s->bk, "transport select", out, sizeof(out), err)) {
		if (err->kind == BENCH_E_INTERRUPTED || bench_err_class(err->kind) == BENCH_CLASS_LINK)
			return -(int)err->kind;
		bench_error_clear(err);
		return 0;
	}
	out[strcspn(out, "\r\n ")] = '\0';
	name = session_transport_name(out);
	if (name)
		(void)snprintf(s->transport, sizeof(s->transport), "%s", name);
	return 0;
}

int session_open(struct session *s, const struct session_opts *o, struct bench_error *err)
{
	char hp[96];
	int rc;

	memset(s, 0, sizeof(*s));
	s->sim_clock_fd = -1;
	s->work_dir_lock = -1;
	if (o->want_record && (o->gdb || o->openocd || !o->board || !o->board->virtual_board))
		return bench_fail(err, BENCH_E_UNSUPPORTED,
		                  "this run needs the virtual board's halt records (exact profile, stack depth, code "
		                  "size): only a bench-sim bench starts has them; use the sim-stm32f4 board without "
		                  "--openocd or --gdb");
	if (o->gdb) {
		rc = rsp_backend_open_arch(&s->bk, o->gdb, o->arch, 0, err);
	} else if (o->openocd) {
		rc = tcl_backend_open(&s->bk, o->openocd, 0, err);
	} else if (o->board && !strcmp(o->board->backend, "qemu")) {
		char rr[PATH_MAX + 16];

		if (o->icount) {
			if ((rc = make_work_dir(s, o->work_dir, err)))
				return rc;
			(void)snprintf(rr, sizeof(rr), "%s/qemu.rr", s->work_dir);
		}
		if ((rc = qemu_start(o->board, o->elf_abs, o->icount ? rr : NULL, hp, sizeof(hp), &s->qemu, err)))
			return rc;
		rc = rsp_backend_open_arch(&s->bk, hp, o->arch, 0, err);
	} else if (o->board) {
		rc = start_openocd(s, o, hp, sizeof(hp), err);
	} else {
		return bench_fail(err, BENCH_E_INTERNAL, "no board and nothing to attach to");
	}
	if (rc)
		return rc;
	s->bk_open = true;
	backend_set_cancel(&s->bk, o->cancel);
	if (s->ocd_started && o->board) /* until OpenOCD says which */
		(void)snprintf(s->transport, sizeof(s->transport), "%s", o->board->transport);
	rc = first_answer(s, err);
	if (rc == 0 && s->ocd_started)
		rc = ask_transport(s, err);
	return rc;
}

int session_children_alive(struct session *s, struct bench_error *err)
{
	char how[64];
	int st = 0;

	if (s->ocd_started && s->ocd.sim && !proc_alive(s->ocd.sim, &st)) {
		proc_describe_status(st, how, sizeof(how));
		return bench_fail(err, BENCH_E_CONNECT, "the virtual board (bench-sim) stopped mid-run (%s)", how);
	}
	if (s->ocd_started && s->ocd.ocd && !proc_alive(s->ocd.ocd, &st)) {
		proc_describe_status(st, how, sizeof(how));
		return bench_fail(err, BENCH_E_CONNECT,
		                  "connection to OpenOCD at %s:%u lost (OpenOCD %s): check that OpenOCD still runs",
		                  s->ocd.host, (unsigned)s->ocd.tcl_port, how);
	}
	if (s->qemu && !proc_alive(s->qemu, &st)) {
		proc_describe_status(st, how, sizeof(how));
		return bench_fail(err, BENCH_E_CONNECT, "QEMU stopped mid-run (%s)", how);
	}
	return 0;
}

/* Whether bench-sim has died (*st: its wait status); see session_explain_loss(). */
static bool sim_gone(struct session *s, int *st)
{
	struct bench_error e;
	uint64_t cycles;

	if (!proc_alive(s->ocd.sim, st))
		return true;
	if (s->sim_clock_fd < 0 || sim_clock_cycles(s->sim_clock_fd, &cycles, &e) == 0)
		return false;
	for (uint64_t end = clock_now_ms() + 500; clock_now_ms() < end;) {
		usleep(10000);
		if (!proc_alive(s->ocd.sim, st))
			return true;
	}
	return false;
}

bool session_explain_loss(struct session *s, struct bench_error *err)
{
	int st = 0;
	char how[64];

	/* The virtual board dying mid-run leaves OpenOCD up, polling a dead link, so the loop sees a
	 * target that never halts: that is the probe lost (exit 4), not a firmware timeout. */
	enum bench_err_class cls = bench_err_class(err->kind);

	if (!s->ocd_started || !s->ocd.sim || (cls != BENCH_CLASS_LINK && cls != BENCH_CLASS_TARGET) ||
	    !sim_gone(s, &st))
		return false;
	proc_describe_status(st, how, sizeof(how));
	bench_fail(err, BENCH_E_CONNECT, "the virtual board (bench-sim) stopped mid-run (%s)", how);
	return true;
}

void session_annotate(struct session *s, struct bench_error *err)
{
	char why[600];
	size_t used = strlen(err->msg);

	/* Only for what OpenOCD did or failed to do: a timeout or a fault is the firmware's. */
	if (!s->ocd_started || (bench_err_class(err->kind) != BENCH_CLASS_LINK && err->kind != BENCH_E_TARGET))
		return;
	openocd_log_errors(&s->ocd, 3, why, sizeof(why));
	if (why[0])
		(void)snprintf(err->msg + used, sizeof(err->msg) - used, " (OpenOCD log: %s)", why);
}

int session_open_record(struct session *s, struct sim_record_reader **out, struct bench_error *err)
{
	if (!s->record_path[0])
		return bench_fail(err, BENCH_E_UNSUPPORTED, "no virtual board halt records in this session");
	return sim_record_open(out, s->record_path, err);
}

bool session_has_sim_clock(const struct session *s)
{
	return s->sim_clock_fd >= 0;
}

int session_sim_stats(struct session *s, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err)
{
	if (s->sim_clock_fd < 0)
		return bench_fail(err, BENCH_E_UNSUPPORTED, "no virtual board clock in this session");
	return sim_clock_stats(s->sim_clock_fd, cycles, exceptions, NULL, err);
}

bool session_has_ocd_log(const struct session *s)
{
	return s->ocd_started && s->ocd.log_path[0];
}

int session_log_resets(struct session *s, uint64_t *count, struct bench_error *err)
{
	if (!session_has_ocd_log(s))
		return bench_fail(err, BENCH_E_UNSUPPORTED, "no OpenOCD log in this session");
	return openocd_log_resets(&s->ocd, count, err);
}

int session_sim_stats_resets(struct session *s, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets,
                             struct bench_error *err)
{
	if (s->sim_clock_fd < 0)
		return bench_fail(err, BENCH_E_UNSUPPORTED, "no virtual board clock in this session");
	return sim_clock_stats(s->sim_clock_fd, cycles, exceptions, resets, err);
}

int session_sim_resets(struct session *s, uint64_t *resets, struct bench_error *err)
{
	uint64_t cycles, exceptions;

	return session_sim_stats_resets(s, &cycles, &exceptions, resets, err);
}

int session_sim_cycles(struct session *s, uint64_t *cycles, struct bench_error *err)
{
	if (s->sim_clock_fd < 0)
		return bench_fail(err, BENCH_E_UNSUPPORTED, "no virtual board clock in this session");
	return sim_clock_cycles(s->sim_clock_fd, cycles, err);
}

void session_sim_output(struct session *s, sim_log_line_fn fn, void *ctx)
{
	if (s->sim_log_on)
		sim_log_poll(&s->sim_log, fn, ctx);
}

bool session_name_addr(struct session *s, uint32_t addr, char *out, size_t len)
{
	struct bench_error e;

	return s->sim_clock_fd >= 0 && sim_clock_where(s->sim_clock_fd, addr, out, len, &e) == 0;
}

void session_close(struct session *s)
{
	if (s->bk_open)
		backend_close(&s->bk);
	s->bk_open = false;
	sim_clock_close(s->sim_clock_fd);
	s->sim_clock_fd = -1;
	if (s->ocd_started)
		openocd_stop(&s->ocd);
	qemu_stop(s->qemu);
	s->qemu = NULL;
	workdir_unlock(s->work_dir_lock); /* after its children stopped: then the folder is free */
	s->work_dir_lock = -1;
}

void session_finish_work_dir(struct session *s, int rc, struct bench_error *err)
{
	static const char *const files[] = {"openocd.log", "bench-sim.log", "qemu.log", "qemu.rr"};
	char path[PATH_MAX + 32];
	size_t used;

	if (!s->own_work_dir)
		return;
	if (rc) {
		used = strlen(err->msg);
		if (err->kind != BENCH_E_INTERRUPTED && !strstr(err->msg, s->work_dir))
			(void)snprintf(err->msg + used, sizeof(err->msg) - used, " (logs kept in %s)", s->work_dir);
		return;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", s->work_dir, files[i]);
		if (unlink(path) && errno != ENOENT)
			return;
	}
	if (rmdir(s->work_dir) == 0)
		s->own_work_dir = false;
}
