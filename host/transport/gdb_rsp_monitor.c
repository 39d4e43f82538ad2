/* Monitor commands over the GDB remote protocol (qRcmd, GDB manual E.4): `monitor ...` for the
 * user, and run control through the server's own commands where its stop replies are slow
 * (struct rsp_flavour.run_cmd: OpenOCD's resume / wait_halt / halt). It sits below gdb_rsp.c and
 * calls only the exchange (gdb_rsp_xchg.c): gdb_rsp.c resets through rsp_monitor() and says why
 * the target stopped after rsp_mon_wait(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/gdb_rsp_priv.h"
#include "base/clock.h"

static bool all_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", p[i]))
			return false;
	return n > 0;
}

/* qRcmd,HEX(cmd): output comes as O packets (or one hex reply), then OK or Exx (E.4). */
static int monitor_timeout(struct rsp_priv *s, const char *cmd, char *out, size_t outlen, unsigned timeout_ms,
                           struct bench_error *err)
{
	size_t n = strlen(cmd), o = 0;
	char *pkt = malloc(2 * n + 8);
	int rc;

	if (!pkt)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory for qRcmd");
	memcpy(pkt, "qRcmd,", 6); // NOLINT(bugprone-not-null-terminated-result): a packet with a length, not a C string
	rsp_hex_encode(cmd, n, pkt + 6);
	rc = rsp_exchange_console(s, pkt, 6 + 2 * n, timeout_ms, err);
	free(pkt);
	if (out && outlen)
		out[0] = '\0';
	while (rc == 0) {
		const char *r = s->link.parser.data;
		size_t len = s->link.parser.len;
		bool console = rsp_is_console(s);

		if (!console && (len == 0 || (r[0] == 'E' && len == 3))) {
			/* OpenOCD says why in the output before its Exx ("target not halted") */
			const char *why = out && o ? out : r;

			return bench_fail(err, len == 0 ? BENCH_E_UNSUPPORTED : BENCH_E_TARGET,
			                  "gdbserver %s %s monitor command '%s'%s%.200s", s->link.io.peer,
			                  len == 0 ? "does not support" : "refused", cmd, len ? ": " : "", why);
		}
		if (console || (strcmp(r, "OK") && !(len & 1) && all_hex(r, len))) {
			/* Output, as O packets or as the final hex reply. */
			const char *h = console ? r + 1 : r;

			for (size_t i = 0; h[2 * i] && h[2 * i + 1]; i++) {
				uint8_t c;

				if (rsp_hex_decode(h + 2 * i, &c, 1) == 0 && out && o + 1 < outlen)
					out[o++] = (char)c;
			}
			if (out && outlen)
				out[o] = '\0';
			if (!console)
				return 0;
			rc = rsp_link_recv(&s->link, clock_now_ms() + timeout_ms, err);
			continue;
		}
		return 0; /* "OK" */
	}
	return rc;
}

int rsp_monitor(struct rsp_priv *s, const char *cmd, char *out, size_t outlen, struct bench_error *err)
{
	/* Monitor commands may take a while (reset, flash): four exchange timeouts. */
	return monitor_timeout(s, cmd, out, outlen, 4 * s->link.timeout_ms, err);
}

int rsp_op_monitor(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err)
{
	struct rsp_priv *s = bk->priv;
	int rc;

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "monitor '%s' while the target runs: halt it first", cmd);
	rc = rsp_monitor(s, cmd, out, outlen, err);
	/* A monitor command may have changed anything (reset, register writes). */
	s->pc_valid = false;
	return rc;
}

int rsp_mon_resume(struct rsp_priv *s, struct bench_error *err)
{
	char out[256];
	int rc = rsp_monitor(s, s->flavour->run_cmd, out, sizeof(out), err);

	if (rc < 0)
		return rc;
	s->running = true;
	s->mon_run = true;
	s->pc_valid = false;
	return 0;
}

/* "wait_halt MS": OK once halted; Exx with "timed out while waiting for target halted" when not
 * (OpenOCD src/target/target.c target_wait_state): the target then still runs. */
static int mon_wait(struct rsp_priv *s, const char *cmd, unsigned timeout_ms, struct bench_error *err)
{
	char out[512];
	int rc;

	rc = monitor_timeout(s, cmd, out, sizeof(out), timeout_ms + s->link.timeout_ms, err);
	if (rc < 0) {
		if (err->kind == BENCH_E_TARGET && strstr(out, "timed out"))
			return bench_fail(err, BENCH_E_TIMEOUT, "target did not halt within %u ms (gdbserver %s)",
			                  timeout_ms, s->link.io.peer);
		return rc;
	}
	s->running = false;
	s->mon_run = false;
	s->pc_valid = false;
	return 0;
}

int rsp_mon_wait(struct rsp_priv *s, unsigned timeout_ms, struct bench_error *err)
{
	char cmd[64];

	(void)snprintf(cmd, sizeof(cmd), "%s %u", s->flavour->wait_cmd, timeout_ms);
	return mon_wait(s, cmd, timeout_ms, err);
}

/* One exchange for a marker halt: OpenOCD runs "resume; wait_halt MS" as one Tcl script. A
 * timeout leaves the target running (mon_run) for the caller's wait_halt. */
int rsp_mon_resume_wait(struct rsp_priv *s, unsigned timeout_ms, struct bench_error *err)
{
	char cmd[96];

	int rc;

	(void)snprintf(cmd, sizeof(cmd), "%s; %s %u", s->flavour->run_cmd, s->flavour->wait_cmd, timeout_ms);
	s->running = true;
	s->mon_run = true;
	s->pc_valid = false;
	rc = mon_wait(s, cmd, timeout_ms, err);
	if (rc < 0 && err->kind != BENCH_E_TIMEOUT) {
		/* the script stopped at `resume` (e.g. "target not halted"): nothing was started */
		s->running = false;
		s->mon_run = false;
	}
	return rc;
}

int rsp_mon_halt(struct rsp_priv *s, struct bench_error *err)
{
	char out[512];
	int rc = rsp_monitor(s, s->flavour->halt_cmd, out, sizeof(out), err);

	if (rc < 0)
		return rc;
	s->running = false;
	s->mon_run = false;
	s->pc_valid = false;
	return 0;
}
