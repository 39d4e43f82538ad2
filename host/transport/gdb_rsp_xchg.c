/* One GDB RSP exchange (GDB manual, Appendix E "Remote Protocol"): a packet out, its reply in,
 * console O packets skipped or kept, and qXfer reads in chunks. The layer the rest of gdb_rsp*.c
 * talks through; it calls only rsp_packet.c, never back into them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "transport/gdb_rsp_priv.h"

/* E.3: 'O' XX... is console output; "OK" is not ('K' is not hex). */
bool rsp_is_console(const struct rsp_priv *s)
{
	const char *r = s->link.parser.data;
	size_t len = s->link.parser.len;

	if (r[0] != 'O' || len < 3 || !(len & 1))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", r[i]))
			return false;
	return true;
}

/* Sends a packet and receives its reply; console packets before the reply are returned as they
 * come when keep_console, else skipped (OpenOCD forwards its log as O packets at any time, e.g.
 * "Polling target failed" before the reply to a `p`). */
static int exchange(struct rsp_priv *s, const void *payload, size_t len, bool keep_console, unsigned timeout_ms,
                    struct bench_error *err)
{
	int rc = rsp_link_send(&s->link, payload, len, err);

	do {
		if (rc < 0)
			break;
		rc = rsp_link_recv(&s->link, clock_now_ms() + timeout_ms, err);
	} while (rc == 0 && !keep_console && rsp_is_console(s));
	if (rc < 0 && err->kind == BENCH_E_TIMEOUT)
		return bench_fail(err, BENCH_E_PROTOCOL, "gdbserver %s did not answer \"%.*s\" within %u ms",
		                  s->link.io.peer, (int)(len > 40 ? 40 : len), (const char *)payload, timeout_ms);
	return rc;
}

int rsp_exchange(struct rsp_priv *s, const void *payload, size_t len, struct bench_error *err)
{
	return exchange(s, payload, len, false, s->link.timeout_ms, err);
}

int rsp_exchange_console(struct rsp_priv *s, const void *payload, size_t len, unsigned timeout_ms,
                         struct bench_error *err)
{
	return exchange(s, payload, len, true, timeout_ms, err);
}

int rsp_command(struct rsp_priv *s, struct bench_error *err, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return bench_fail(err, BENCH_E_INTERNAL, "GDB command too long");
	return rsp_exchange(s, buf, (size_t)n, err);
}

const char *rsp_reply(struct rsp_priv *s)
{
	return s->link.parser.data;
}

int rsp_qxfer_read(struct rsp_priv *s, const char *object, const char *annex, char **out, struct bench_error *err)
{
	size_t len = 0, cap = 1024, chunk = s->server_packet_size > 64 ? s->server_packet_size - 32 : 256;
	char *buf = malloc(cap);

	if (!buf)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading qXfer:%s", object);
	for (;;) {
		int rc = rsp_command(s, err, "qXfer:%s:read:%s:%zx,%zx", object, annex, len, chunk);
		const char *r = rsp_reply(s);
		size_t n = s->link.parser.len;

		if (rc < 0) {
			free(buf);
			return rc;
		}
		if (n == 0 || (r[0] != 'm' && r[0] != 'l')) {
			free(buf);
			return bench_fail(err, BENCH_E_PROTOCOL, "gdbserver %s refused qXfer:%s:read:%s (\"%.20s\")",
			                  s->link.io.peer, object, annex, r);
		}
		if (len + n + 1 > cap) {
			char *nb;

			while (len + n + 1 > cap)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return bench_fail(err, BENCH_E_NOMEM, "out of memory reading qXfer:%s", object);
			}
			buf = nb;
		}
		memcpy(buf + len, r + 1, n - 1);
		len += n - 1;
		buf[len] = '\0';
		if (r[0] == 'l' || n == 1)
			break;
		if (len > 1024u * 1024u) {
			free(buf);
			return bench_fail(err, BENCH_E_PROTOCOL, "qXfer:%s:%s from %s exceeds 1 MiB", object, annex,
			                  s->link.io.peer);
		}
	}
	*out = buf;
	return 0;
}
