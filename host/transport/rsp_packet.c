/* GDB remote protocol framing and acknowledgements (see rsp_packet.h; GDB manual E.1). */
#include "transport/rsp_packet.h"
#include "base/clock.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_IDLE, ST_DATA, ST_ESC, ST_RLE, ST_CS1, ST_CS2 };

/* More bytes than this outside any packet and the peer is not speaking the GDB protocol. */
#define RSP_GARBAGE_LIMIT 64u
#define RSP_RETRIES       3

int rsp_parser_init(struct rsp_parser *p, size_t max_payload)
{
	memset(p, 0, sizeof(*p));
	p->max = max_payload;
	p->cap = 256;
	p->data = malloc(p->cap);
	if (!p->data)
		return -1;
	p->data[0] = '\0';
	return 0;
}

void rsp_parser_free(struct rsp_parser *p)
{
	free(p->data);
	p->data = NULL;
}

static int hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Appends n copies of c; false (and an error message) past the payload limit. */
static bool put(struct rsp_parser *p, char c, size_t n)
{
	if (p->len + n + 1 > p->max) {
		(void)snprintf(p->msg, sizeof(p->msg), "packet longer than %zu bytes", p->max);
		return false;
	}
	if (p->len + n + 1 > p->cap) {
		size_t cap = p->cap;
		char *d;

		while (cap < p->len + n + 1)
			cap *= 2;
		if (cap > p->max)
			cap = p->max;
		d = realloc(p->data, cap);
		if (!d) {
			(void)snprintf(p->msg, sizeof(p->msg), "out of memory for a %zu-byte packet", cap);
			return false;
		}
		p->data = d;
		p->cap = cap;
	}
	memset(p->data + p->len, c, n);
	p->len += n;
	p->data[p->len] = '\0';
	return true;
}

static void note_garbage(struct rsp_parser *p, uint8_t byte)
{
	size_t n = strlen(p->garbage_preview);

	if (n + 1 < sizeof(p->garbage_preview))
		p->garbage_preview[n] = isprint(byte) ? (char)byte : '.';
	p->garbage++;
}

enum rsp_frame rsp_parser_feed(struct rsp_parser *p, uint8_t c)
{
	switch (p->state) {
	case ST_IDLE:
		if (c == '$' || c == '%') {
			p->state = ST_DATA;
			p->notify = c == '%';
			p->sum = 0;
			p->len = 0;
			p->data[0] = '\0';
			p->msg[0] = '\0';
			return RSP_FRAME_NONE;
		}
		if (c == '+' || c == '-') {
			/* Acks do not clear the garbage count: "Content-Type" in an HTTP reply holds a '-'. */
			return c == '+' ? RSP_FRAME_ACK : RSP_FRAME_NACK;
		}
		note_garbage(p, c);
		return RSP_FRAME_NONE;
	case ST_DATA:
		if (c == '#') {
			p->state = ST_CS1;
			return RSP_FRAME_NONE;
		}
		p->sum += c;
		if (c == '}') {
			p->state = ST_ESC;
		} else if (c == '*') {
			if (p->len == 0) {
				(void)snprintf(p->msg, sizeof(p->msg), "run-length count with nothing to repeat");
				p->state = ST_IDLE;
				return RSP_FRAME_ERROR;
			}
			p->state = ST_RLE;
		} else if (c == '$') {
			/* A new packet start inside a packet: the previous one was cut short; restart. */
			p->sum = 0;
			p->len = 0;
			p->notify = false;
		} else if (!put(p, (char)c, 1)) {
			p->state = ST_IDLE;
			return RSP_FRAME_ERROR;
		}
		return RSP_FRAME_NONE;
	case ST_ESC:
		p->sum += c;
		p->state = ST_DATA;
		if (!put(p, (char)(c ^ 0x20), 1)) {
			p->state = ST_IDLE;
			return RSP_FRAME_ERROR;
		}
		return RSP_FRAME_NONE;
	case ST_RLE:
		/* E.1: the count character is N+29; '#' and '$' are never used, so N is 3..97 */
		p->sum += c;
		p->state = ST_DATA;
		if (c < 29 + 3 || c > 126 || c == '#' || c == '$') {
			(void)snprintf(p->msg, sizeof(p->msg), "bad run-length count byte 0x%02x", c);
			p->state = ST_IDLE;
			return RSP_FRAME_ERROR;
		}
		if (!put(p, p->data[p->len - 1], (size_t)(c - 29))) {
			p->state = ST_IDLE;
			return RSP_FRAME_ERROR;
		}
		return RSP_FRAME_NONE;
	case ST_CS1:
		if (hexval(c) < 0) {
			(void)snprintf(p->msg, sizeof(p->msg), "checksum digit 0x%02x is not hex", c);
			p->state = ST_IDLE;
			return RSP_FRAME_ERROR;
		}
		p->csum = (uint8_t)(hexval(c) << 4);
		p->state = ST_CS2;
		return RSP_FRAME_NONE;
	case ST_CS2:
	default:
		p->state = ST_IDLE;
		if (hexval(c) < 0) {
			(void)snprintf(p->msg, sizeof(p->msg), "checksum digit 0x%02x is not hex", c);
			return RSP_FRAME_ERROR;
		}
		p->csum |= (uint8_t)hexval(c);
		p->garbage = 0;
		memset(p->garbage_preview, 0, sizeof(p->garbage_preview));
		if (p->csum != p->sum) {
			(void)snprintf(p->msg, sizeof(p->msg), "checksum 0x%02x, computed 0x%02x", p->csum, p->sum);
			return RSP_FRAME_BAD_CSUM;
		}
		return p->notify ? RSP_FRAME_NOTIFY : RSP_FRAME_PACKET;
	}
}

size_t rsp_packet_encode(char prefix, const void *payload, size_t len, char *out, size_t outcap)
{
	const uint8_t *in = payload;
	size_t o = 0;
	uint8_t sum = 0;

	if (outcap < 4)
		return 0;
	out[o++] = prefix;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = in[i];

		if (o + 2 + 3 > outcap)
			return 0;
		if (c == '#' || c == '$' || c == '}' || c == '*') {
			out[o++] = '}';
			sum += '}';
			c ^= 0x20;
		}
		out[o++] = (char)c;
		sum += c;
	}
	if (o + 3 > outcap)
		return 0;
	o += (size_t)snprintf(out + o, 4, "#%02x", sum);
	return o;
}

void rsp_hex_encode(const void *data, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *d = data;

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * len] = '\0';
}

int rsp_hex_decode(const char *hex, void *out, size_t len)
{
	uint8_t *o = out;

	for (size_t i = 0; i < len; i++) {
		int hi = hexval((uint8_t)hex[2 * i]), lo;

		if (hi < 0)
			return -1;
		lo = hexval((uint8_t)hex[2 * i + 1]);
		if (lo < 0)
			return -1;
		o[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int rsp_link_init(struct rsp_link *l, size_t max_payload, unsigned timeout_ms, struct bench_error *err)
{
	memset(l, 0, sizeof(*l));
	l->io.fd = -1;
	l->timeout_ms = timeout_ms;
	l->outcap = 2 * max_payload + 4;
	l->out = malloc(l->outcap);
	if (!l->out || rsp_parser_init(&l->parser, max_payload) != 0) {
		free(l->out);
		l->out = NULL;
		return bench_fail(err, BENCH_E_NOMEM, "out of memory for the GDB packet buffers");
	}
	return 0;
}

void rsp_link_free(struct rsp_link *l)
{
	rsp_io_close(&l->io);
	rsp_parser_free(&l->parser);
	free(l->out);
	l->out = NULL;
}

static int not_gdb(struct rsp_link *l, struct bench_error *err)
{
	return bench_fail(err, BENCH_E_PROTOCOL,
	                  "%s sent %zu bytes that are not GDB remote protocol (\"%s\"): is this a gdbserver port?",
	                  l->io.peer, l->parser.garbage, l->parser.garbage_preview);
}

int rsp_link_send_byte(struct rsp_link *l, uint8_t byte, struct bench_error *err)
{
	return rsp_io_write(&l->io, &byte, 1, clock_now_ms() + l->timeout_ms, err);
}

/* Waits for '+' (or '-': returns 1 to resend). Packets arriving meanwhile are protocol errors
 * only if they come instead of an ack; GDB servers always ack first. */
static int wait_ack(struct rsp_link *l, uint64_t deadline, struct bench_error *err)
{
	for (;;) {
		int c = rsp_io_getc(&l->io, deadline, err);
		enum rsp_frame f;

		if (c < 0)
			return c;
		f = rsp_parser_feed(&l->parser, (uint8_t)c);
		if (f == RSP_FRAME_ACK)
			return 0;
		if (f == RSP_FRAME_NACK)
			return 1;
		if (f == RSP_FRAME_PACKET || f == RSP_FRAME_NOTIFY || f == RSP_FRAME_BAD_CSUM || f == RSP_FRAME_ERROR)
			return bench_fail(err, BENCH_E_PROTOCOL,
			                  "%s answered with a packet (\"%.40s\") instead of an ack", l->io.peer,
			                  l->parser.data);
		if (l->parser.garbage > RSP_GARBAGE_LIMIT)
			return not_gdb(l, err);
	}
}

int rsp_link_send(struct rsp_link *l, const void *payload, size_t len, struct bench_error *err)
{
	size_t n = rsp_packet_encode('$', payload, len, l->out, l->outcap);

	if (n == 0)
		return bench_fail(err, BENCH_E_INTERNAL, "GDB packet of %zu bytes exceeds the buffer", len);
	for (int attempt = 0;; attempt++) {
		uint64_t deadline = clock_now_ms() + l->timeout_ms;
		int rc = rsp_io_write(&l->io, l->out, n, deadline, err);

		if (rc < 0 || l->noack)
			return rc;
		rc = wait_ack(l, deadline, err);
		if (rc == 0)
			return 0;
		if (rc < 0) {
			if (err->kind == BENCH_E_TIMEOUT)
				return bench_fail(
				    err, BENCH_E_PROTOCOL, "%s did not acknowledge packet \"%.40s\" within %u ms%s",
				    l->io.peer, (const char *)payload, l->timeout_ms,
				    l->parser.garbage ? " (it sent bytes that are not GDB protocol)" : "");
			return rc;
		}
		if (attempt + 1 >= RSP_RETRIES)
			return bench_fail(err, BENCH_E_PROTOCOL, "%s refused packet \"%.40s\" %d times (bad checksum?)",
			                  l->io.peer, (const char *)payload, RSP_RETRIES);
	}
}

int rsp_link_recv(struct rsp_link *l, uint64_t deadline_ms, struct bench_error *err)
{
	int bad = 0;

	for (;;) {
		int c = rsp_io_getc(&l->io, deadline_ms, err);
		enum rsp_frame f;
		int rc;

		if (c < 0) {
			if (l->parser.state != ST_IDLE && err->kind == BENCH_E_CONNECT)
				return bench_fail(err, BENCH_E_CONNECT, "gdbserver %s closed the connection mid-packet",
				                  l->io.peer);
			if (err->kind == BENCH_E_TIMEOUT && l->parser.garbage > 0)
				return not_gdb(l, err);
			return c;
		}
		f = rsp_parser_feed(&l->parser, (uint8_t)c);
		switch (f) {
		case RSP_FRAME_PACKET:
			return l->noack ? 0 : rsp_io_write(&l->io, "+", 1, clock_now_ms() + l->timeout_ms, err);
		case RSP_FRAME_NOTIFY:
			l->notifications++;
			break;
		case RSP_FRAME_BAD_CSUM:
			if (l->noack || ++bad >= RSP_RETRIES)
				return bench_fail(err, BENCH_E_PROTOCOL, "bad packet from %s: %s", l->io.peer,
				                  l->parser.msg);
			rc = rsp_io_write(&l->io, "-", 1, clock_now_ms() + l->timeout_ms, err);
			if (rc < 0)
				return rc;
			break;
		case RSP_FRAME_ERROR:
			return bench_fail(err, BENCH_E_PROTOCOL, "bad packet from %s: %s", l->io.peer, l->parser.msg);
		default:
			if (l->parser.garbage > RSP_GARBAGE_LIMIT)
				return not_gdb(l, err);
			break;
		}
	}
}
