/* OpenOCD's TCL RPC server as a backend (OpenOCD 0.12 src/server/tcl_server.c: a command ends at
 * 0x1a; the reply is the Tcl result string, ended by 0x1a; errors are not flagged, so every script
 * is wrapped in `catch`). Strings reaching Tcl go through tcl_quote(). OpenOCD commands used, all in
 * 0.12: halt, resume, wait_halt, reg, read_memory, write_memory, reset, flash write_image,
 * verify_image, bp/rbp, version. */
#include "transport/openocd_tcl.h"
#include "transport/openocd_tcl_priv.h"
#include "base/le.h"
#include "base/clock.h"
#include "base/str.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TCL_EOM     0x1a
#define TCL_SLOW_MS 60000u /* program, verify and reset on a real board with a big image */

struct tcl_priv {
	int fd;
	unsigned timeout_ms;
	unsigned pending; /* replies still owed to commands we gave up waiting for */
	char *rx;         /* bytes received after the last reply */
	size_t rx_len, rx_cap;
	char peer[128];
	char host[96], port[8]; /* for tcl_reconnect */
};

/* Formats a TCL command into BUF (LEN bytes): it must arrive whole, since a cut one would run
 * another command. KIND is the error when it does not fit. */
static int script_fmt(struct bench_error *err, enum bench_err kind, char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int script_fmt(struct bench_error *err, enum bench_err kind, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (!str_fits(n, len))
		return bench_fail(err, kind, "a TCL command would be longer than %zu bytes: %.60s...", len - 1, buf);
	return 0;
}

static struct tcl_priv *P(struct backend *bk)
{
	return bk->priv;
}

int tcl_parse_reply(char *reply, bool *is_error, char **body)
{
	if (!reply || (reply[0] != 'E' && reply[0] != 'O'))
		return -1;
	*is_error = reply[0] == 'E';
	*body = reply + 1;
	return 0;
}

static int lost(struct backend *bk, const char *what, struct bench_error *err)
{
	return bench_fail(err, BENCH_E_CONNECT, "connection to OpenOCD at %s lost (%s): check that OpenOCD still runs",
	                  P(bk)->peer, what);
}

/* Reads one 0x1a-terminated reply into a malloc'd string. */
static int read_reply(struct backend *bk, unsigned timeout_ms, char **reply, struct bench_error *err)
{
	struct tcl_priv *t = P(bk);
	uint64_t deadline = clock_now_ms() + timeout_ms;

	for (;;) {
		char *eom = t->rx_len ? memchr(t->rx, TCL_EOM, t->rx_len) : NULL;
		if (eom) {
			size_t n = (size_t)(eom - t->rx);
			*reply = malloc(n + 1);
			if (!*reply)
				return bench_fail(err, BENCH_E_NOMEM, "out of memory reading OpenOCD's reply");
			memcpy(*reply, t->rx, n);
			(*reply)[n] = '\0';
			memmove(t->rx, eom + 1, t->rx_len - n - 1);
			t->rx_len -= n + 1;
			return 0;
		}
		if (bench_cancelled(&bk->cancel)) {
			t->pending++;
			return bench_fail(err, BENCH_E_INTERRUPTED, "interrupted");
		}
		uint64_t now = clock_now_ms();
		if (now >= deadline) {
			/* Its reply may still come: the next exchange drops it first. */
			t->pending++;
			return bench_fail(err, BENCH_E_CONNECT,
			                  "OpenOCD at %s did not answer within %u ms: check its log", t->peer,
			                  timeout_ms);
		}
		struct pollfd pfd = {t->fd, POLLIN, 0};
		unsigned slice = deadline - now > 100 ? 100 : (unsigned)(deadline - now);
		int pr = poll(&pfd, 1, (int)slice);
		if (pr < 0 && errno != EINTR)
			return lost(bk, strerror(errno), err);
		if (pr <= 0)
			continue;
		if (t->rx_cap - t->rx_len < 4096) {
			size_t cap = t->rx_cap ? t->rx_cap * 2 : 8192;
			char *nb = realloc(t->rx, cap);
			if (!nb)
				return bench_fail(err, BENCH_E_NOMEM, "out of memory reading OpenOCD's reply");
			t->rx = nb;
			t->rx_cap = cap;
		}
		ssize_t r = recv(t->fd, t->rx + t->rx_len, t->rx_cap - t->rx_len, 0);
		if (r == 0)
			return lost(bk, "closed by OpenOCD", err);
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return lost(bk, strerror(errno), err);
		if (r > 0)
			t->rx_len += (size_t)r;
	}
}

static int send_all(struct backend *bk, const char *s, size_t len, struct bench_error *err)
{
	while (len) {
		ssize_t w = send(P(bk)->fd, s, len, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return lost(bk, w < 0 ? strerror(errno) : "short write", err);
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Sends `script` wrapped in catch; *reply gets the result (malloc'd), *is_error whether it failed. */
static int exchange(struct backend *bk, const char *script, unsigned timeout_ms, char **reply, bool *is_error,
                    struct bench_error *err)
{
	static const char pre[] = "if {[catch {",
	                  post[] = "} bench_r]} {format E%s $bench_r} else {format O%s $bench_r}";
	struct tcl_priv *t = P(bk);
	size_t sl = strlen(script);
	char *msg = malloc(sizeof(pre) + sl + sizeof(post) + 1), *body;
	int rc;

	*reply = NULL;
	if (!msg)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory");
	/* A reply we gave up on earlier (timeout, Ctrl-C) arrives first: drop it. */
	while (t->pending) {
		char *old = NULL;
		t->pending--;
		rc = read_reply(bk, timeout_ms, &old, err); /* on failure it counts the reply as owed again */
		if (rc) {
			free(msg);
			return rc;
		}
		free(old);
	}
	memcpy(msg, pre, sizeof(pre) - 1);
	/* msg is a TCL RPC frame ended by 0x1a (TCL_EOM), not a C string. */
	memcpy(msg + sizeof(pre) - 1, script, sl); // NOLINT(bugprone-not-null-terminated-result)
	memcpy(msg + sizeof(pre) - 1 + sl, post, sizeof(post) - 1);
	msg[sizeof(pre) - 1 + sl + sizeof(post) - 1] = TCL_EOM;
	rc = send_all(bk, msg, sizeof(pre) - 1 + sl + sizeof(post), err);
	free(msg);
	if (rc)
		return rc;
	rc = read_reply(bk, timeout_ms, reply, err);
	if (rc)
		return rc;
	if (tcl_parse_reply(*reply, is_error, &body)) {
		free(*reply);
		*reply = NULL;
		return bench_fail(err, BENCH_E_PROTOCOL,
		                  "OpenOCD at %s sent a reply bench cannot read: is it OpenOCD's "
		                  "TCL port (tcl_port), not the telnet or GDB port?",
		                  t->peer);
	}
	memmove(*reply, body, strlen(body) + 1);
	return 0;
}

/* Runs script; a Tcl error is BENCH_E_TARGET naming what failed. out may be NULL. */
static int eval_to(struct backend *bk, const char *script, unsigned timeout_ms, const char *what, char *out,
                   size_t outlen, struct bench_error *err)
{
	char *reply;
	bool is_err = false;
	int rc = exchange(bk, script, timeout_ms, &reply, &is_err, err);

	if (rc)
		return rc;
	if (is_err) {
		char *nl;
		while ((nl = strpbrk(reply, "\r\n")))
			*nl = ' ';
		for (size_t n = strlen(reply); n && reply[n - 1] == ' ';)
			reply[--n] = '\0';
		rc = bench_fail(err, BENCH_E_TARGET, "OpenOCD could not %s: %s", what,
		                reply[0] ? reply : "(no message)");
	} else if (out && outlen && str_copy(out, outlen, reply)) {
		/* A cut reply could parse as another number: it must arrive whole. */
		rc = bench_fail(err, BENCH_E_PROTOCOL, "OpenOCD's reply when asked to %s is longer than %zu characters",
		                what, outlen - 1);
	}
	free(reply);
	return rc;
}

int tcl_eval(struct backend *bk, const char *script, char *out, size_t outlen, struct bench_error *err)
{
	return eval_to(bk, script, P(bk)->timeout_ms, "run the command", out, outlen, err);
}

static void tcl_close(struct backend *bk)
{
	struct tcl_priv *t = P(bk);
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	free(t->rx);
	free(t);
}

static int tcl_halt(struct backend *bk, struct bench_error *err)
{
	return eval_to(bk, "halt; wait_halt 1000", P(bk)->timeout_ms, "halt the target", NULL, 0, err);
}

static int tcl_resume(struct backend *bk, struct bench_error *err)
{
	/* Plain resume: OpenOCD 0.12 steps over a BKPT it did not set (armv7m_maybe_skip_bkpt_inst in
	 * src/target/armv7m.c); `resume ADDR` would skip a second BKPT right behind the first. */
	return eval_to(bk, "resume", P(bk)->timeout_ms, "resume the target", NULL, 0, err);
}

static int parse_pc(const char *s, uint32_t *pc)
{
	return tcl_parse_u32_list(s, pc, 1) == 1 ? 0 : -1;
}

static int tcl_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out,
                         struct bench_error *err)
{
	char script[128], res[128];
	int rc;

	/* wait_halt fails with "timed out while waiting for target halted"; report that as R. */
	rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script),
	                "if {[catch {wait_halt %u}]} {format R} else {lindex [reg pc] 2}", timeout_ms);
	if (rc)
		return rc;
	rc = eval_to(bk, script, timeout_ms + P(bk)->timeout_ms, "wait for a halt", res, sizeof(res), err);
	if (rc)
		return rc;
	if (!strcmp(res, "R"))
		return bench_fail(err, BENCH_E_TIMEOUT, "target still running after %u ms", timeout_ms);
	memset(out, 0, sizeof(*out));
	out->reason = BK_HALT_OTHER;
	if (parse_pc(res, &out->pc))
		return bench_fail(err, BENCH_E_PROTOCOL, "OpenOCD's `reg pc` said \"%s\": check the OpenOCD version",
		                  res);
	return 0;
}

static int tcl_resume_sample(struct backend *bk, unsigned timeout_ms, uint32_t sample_addr,
                             struct backend_halt_info *out, uint32_t *sample, struct bench_error *err)
{
	char script[256], res[128];
	uint32_t v[2];
	int rc;

	/* One round trip per marker halt: resume, wait, then PC and DWT_CYCCNT. */
	rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script),
	                "resume; if {[catch {wait_halt %u}]} {format R} else {format {%%s %%s} [lindex [reg pc] 2] "
	                "[read_memory 0x%08x 32 1]}",
	                timeout_ms, sample_addr);
	if (rc)
		return rc;
	rc = eval_to(bk, script, timeout_ms + P(bk)->timeout_ms, "resume the target", res, sizeof(res), err);
	if (rc)
		return rc;
	if (!strcmp(res, "R"))
		return bench_fail(err, BENCH_E_TIMEOUT, "target still running after %u ms", timeout_ms);
	if (tcl_parse_u32_list(res, v, 2) != 2)
		return bench_fail(err, BENCH_E_PROTOCOL,
		                  "OpenOCD answered \"%s\" to a PC and counter read: check the "
		                  "OpenOCD version (0.12 or later)",
		                  res);
	memset(out, 0, sizeof(*out));
	out->reason = BK_HALT_OTHER;
	out->pc = v[0];
	*sample = v[1];
	return 0;
}

static int tcl_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	bool words = addr % 4 == 0 && len % 4 == 0;
	uint8_t *b = buf;

	/* Chunks keep each reply small; word accesses where aligned, as peripherals (DWT) need. */
	while (len) {
		size_t chunk = len > 1024 ? 1024 : len;
		size_t count = words ? chunk / 4 : chunk;
		char script[96];
		uint32_t *vals = malloc(count * sizeof(*vals));
		char *res = malloc(count * 12 + 16);
		int rc;

		if (!vals || !res) {
			free(vals);
			free(res);
			return bench_fail(err, BENCH_E_NOMEM, "out of memory");
		}
		rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script), "read_memory 0x%08x %u %zu", addr,
		                words ? 32u : 8u, count);
		if (!rc)
			rc = eval_to(bk, script, P(bk)->timeout_ms, "read target memory", res, count * 12 + 16, err);
		if (!rc && tcl_parse_u32_list(res, vals, count) != (int)count)
			rc = bench_fail(err, BENCH_E_PROTOCOL, "OpenOCD's read_memory at 0x%08x returned junk", addr);
		for (size_t i = 0; !rc && i < count; i++) {
			if (words) {
				for (int k = 0; k < 4; k++)
					b[4 * i + k] = (uint8_t)(vals[i] >> (8 * k));
			} else {
				b[i] = (uint8_t)vals[i];
			}
		}
		free(vals);
		free(res);
		if (rc) {
			if (err->kind == BENCH_E_TARGET)
				(void)str_append(err->msg, sizeof(err->msg), " (address 0x%08x)", addr); /* a hint */
			return rc;
		}
		addr += (uint32_t)chunk;
		b += chunk;
		len -= chunk;
	}
	return 0;
}

static int tcl_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err)
{
	bool words = addr % 4 == 0 && len % 4 == 0;
	const uint8_t *b = buf;

	while (len) {
		size_t chunk = len > 256 ? 256 : len;
		size_t count = words ? chunk / 4 : chunk, n;
		char *script = malloc(count * 12 + 64);
		int rc;

		if (!script)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory");
		n = (size_t)sprintf(script, "write_memory 0x%08x %u {", addr, words ? 32u : 8u);
		for (size_t i = 0; i < count; i++) {
			uint32_t v = words ? le_get32(b + 4 * i) : b[i];
			n += (size_t)sprintf(script + n, "%s0x%x", i ? " " : "", v);
		}
		memcpy(script + n, "}", 2); /* the buffer was sized for every value and the brace */
		rc = eval_to(bk, script, P(bk)->timeout_ms, "write target memory", NULL, 0, err);
		free(script);
		if (rc)
			return rc;
		addr += (uint32_t)chunk;
		b += chunk;
		len -= chunk;
	}
	return 0;
}

/* OpenOCD's register names for the DCRSR REGSEL numbers (src/target/armv7m.c armv7m_regs[]). */
static const char *reg_name(enum backend_reg reg)
{
	static const char *const names[] = {"r0",  "r1",  "r2",  "r3", "r4", "r5", "r6",   "r7",  "r8", "r9",
	                                    "r10", "r11", "r12", "sp", "lr", "pc", "xPSR", "msp", "psp"};
	return (unsigned)reg < sizeof(names) / sizeof(names[0]) ? names[reg] : NULL;
}

static int tcl_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *value, struct bench_error *err)
{
	char script[64], res[128];
	const char *name = reg_name(reg);
	int rc;

	if (!name)
		return bench_fail(err, BENCH_E_INTERNAL, "register %d has no OpenOCD name", (int)reg);
	rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script), "lindex [reg %s] 2", name);
	if (rc)
		return rc;
	rc = eval_to(bk, script, P(bk)->timeout_ms, "read a register", res, sizeof(res), err);
	if (!rc && tcl_parse_u32_list(res, value, 1) != 1)
		rc = bench_fail(err, BENCH_E_PROTOCOL, "OpenOCD's `reg %s` said \"%s\"", name, res);
	return rc;
}

static int tcl_write_reg(struct backend *bk, enum backend_reg reg, uint32_t value, struct bench_error *err)
{
	char script[64];
	const char *name = reg_name(reg);
	int rc;

	if (!name)
		return bench_fail(err, BENCH_E_INTERNAL, "register %d has no OpenOCD name", (int)reg);
	rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script), "reg %s 0x%08x", name, value);
	if (rc)
		return rc;
	return eval_to(bk, script, P(bk)->timeout_ms, "write a register", NULL, 0, err);
}

static int tcl_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err)
{
	const char *s = mode == BK_RESET_HALT ? "reset halt" : mode == BK_RESET_INIT ? "reset init" : "reset run";
	return eval_to(bk, s, TCL_SLOW_MS, "reset the target", NULL, 0, err);
}

static int tcl_load(struct backend *bk, const char *elf_path, struct bench_error *err)
{
	char q[2200], script[4600];
	int rc;

	/* What OpenOCD's own `program FILE verify` does (src/flash/startup.tcl), without its `eval`
	 * of the file name: that would run a name containing braces as Tcl. */
	if (tcl_quote(elf_path, q, sizeof(q)) < 0)
		return bench_fail(err, BENCH_E_FILE, "firmware path too long: move the file");
	rc = eval_to(bk, "reset init", TCL_SLOW_MS, "reset the target before programming", NULL, 0, err);
	if (rc)
		return rc;
	/* `program FILE preverify`: a target that already holds the image is not erased and rewritten
	 * (saves flash wear on a board, and the whole transfer on a preloaded virtual board). */
	rc = script_fmt(err, BENCH_E_FILE, script, sizeof(script), "verify_image %s", q);
	if (rc)
		return rc;
	if (!eval_to(bk, script, TCL_SLOW_MS, "verify the firmware", NULL, 0, err))
		return 0;
	bench_error_clear(err);
	rc = script_fmt(err, BENCH_E_FILE, script, sizeof(script), "flash write_image erase %s", q);
	if (rc)
		return rc;
	rc = eval_to(bk, script, TCL_SLOW_MS, "program the firmware", NULL, 0, err);
	if (rc)
		return rc;
	rc = script_fmt(err, BENCH_E_FILE, script, sizeof(script), "verify_image %s", q);
	if (rc)
		return rc;
	return eval_to(bk, script, TCL_SLOW_MS, "verify the programmed firmware", NULL, 0, err);
}

static int tcl_set_break(struct backend *bk, uint32_t addr, struct bench_error *err)
{
	char script[64];
	int rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script), "bp 0x%08x 2 hw", addr);

	if (rc)
		return rc;
	return eval_to(bk, script, P(bk)->timeout_ms, "set a hardware breakpoint", NULL, 0, err);
}

static int tcl_clear_break(struct backend *bk, uint32_t addr, struct bench_error *err)
{
	char script[64];
	int rc = script_fmt(err, BENCH_E_INTERNAL, script, sizeof(script), "rbp 0x%08x", addr);

	if (rc)
		return rc;
	return eval_to(bk, script, P(bk)->timeout_ms, "clear a breakpoint", NULL, 0, err);
}

static int tcl_monitor(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err)
{
	return eval_to(bk, cmd, TCL_SLOW_MS, "run the monitor command", out, outlen, err);
}

static int tcl_version(struct backend *bk, char *out, size_t outlen, struct bench_error *err)
{
	return eval_to(bk, "version", P(bk)->timeout_ms, "report its version", out, outlen, err);
}

static int tcl_reconnect(struct backend *bk, struct bench_error *err);

static const struct backend_ops tcl_ops = {
    .name = "openocd-tcl",
    .close = tcl_close,
    .halt = tcl_halt,
    .resume = tcl_resume,
    .wait_halt = tcl_wait_halt,
    .read_mem = tcl_read_mem,
    .write_mem = tcl_write_mem,
    .read_reg = tcl_read_reg,
    .write_reg = tcl_write_reg,
    .reset = tcl_reset,
    .load = tcl_load,
    .set_break = tcl_set_break,
    .clear_break = tcl_clear_break,
    .monitor = tcl_monitor,
    .version = tcl_version,
    .resume_sample = tcl_resume_sample,
    .reconnect = tcl_reconnect,
};

/* A connected, non-Nagle socket to host:port, or a negated bench_err. */
static int tcl_connect(const char *host, const char *port, int *out, struct bench_error *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	int fd = -1, e = 0, one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(host, port, &hints, &res)) != 0)
		return bench_fail(err, BENCH_E_CONNECT, "cannot resolve %s: %s: check the host name", host,
		                  gai_strerror(e));
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen)) {
			e = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		return bench_fail(err, BENCH_E_CONNECT,
		                  "nothing answers at %s:%s (%s): start OpenOCD with its TCL port "
		                  "there, or leave out --openocd",
		                  host, port, strerror(e));
	/* Small request/reply exchanges: Nagle would add 40 ms to each (RFC 896 with delayed ACKs). */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*out = fd;
	return 0;
}

/* OpenOCD's TCL server takes several clients (tcl_server.c: one connection each): a fresh one
 * carries no reply owed to the old, and a command's effect does not depend on the connection. */
static int tcl_reconnect(struct backend *bk, struct bench_error *err)
{
	struct tcl_priv *t = P(bk);
	int fd, rc = tcl_connect(t->host, t->port, &fd, err);

	if (rc)
		return rc;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = fd;
	t->pending = 0;
	t->rx_len = 0;
	return 0;
}

int tcl_backend_open(struct backend *bk, const char *host_port, unsigned timeout_ms, struct bench_error *err)
{
	char host[96], port[8];
	struct tcl_priv *t;
	int fd = -1, rc;

	memset(bk, 0, sizeof(*bk));
	if (tcl_split_host_port(host_port, host, sizeof(host), port, sizeof(port)))
		return bench_fail(err, BENCH_E_USAGE, "bad address '%s': give HOST:PORT, e.g. 127.0.0.1:6666",
		                  host_port);
	if ((rc = tcl_connect(host, port, &fd, err)))
		return rc;
	t = calloc(1, sizeof(*t));
	if (!t) {
		close(fd);
		return bench_fail(err, BENCH_E_NOMEM, "out of memory");
	}
	t->fd = fd;
	t->timeout_ms = timeout_ms ? timeout_ms : 10000u;
	/* Both fit: tcl_split_host_port checked them against the same sizes. */
	(void)str_copy(t->host, sizeof(t->host), host);
	(void)str_copy(t->port, sizeof(t->port), port);
	str_fmt_cut(t->peer, sizeof(t->peer), "%s:%s", host, port); /* for messages */
	bk->ops = &tcl_ops;
	bk->priv = t;
	bk->caps = BK_CAP_HALT_ON_BKPT | BK_CAP_CYCCNT | BK_CAP_FLASH | BK_CAP_HW_BREAK | BK_CAP_RESET | BK_CAP_MONITOR;
	return 0;
}

void tcl_backend_set_timeout(struct backend *bk, unsigned timeout_ms)
{
	if (bk && bk->priv && bk->ops == &tcl_ops)
		P(bk)->timeout_ms = timeout_ms;
}
