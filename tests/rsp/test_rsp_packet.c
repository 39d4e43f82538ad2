/* The RSP framing layer on recorded byte streams (GDB manual E.1): escapes, run-length encoding,
 * checksums, packets split across reads, notifications, console output, acks. Streams marked
 * "recorded" were captured from qemu-system-arm 7.2.22's gdbstub (Debian 12) on 127.0.0.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "transport/rsp_packet.h"
#include "base/clock.h"

struct frame_log {
	enum rsp_frame kind[16];
	char data[16][256];
	size_t len[16];
	size_t n;
};

/* Feeds a stream, logging every completed frame with its payload. */
static void feed(struct rsp_parser *p, const char *bytes, size_t n, struct frame_log *log)
{
	for (size_t i = 0; i < n; i++) {
		enum rsp_frame f = rsp_parser_feed(p, (uint8_t)bytes[i]);

		if (f == RSP_FRAME_NONE)
			continue;
		assert_true(log->n < 16);
		log->kind[log->n] = f;
		log->len[log->n] = p->len;
		memcpy(log->data[log->n], p->data, p->len < 255 ? p->len + 1 : 255);
		log->n++;
	}
}

static void one_packet(const char *stream, enum rsp_frame want, const char *payload, size_t payload_len)
{
	struct rsp_parser p;
	struct frame_log log = {0};

	assert_int_equal(rsp_parser_init(&p, 4096), 0);
	feed(&p, stream, strlen(stream), &log);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.kind[0], want);
	if (payload) {
		assert_int_equal(log.len[0], payload_len);
		assert_memory_equal(log.data[0], payload, payload_len);
	}
	rsp_parser_free(&p);
}

static void test_plain_and_acks(void **state)
{
	struct rsp_parser p;
	struct frame_log log = {0};
	/* recorded: QEMU's ack, its qSupported reply, and a '-' */
	static const char s[] = "+$PacketSize=1000;qXfer:features:read+;vContSupported+;multiprocess+#92-";

	(void)state;
	assert_int_equal(rsp_parser_init(&p, 4096), 0);
	feed(&p, s, strlen(s), &log);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.kind[0], RSP_FRAME_ACK);
	assert_int_equal(log.kind[1], RSP_FRAME_PACKET);
	assert_string_equal(log.data[1], "PacketSize=1000;qXfer:features:read+;vContSupported+;multiprocess+");
	assert_int_equal(log.kind[2], RSP_FRAME_NACK);
	rsp_parser_free(&p);
}

static void test_escapes(void **state)
{
	(void)state;
	/* '}' escapes the next byte XOR 0x20: "}]" = '}', "}\x03" = '#', "}\x04" = '$', "}\x0a" = '*';
	 * the checksum covers the escaped bytes as sent: 'a'+'}'+']'+'}'+0x03+'}'+0x04+'}'+0x0a+'b' */
	one_packet("$a}]}\x03}\x04}\x0a"
	           "b#25",
	           RSP_FRAME_PACKET, "a}#$*b", 6);
}

static void test_escaped_zero(void **state)
{
	struct rsp_parser p;
	struct frame_log log = {0};
	static const char s[] = {'$', 'x', 0, 'y', '#', 'f', '1'};

	(void)state;
	assert_int_equal(rsp_parser_init(&p, 64), 0);
	feed(&p, s, sizeof(s), &log);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.kind[0], RSP_FRAME_PACKET);
	assert_int_equal(log.len[0], 3);
	assert_memory_equal(log.data[0], "x\0y", 3);
	rsp_parser_free(&p);
}

static void test_run_length(void **state)
{
	(void)state;
	/* GDB manual E.1: "0* " is "0000" (' ' = 32 = 3 + 29 more copies). */
	one_packet("$0* #7a", RSP_FRAME_PACKET, "0000", 4);
	one_packet("$0*$#7e", RSP_FRAME_ERROR, NULL, 0);         /* '$' is never a count */
	one_packet("$a*\"b#0f", RSP_FRAME_PACKET, "aaaaaab", 7); /* '"' = 34: 5 more copies, 6 in all */
	one_packet("$*!#4b", RSP_FRAME_ERROR, NULL, 0);          /* nothing to repeat */
}

static void test_bad_checksum(void **state)
{
	(void)state;
	one_packet("$OK#9b", RSP_FRAME_BAD_CSUM, NULL, 0);
	one_packet("$OK#9a", RSP_FRAME_PACKET, "OK", 2);
	one_packet("$OK#zz", RSP_FRAME_ERROR, NULL, 0);
}

static void test_split_across_reads(void **state)
{
	/* recorded: QEMU's answer to `monitor info version`, two packets, fed one byte at a time
	 * and in odd-sized pieces: the frames are the same. */
	static const char s[] =
	    "$O372e322e323244656269616e20313a372e322b646673672d372b64656231327531382b62330d0a#1f$OK#9a";
	size_t cuts[] = {1, 3, 7, 40, 1, 2};
	struct rsp_parser p;
	struct frame_log log = {0};
	size_t off = 0, k = 0;

	(void)state;
	assert_int_equal(rsp_parser_init(&p, 4096), 0);
	while (off < strlen(s)) {
		size_t n = cuts[k++ % 6];

		if (n > strlen(s) - off)
			n = strlen(s) - off;
		feed(&p, s + off, n, &log);
		off += n;
	}
	assert_int_equal(log.n, 2);
	assert_int_equal(log.kind[0], RSP_FRAME_PACKET);
	assert_string_equal(log.data[0],
	                    "O372e322e323244656269616e20313a372e322b646673672d372b64656231327531382b62330d0a");
	assert_string_equal(log.data[1], "OK");
	rsp_parser_free(&p);
}

static void test_notification(void **state)
{
	struct rsp_parser p;
	struct frame_log log = {0};
	/* E.9: a %Stop notification between two packets */
	static const char s[] = "$OK#9a%Stop:T05thread:01;#e7$E01#a6";

	(void)state;
	assert_int_equal(rsp_parser_init(&p, 4096), 0);
	feed(&p, s, strlen(s), &log);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.kind[1], RSP_FRAME_NOTIFY);
	assert_string_equal(log.data[1], "Stop:T05thread:01;");
	assert_int_equal(log.kind[2], RSP_FRAME_PACKET);
	assert_string_equal(log.data[2], "E01");
	rsp_parser_free(&p);
}

static void test_garbage_counted(void **state)
{
	struct rsp_parser p;
	struct frame_log log = {0};
	static const char s[] = "HTTP/1.0 400\r\n";

	(void)state;
	assert_int_equal(rsp_parser_init(&p, 4096), 0);
	feed(&p, s, strlen(s), &log);
	assert_int_equal(log.n, 0);
	assert_int_equal(p.garbage, 14);
	assert_string_equal(p.garbage_preview, "HTTP/1.0 400..");
	rsp_parser_free(&p);
}

static void test_too_long(void **state)
{
	(void)state;
	struct rsp_parser p;
	struct frame_log log = {0};

	assert_int_equal(rsp_parser_init(&p, 8), 0);
	feed(&p, "$0123456789#00", 14, &log);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.kind[0], RSP_FRAME_ERROR);
	assert_string_equal(p.msg, "packet longer than 8 bytes");
	rsp_parser_free(&p);
}

static void test_encode(void **state)
{
	char out[64];
	size_t n;

	(void)state;
	n = rsp_packet_encode('$', "qSupported", 10, out, sizeof(out));
	assert_int_equal(n, 14);
	assert_memory_equal(out, "$qSupported#37", 14);
	/* binary X data: '#', '$', '}' and '*' escaped; the checksum is over the escaped bytes */
	n = rsp_packet_encode('$', "X0,4:#$}*", 9, out, sizeof(out));
	assert_memory_equal(out, "$X0,4:}\x03}\x04}]}\x0a#", 15);
	assert_int_equal(n, 17);
	assert_int_equal(rsp_packet_encode('$', "abc", 3, out, 6), 0);
}

static void test_hex(void **state)
{
	uint8_t b[4];
	char h[9];

	(void)state;
	rsp_hex_encode("\x01\xab\xff\x00", 4, h);
	assert_string_equal(h, "01abff00");
	assert_int_equal(rsp_hex_decode("DEADbeef", b, 4), 0);
	assert_memory_equal(b, "\xde\xad\xbe\xef", 4);
	assert_int_equal(rsp_hex_decode("0g", b, 1), -1);
}

/* The ack layer over a socketpair: a NAK makes the sender retransmit; a bad checksum from the
 * peer gets a '-' back; console O packets and notifications pass through recv as they are. */
static void test_link_retransmit(void **state)
{
	int sv[2];
	struct rsp_link l;
	struct bench_error err;
	char buf[64];
	ssize_t n;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(rsp_link_init(&l, 4096, 500, &err), 0);
	rsp_io_from_fd(&l.io, sv[0], "pair");
	/* the peer NAKs once, then ACKs: rsp_link_send must write the packet twice */
	assert_int_equal(write(sv[1], "-+", 2), 2);
	assert_int_equal(rsp_link_send(&l, "g", 1, &err), 0);
	n = read(sv[1], buf, sizeof(buf));
	assert_int_equal(n, 10);
	assert_memory_equal(buf, "$g#67$g#67", 10);
	/* a reply with a bad checksum, then the good one: we NAK the first and ACK the second */
	assert_int_equal(write(sv[1], "$OK#00$OK#9a", 12), 12);
	assert_int_equal(rsp_link_recv(&l, clock_now_ms() + 500, &err), 0);
	assert_string_equal(l.parser.data, "OK");
	n = read(sv[1], buf, sizeof(buf));
	assert_int_equal(n, 2);
	assert_memory_equal(buf, "-+", 2);
	/* notifications are skipped and counted */
	assert_int_equal(write(sv[1], "%Stop:T05#99$S05#b8", 19), 19);
	assert_int_equal(rsp_link_recv(&l, clock_now_ms() + 500, &err), 0);
	assert_string_equal(l.parser.data, "S05");
	assert_int_equal(l.notifications, 1);
	/* a peer that goes quiet: a timeout, not a hang */
	assert_int_equal(rsp_link_recv(&l, clock_now_ms() + 50, &err), -BENCH_E_TIMEOUT);
	/* closed mid-packet */
	assert_int_equal(write(sv[1], "$PacketSi", 9), 9);
	close(sv[1]);
	assert_int_equal(rsp_link_recv(&l, clock_now_ms() + 500, &err), -BENCH_E_CONNECT);
	assert_string_equal(err.msg, "gdbserver pair closed the connection mid-packet");
	rsp_link_free(&l);
}

static bool always(void *ctx)
{
	(void)ctx;
	return true;
}

/* Ctrl-C while the gdbserver is silent: the wait ends as interrupted, not at the deadline (the TCL
 * client does the same: tests/host/test_tcl.c test_openocd_cancel). */
static void test_link_cancel(void **state)
{
	int sv[2];
	struct rsp_link l;
	struct bench_error err;
	const struct bench_cancel cancel = {always, NULL};

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(rsp_link_init(&l, 4096, 500, &err), 0);
	rsp_io_from_fd(&l.io, sv[0], "pair");
	l.io.cancel = &cancel;
	assert_int_equal(rsp_link_recv(&l, clock_now_ms() + 60000, &err), -BENCH_E_INTERRUPTED);
	assert_string_equal(err.msg, "interrupted");
	close(sv[1]);
	rsp_link_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain_and_acks),
	    cmocka_unit_test(test_link_cancel),
	    cmocka_unit_test(test_escapes),
	    cmocka_unit_test(test_escaped_zero),
	    cmocka_unit_test(test_run_length),
	    cmocka_unit_test(test_bad_checksum),
	    cmocka_unit_test(test_split_across_reads),
	    cmocka_unit_test(test_notification),
	    cmocka_unit_test(test_garbage_counted),
	    cmocka_unit_test(test_too_long),
	    cmocka_unit_test(test_encode),
	    cmocka_unit_test(test_hex),
	    cmocka_unit_test(test_link_retransmit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
