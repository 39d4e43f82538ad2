/* Starting OpenOCD (and bench-sim for the virtual board) on free 127.0.0.1 ports. OpenOCD 0.12
 * takes its configuration from -c/-f in order and runs `init` after the last one, so the port and
 * `bindto` settings below apply before any server opens (OpenOCD manual, "Configuration Stage"). */
#include "session/openocd_proc.h"
#include "base/clock.h"
#include "base/str.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/datadir.h"
#include "firmware/board.h"
#include "session/probes.h"
#include "session/proc.h"
#include "transport/openocd_tcl.h"

#define OPENOCD_HINT  "install it with `apt-get install openocd` (Debian), or set BENCH_OPENOCD"
#define SIM_HINT      "build it with `cmake --build build` (target bench-sim), or set BENCH_SIM"
#define STOP_GRACE_MS 1000u

static bool is_exec(const char *path)
{
	return access(path, X_OK) == 0;
}

int openocd_find_sim(char *out, size_t len, struct bench_error *err)
{
	/* Next to bench: bin/ when installed, the build tree's top folder when built; no path is
	 * compiled in, so a copied or packaged bench finds its own bench-sim. */
	static const char *const rel[] = {"bench-sim", "sim/bench-sim", "../bench-sim"};
	const char *env = getenv("BENCH_SIM");
	char self[PATH_MAX], cand[PATH_MAX + 32];

	if (env && *env) {
		if (!is_exec(env))
			return bench_fail(err, BENCH_E_TOOL_MISSING, "BENCH_SIM=%s is not an executable: %s", env,
			                  SIM_HINT);
		if (str_copy(out, len, env))
			return bench_fail(err, BENCH_E_USAGE,
			                  "BENCH_SIM=%s: longer than %zu characters: use a shorter path", env, len - 1);
		return 0;
	}
	if (datadir_exe_dir(self, sizeof(self)))
		return bench_fail(err, BENCH_E_TOOL_MISSING,
		                  "bench-sim (the virtual board) not found: bench cannot read its own location "
		                  "(/proc/self/exe): set BENCH_SIM");
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		/* A candidate that does not fit a buffer is not taken (a cut path names another file). */
		if (!str_fmt(cand, sizeof(cand), "%s/%s", self, rel[i]) && is_exec(cand) && !str_copy(out, len, cand))
			return 0;
	}
	return bench_fail(err, BENCH_E_TOOL_MISSING,
	                  "bench-sim (the virtual board) not found: looked for %s/bench-sim, %s/sim/bench-sim and "
	                  "%s/../bench-sim: %s",
	                  self, self, self, SIM_HINT);
}

/* Reads bench-sim's "NAME N" line (docs/sim.md) into *port. */
static int sim_port_line(struct proc *sim, const char *prefix, unsigned timeout, uint16_t *port,
                         struct bench_error *err)
{
	char line[PATH_MAX], *end;
	unsigned long v;
	int rc = proc_wait_log_line(sim, prefix, line, sizeof(line), timeout, err);
	if (rc)
		return rc;
	errno = 0;
	v = strtoul(line, &end, 10);
	if (errno || end == line || v == 0 || v > 65535)
		return bench_fail(err, BENCH_E_TOOL_START, "bench-sim printed \"%s%s\": rebuild bench-sim", prefix,
		                  line);
	*port = (uint16_t)v;
	return 0;
}

/* For dap and hla, bench-sim serves its ST-LINK on a free 127.0.0.1 port (stlink-server's TCP
 * protocol: OpenOCD's st-link and hla drivers reach it with `backend tcp PORT`) and prints
 * "stlink-port N". For jtag it serves remote_bitbang on a Unix socket in the work folder when the
 * path fits sockaddr_un (108 bytes; each of OpenOCD's many JTAG round trips per halt is cheaper there
 * than on TCP), else on a free 127.0.0.1 port: "jtag-socket PATH" / "jtag-port N". */
static int start_sim(const struct openocd_start_opts *o, const char *transport, struct openocd_proc *out, char *set_cmd,
                     size_t set_len, struct bench_error *err)
{
	char bin[PATH_MAX], line[PATH_MAX], sock[PATH_MAX], q[PATH_MAX + 64], words[1024], record[PATH_MAX + 16];
	const char *argv[10 + 32];
	size_t wl = 0;
	unsigned timeout = o->timeout_ms ? o->timeout_ms : 10000u;
	struct stat st;
	bool use_sock;
	size_t a = 0;
	int rc;

	if (o->sim_bin && str_copy(bin, sizeof(bin), o->sim_bin))
		return bench_fail(err, BENCH_E_USAGE, "bench-sim path %s longer than %zu characters", o->sim_bin,
		                  sizeof(bin) - 1);
	if (!o->sim_bin && (rc = openocd_find_sim(bin, sizeof(bin), err)))
		return rc;
	if (str_fmt(out->sim_log_path, sizeof(out->sim_log_path), "%s/bench-sim.log", o->work_dir))
		return bench_fail(err, BENCH_E_USAGE,
		                  "work folder %s: longer than %zu characters: use a shorter --work-dir", o->work_dir,
		                  sizeof(out->sim_log_path) - 20);
	bool stlink = strcmp(transport, "jtag") != 0;
	/* A socket path that does not fit falls back to TCP, as one too long for sockaddr_un does. */
	use_sock = !stlink && !str_fmt(sock, sizeof(sock), "%s/jtag.sock", o->work_dir) && strlen(sock) < 100 &&
	           tcl_quote(sock, q, sizeof(q)) > 0;
	/* A socket file left by a bench-sim that was killed (SIGKILL skips its unlink) is removed, so
	 * OpenOCD can only ever meet this run's server; anything else by that name is not ours to delete. */
	if (use_sock && lstat(sock, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return bench_fail(err, BENCH_E_TOOL_START,
			                  "%s exists and is not a socket: move it away or pick another --work-dir",
			                  sock);
		if (unlink(sock) && errno != ENOENT)
			return bench_fail(err, BENCH_E_TOOL_START, "cannot remove the stale socket %s: %s: remove it",
			                  sock, strerror(errno));
	}
	argv[a++] = bin;
	argv[a++] = stlink ? "--stlink-port" : use_sock ? "--jtag-socket" : "--jtag-port";
	argv[a++] = use_sock ? sock : "0";
	if (o->preload_elf) {
		argv[a++] = "--elf";
		argv[a++] = o->preload_elf;
	}
	/* The control interface gives bench a 64-bit cycle count (host/session/sim_clock.h). */
	argv[a++] = "--ctl-port";
	argv[a++] = "0";
	if (o->record_path) {
		if (str_fmt(record, sizeof(record), "--record=%s", o->record_path))
			return bench_fail(err, BENCH_E_USAGE,
			                  "work folder %s: too long for bench-sim's record: use a "
			                  "shorter --work-dir",
			                  o->work_dir);
		argv[a++] = record;
	}
	/* --sim-opt: each split into words at spaces, after bench's own (getopt: the last one wins). */
	for (size_t i = 0; i < o->n_sim_opts; i++) {
		for (const char *p = o->sim_opts[i]; *p;) {
			while (*p == ' ')
				p++;
			size_t n = strcspn(p, " ");
			if (!n)
				break;
			if (a + 1 >= sizeof(argv) / sizeof(argv[0]) || wl + n + 1 > sizeof(words))
				return bench_fail(err, BENCH_E_USAGE,
				                  "--sim-opt: too many bench-sim options: give fewer");
			memcpy(words + wl, p, n);
			words[wl + n] = '\0';
			argv[a++] = words + wl;
			wl += n + 1;
			p += n;
		}
	}
	argv[a] = NULL;
	if ((rc = proc_start(argv, out->sim_log_path, o->work_dir, SIM_HINT, &out->sim, err)))
		return rc;
	/* bench-sim prints "ctl-port N" after its port line (docs/sim.md). */
	if ((rc = sim_port_line(out->sim, "ctl-port ", timeout, &out->sim_ctl_port, err)))
		return rc;
	if (use_sock) {
		if ((rc = proc_wait_log_line(out->sim, "jtag-socket ", line, sizeof(line), timeout, err)))
			return rc;
		if (str_fmt(set_cmd, set_len, "set SIM_JTAG_SOCKET %s", q)) /* q < 100 * 4 + 2 < set_len */
			return bench_fail(err, BENCH_E_INTERNAL, "OpenOCD's socket command does not fit");
		return 0;
	}
	uint16_t port = 0;
	if ((rc = sim_port_line(out->sim, stlink ? "stlink-port " : "jtag-port ", timeout, &port, err)))
		return rc;
	if (str_fmt(set_cmd, set_len, "set %s %u", stlink ? "SIM_STLINK_PORT" : "SIM_JTAG_PORT", port))
		return bench_fail(err, BENCH_E_INTERNAL, "OpenOCD's port command does not fit");
	return 0;
}

/* 0 when 127.0.0.1:PORT can be bound as OpenOCD binds it (SO_REUSEADDR, so a socket in TIME_WAIT
 * does not count; OpenOCD 0.12 src/server/server.c add_service sets it too); BENCH_E_TOOL_START (exit 4)
 * when something listens there. */
static int port_taken(const char *host, uint16_t port, struct bench_error *err)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	int one = 1, s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), rc = 0;

	if (s < 0)
		return 0; /* cannot tell: OpenOCD will say */
	inet_pton(AF_INET, host, &a.sin_addr);
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
	    bind(s, (struct sockaddr *)&a, sizeof(a)) && errno == EADDRINUSE)
		rc = bench_fail(err, BENCH_E_TOOL_START,
		                "--tcl-port %u is in use: another program listens on %s:%u (bench would measure "
		                "its board): pick a free port or leave --tcl-port out",
		                (unsigned)port, host, (unsigned)port);
	close(s);
	return rc;
}

int openocd_log_listen_port(const char *line, const char *service, uint16_t *port)
{
	static const char info[] = "Info : ", lead[] = "Listening on port ", where[] = "(): ";
	const size_t wlen = sizeof(where) - 1;
	char *end;
	char tail[48];

	/* The message starts the line after "Info : ", or at debug_level 3 after the source location
	 * "... add_service(): ": not text an echo or a file name happens to contain. */
	if (strncmp(line, info, sizeof(info) - 1))
		return -1;
	const char *msg = line + sizeof(info) - 1, *at = strstr(msg, lead);
	if (!at || (at != msg && ((size_t)(at - msg) < wlen || strncmp(at - wlen, where, wlen))) ||
	    str_fmt(tail, sizeof(tail), " for %s connections", service))
		return -1;
	at += sizeof(lead) - 1;
	if (*at < '0' || *at > '9')
		return -1;
	errno = 0;
	unsigned long n = strtoul(at, &end, 10);
	if (errno || n == 0 || n > 65535 || strcmp(end, tail))
		return -1;
	*port = (uint16_t)n;
	return 0;
}

static bool tcl_listening(const char *line, void *port)
{
	return openocd_log_listen_port(line, "tcl", port) == 0;
}

int openocd_start(const struct openocd_start_opts *o, struct openocd_proc *out, struct bench_error *err)
{
	char bin[PATH_MAX], set_sim[PATH_MAX + 96], tcl_cmd[32], serial_q[256], serial_cmd[300], set_tr[48];
	const char *transport = o->transport                         ? o->transport
	                        : o->board && o->board->transport[0] ? o->board->transport
	                                                             : "dap";
	const char *argv[24];
	const char *env = getenv("BENCH_OPENOCD");
	unsigned timeout = o->timeout_ms ? o->timeout_ms : 10000u;
	size_t a = 0;
	int rc, st;

	memset(out, 0, sizeof(*out));
	memcpy(out->host, "127.0.0.1", sizeof("127.0.0.1")); /* host[] holds an IPv4 address */
	if (!o->board || !o->board->openocd_cfg[0])
		return bench_fail(err, BENCH_E_BOARD,
		                  "board %s has no OpenOCD config: add openocd_cfg to its board.json",
		                  o->board ? o->board->name : "(none)");
	if (access(o->board->openocd_cfg, R_OK))
		return bench_fail(err, BENCH_E_BOARD, "board %s: cannot read %s: %s: fix the board folder",
		                  o->board->name, o->board->openocd_cfg, strerror(errno));
	if (str_copy(bin, sizeof(bin), o->openocd_bin ? o->openocd_bin : env && *env ? env : "openocd"))
		return bench_fail(err, BENCH_E_USAGE, "the OpenOCD path is longer than %zu characters",
		                  sizeof(bin) - 1);
	/* A --tcl-port something already listens on would be answered by that program, and bench
	 * would measure whatever board it drives, while its own OpenOCD fails to bind and exits. */
	if (o->tcl_port && (rc = port_taken(out->host, o->tcl_port, err)))
		goto fail;
	/* A real board whose probe OpenOCD may not find: openocd_fail_start() asks the USB bus then
	 * (a --probe SERIAL was checked before the run, probes_run.c). */
	out->probe_check = !o->board->virtual_board && !o->probe_serial;
	if (o->board->virtual_board && (rc = start_sim(o, transport, out, set_sim, sizeof(set_sim), err)))
		goto fail;
	out->sim_ready_ms = o->board->virtual_board ? clock_now_ms() : 0;
	/* Without --tcl-port OpenOCD binds port 0 and logs the port the kernel chose (below): a port
	 * picked here and closed again could be taken by another process before OpenOCD binds it. */
	out->tcl_port = o->tcl_port;
	if (str_fmt(out->log_path, sizeof(out->log_path), "%s/openocd.log", o->work_dir) ||
	    str_fmt(tcl_cmd, sizeof(tcl_cmd), "tcl_port %u", out->tcl_port)) {
		rc = bench_fail(err, BENCH_E_USAGE,
		                "work folder %s: longer than %zu characters: use a shorter --work-dir", o->work_dir,
		                sizeof(out->log_path) - 20);
		goto fail;
	}
	argv[a++] = bin;
	if (o->board->virtual_board) {
		argv[a++] = "-c";
		argv[a++] = set_sim;
	}
	if (str_fmt(set_tr, sizeof(set_tr), "set BENCH_TRANSPORT %s", transport)) { /* a board.json name */
		rc =
		    bench_fail(err, BENCH_E_BOARD, "transport '%s' is too long: fix the board's board.json", transport);
		goto fail;
	}
	argv[a++] = "-c";
	argv[a++] = set_tr;
	/* -f takes a file name as an argv word, not Tcl: it needs no quoting. */
	argv[a++] = "-f";
	argv[a++] = o->board->openocd_cfg;
	if (o->probe_serial) {
		if (tcl_quote(o->probe_serial, serial_q, sizeof(serial_q)) < 0) {
			rc = bench_fail(err, BENCH_E_USAGE, "probe serial too long: check --probe");
			goto fail;
		}
		if (str_fmt(serial_cmd, sizeof(serial_cmd), "adapter serial %s", serial_q)) { /* 15 + 255 < 300 */
			rc = bench_fail(err, BENCH_E_USAGE, "probe serial too long: check --probe");
			goto fail;
		}
		argv[a++] = "-c";
		argv[a++] = serial_cmd;
	}
	argv[a++] = "-c";
	argv[a++] = "bindto 127.0.0.1";
	argv[a++] = "-c";
	argv[a++] = "gdb_port disabled";
	argv[a++] = "-c";
	argv[a++] = "telnet_port disabled";
	if (!out->tcl_port) {
		/* The port is read from OpenOCD's "Listening on port" line, an Info line: a board config
		 * that quiets the log to errors and warnings (debug_level 0 or 1) would hide it. */
		argv[a++] = "-c";
		argv[a++] = "if {[lindex [debug_level] 1] < 2} {debug_level 2}";
	}
	argv[a++] = "-c";
	argv[a++] = tcl_cmd;
	argv[a] = NULL;
	if ((rc = proc_start(argv, out->log_path, o->work_dir, OPENOCD_HINT, &out->ocd, err)))
		goto fail;
	if (!out->tcl_port) {
		if ((rc = proc_wait_log_match(out->ocd, tcl_listening, &out->tcl_port, "the port of its TCL server",
		                              timeout, err))) {
			if (err->kind == BENCH_E_TOOL_START && proc_alive(out->ocd, &st))
				rc = bench_fail(
				    err, BENCH_E_TOOL_START,
				    "OpenOCD did not log which TCL port it took within %u ms (log %s): OpenOCD "
				    "0.11 and later log it unless the board's config sends the log elsewhere "
				    "(log_output); otherwise give --tcl-port N",
				    timeout, out->log_path);
			else if (err->kind == BENCH_E_TOOL_START)
				(void)openocd_fail_start(out, NULL, err);
			goto fail;
		}
	}
	if ((rc = proc_wait_port(out->host, out->tcl_port, out->ocd, timeout, err))) {
		/* Say it is OpenOCD that failed, and quote its log. */
		if (err->kind == BENCH_E_TOOL_START)
			(void)openocd_fail_start(out, NULL, err);
		goto fail;
	}
	/* The port answered: make sure it is this OpenOCD that did, not one that took it meanwhile.
	 * (With the port OpenOCD logged it is its own: an exit now is its own failure.) */
	if (!proc_alive(out->ocd, &st)) {
		char tail[700];
		if (!o->tcl_port) {
			rc = openocd_fail_start(out, NULL, err);
			goto fail;
		}
		openocd_log_errors(out, 3, tail, sizeof(tail));
		rc = bench_fail(err, BENCH_E_TOOL_START,
		                "OpenOCD exited as its TCL port %u opened (log %s: %s): another program holds "
		                "the port; pick a free --tcl-port",
		                out->tcl_port, out->log_path, tail[0] ? tail : "empty");
		goto fail;
	}
	out->tcl_ready_ms = clock_now_ms();
	return 0;
fail:
	openocd_stop(out);
	return rc;
}

static double children_cpu_s(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0.0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

void openocd_stop(struct openocd_proc *p)
{
	double t0, t1;

	if (!p)
		return;
	t0 = children_cpu_s();
	if (p->ocd) {
		proc_stop(p->ocd, STOP_GRACE_MS);
		p->ocd = NULL;
		t1 = children_cpu_s();
		p->ocd_cpu_s = t1 - t0;
		t0 = t1;
	}
	if (p->sim) {
		proc_stop(p->sim, STOP_GRACE_MS);
		p->sim = NULL;
		p->sim_cpu_s = children_cpu_s() - t0;
	}
}

const char *openocd_start_advice(const char *errors)
{
	/* OpenOCD 0.12 src/jtag/drivers/stlink_usb.c stlink_dap_init(): the probe's firmware lacks the
	 * DAP register commands (ST-LINK/V2 before V2J24); the hla driver drives it (docs/boards.md). */
	if (strstr(errors, "ST-Link version does not support DAP direct transport"))
		return "use --transport hla (or update the probe's firmware)";
	return "check the board, the probe and its USB permissions";
}

/* OpenOCD 0.12's words when its adapter driver finds no device: "open failed" (stlink_usb.c,
 * hla and st-link dap), "no device found" (ftdi/mpsse.c), "unable to find a matching CMSIS-DAP
 * device" (cmsis_dap.c), "No J-Link device found" (jlink.c). */
static bool adapter_not_found(const char *errors)
{
	static const char *const words[] = {"open failed", "no device found", "unable to find a matching",
	                                    "No J-Link device found"};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(errors, words[i]))
			return true;
	return false;
}

int openocd_fail_start(const struct openocd_proc *p, const char *how, struct bench_error *err)
{
	/* Room for all three error lines (openocd_log_errors() keeps up to 511 bytes of each), so the
	 * advice sees the last one whole; the quote is shortened below. */
	char why[3 * 512 + 8];

	/* Its "Error:" lines say why; the last lines may be a list it printed after them. */
	openocd_log_errors(p, 3, why, sizeof(why));
	if (!why[0])
		proc_log_tail(p->log_path, 4, why, sizeof(why));
	/* No probe attached: say which command lists them, exit 4 as before (docs/exit-codes.md). Only
	 * when OpenOCD found no adapter and the bus holds none bench knows: a board reached over FTDI,
	 * bit-bang or TCP is none of bench's business until OpenOCD fails. */
	if (p->probe_check && adapter_not_found(why) && probes_none_attached())
		return bench_fail(err, BENCH_E_CONNECT, /* the session adds OpenOCD's words (session_annotate) */
		                  "no debug probe is attached: connect the board's probe, then run `bench probes` to "
		                  "see that bench finds it");
	const char *advice = openocd_start_advice(why), *quote = why[0] ? why : "empty";
	/* The advice ends the line: shorten the quote, not the advice, when a long work dir leaves little
	 * room in err->msg. */
	size_t fixed = strlen("OpenOCD failed to start: it  (log : ): ") + (how ? strlen(how) : 0) +
	               strlen(p->log_path) + strlen(advice);
	int room = fixed < sizeof(err->msg) - 1 ? (int)(sizeof(err->msg) - 1 - fixed) : 0;
	return bench_fail(err, BENCH_E_TOOL_START, "OpenOCD failed to start%s%s (log %s: %.*s): %s", how ? ": it " : "",
	                  how ? how : "", p->log_path, room, quote, advice);
}

void openocd_log_errors(const struct openocd_proc *p, unsigned max, char *out, size_t len)
{
	char line[512], ring[8][512];
	unsigned n = 0;
	size_t used = 0;
	FILE *f;

	if (len)
		out[0] = '\0';
	if (max > 8)
		max = 8;
	if (!p || !p->log_path[0] || !max || !(f = fopen(p->log_path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Error: ", 7))
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		str_fmt_cut(ring[n % max], sizeof(ring[0]), "%s", line + 7); /* for an error message */
		n++;
	}
	(void)fclose(f); /* read-only */
	for (unsigned i = n > max ? n - max : 0; i < n && used + 1 < len; i++) {
		int w = snprintf(out + used, len - used, "%s%s", used ? " | " : "", ring[i % max]);
		if (w < 0)
			break;
		used += (size_t)w < len - used ? (size_t)w : len - used - 1;
	}
}

int openocd_log_resets(struct openocd_proc *p, uint64_t *count, struct bench_error *err)
{
	char line[1024];
	FILE *f = fopen(p->log_path, "r");

	if (!f || fseek(f, p->reset_scan_off, SEEK_SET)) {
		int e = errno;
		if (f)
			(void)fclose(f); /* read-only */
		return bench_fail(err, BENCH_E_TOOL_START, "cannot read OpenOCD's log %s: %s", p->log_path,
		                  strerror(e));
	}
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		if (!n || line[n - 1] != '\n')
			break; /* a line OpenOCD is still writing (or longer than line[]: never this one): next time */
		p->reset_scan_off += (long)n;
		if (strstr(line, "external reset detected"))
			p->reset_lines++;
	}
	(void)fclose(f); /* read-only */
	*count = p->reset_lines;
	return 0;
}
