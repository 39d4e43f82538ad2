/* The RSP backend against scripted peers on 127.0.0.1 (fake_gdbserver.c): nothing listening, a
 * server that hangs up mid-packet, garbage, a server without qSupported, a silent server, a target
 * description of another architecture, and a minimal generic gdbserver (no p packet, registers
 * through g, description split by xi:include). Each error is checked by kind and message, and
 * every case must end well within its deadline. */
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_gdbserver.h"
#include "base/clock.h"
#include "transport/gdb_rsp.h"
#include "transport/rsp_io.h"
#include "transport/rsp_packet.h"

static char pool[32][1024];
static int pool_n;

/* "+$payload#cs": an ack for the client's packet, then the reply. */
static const char *P(const char *payload)
{
	char *o = pool[pool_n++ % 32];

	o[0] = '+';
	rsp_packet_encode('$', payload, strlen(payload), o + 1, sizeof(pool[0]) - 1);
	return o;
}

static int open_fake(struct fake_server *fs, struct backend *bk, unsigned timeout_ms, struct bench_error *err)
{
	char hp[32];

	assert_int_equal(fake_server_start(fs), 0);
	snprintf(hp, sizeof(hp), "127.0.0.1:%u", (unsigned)fs->port);
	return rsp_backend_open_timeout(bk, hp, timeout_ms, err);
}

static void test_nothing_listening(void **state)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct backend bk;
	struct bench_error err;
	char hp[32], want[96];
	uint64_t t0 = clock_now_ms();

	(void)state;
	/* a port that was free a moment ago and has no listener */
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
	close(fd);
	snprintf(hp, sizeof(hp), "127.0.0.1:%u", (unsigned)ntohs(a.sin_port));
	assert_int_equal(rsp_backend_open(&bk, hp, &err), -BENCH_E_CONNECT);
	snprintf(want, sizeof(want), "cannot connect to gdbserver %s: Connection refused", hp);
	assert_non_null(strstr(err.msg, want));
	assert_true(clock_now_ms() - t0 < 1000);
	assert_int_equal(rsp_backend_open(&bk, "localhost:notaport", &err), -BENCH_E_USAGE);
	assert_string_equal(err.msg, "bad gdbserver address 'localhost:notaport': give HOST:PORT, e.g. localhost:3333");
}

static void test_hangs_up_mid_packet(void **state)
{
	const struct fake_step script[] = {{"qSupported", "+$PacketSize=4", true}, {NULL, NULL, false}};
	struct fake_server fs = {.script = script};
	struct backend bk;
	struct bench_error err;

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 1000, &err), -BENCH_E_CONNECT);
	fake_server_stop(&fs);
	assert_non_null(strstr(err.msg, "closed the connection mid-packet"));
}

static void test_garbage(void **state)
{
	struct fake_server fs = {.greeting = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\n"
	                                     "Connection: close\r\n\r\n<html>not a gdbserver</html>\r\n"};
	struct backend bk;
	struct bench_error err;

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 1000, &err), -BENCH_E_PROTOCOL);
	fake_server_stop(&fs);
	assert_non_null(
	    strstr(err.msg, "bytes that are not GDB remote protocol (\"HTTP/1.1 400 Bad Request..Conten\")"));
	assert_non_null(strstr(err.msg, "is this a gdbserver port?"));
}

static void test_short_garbage_then_silence(void **state)
{
	struct fake_server fs = {.greeting = "SSH-2.0-OpenSSH_9.2\r\n", .silent = true};
	struct backend bk;
	struct bench_error err;
	uint64_t t0 = clock_now_ms();

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 300, &err), -BENCH_E_PROTOCOL);
	assert_true(clock_now_ms() - t0 < 1500);
	assert_non_null(strstr(err.msg, "(it sent bytes that are not GDB protocol)"));
	close(fs.listen_fd); /* the thread ends when our side closed */
	pthread_join(fs.thread, NULL);
}

static void test_silent_server(void **state)
{
	struct fake_server fs = {.silent = true};
	struct backend bk;
	struct bench_error err;
	uint64_t t0 = clock_now_ms();

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 300, &err), -BENCH_E_PROTOCOL);
	assert_true(clock_now_ms() - t0 < 1500);
	assert_non_null(
	    strstr(err.msg, "did not acknowledge packet \"qSupported:swbreak+;hwbreak+;vContSuppor\" within 300 ms"));
	fake_server_stop(&fs);
}

static void test_no_qsupported(void **state)
{
	/* a stub that answers every packet with the empty "not supported" reply */
	const struct fake_step script[] = {{NULL, NULL, false}};
	struct fake_server fs = {.script = script};
	struct backend bk;
	struct bench_error err;

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 1000, &err), -BENCH_E_PROTOCOL);
	assert_non_null(strstr(err.msg, "did not report the target state (no reply to '?')"));
	fake_server_stop(&fs);
}

static void test_other_architecture(void **state)
{
	const struct fake_step script[] = {
	    {"qSupported", P("PacketSize=4000;qXfer:features:read+"), false},
	    {"?", P("S05"), false},
	    {"qXfer:features:read:target.xml:",
	     P("l<?xml version=\"1.0\"?><target><architecture>i386:x86-64</architecture>"
	       "<feature name=\"org.gnu.gdb.i386.core\"><reg name=\"rax\" bitsize=\"64\" regnum=\"0\"/>"
	       "</feature></target>"),
	     false},
	    {NULL, NULL, false}};
	struct fake_server fs = {.script = script};
	struct backend bk;
	struct bench_error err;

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 1000, &err), -BENCH_E_ARCH);
	assert_non_null(strstr(err.msg, "debugs a 'i386:x86-64' target, not an Arm Cortex-M"));
	fake_server_stop(&fs);
}

/* A generic Cortex-M gdbserver with the bare minimum: no p packet (registers via g), a target
 * description split across an include, a stop reply carrying the PC, no monitor commands. */
static void test_generic_server_g_fallback(void **state)
{
	char g[17 * 8 + 1] = "";
	for (int i = 0; i < 17; i++) {
		/* r_i = 0x1000000i little-endian; pc = 0x08000123; xpsr 0x01000000 */
		uint32_t v = i == 15 ? 0x08000123u : i == 16 ? 0x01000000u : 0x10000000u + (uint32_t)i;
		char h[9];
		uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

		rsp_hex_encode(b, 4, h);
		strcat(g, h);
	}
	const struct fake_step script[] = {
	    {"qSupported", P("PacketSize=100;qXfer:features:read+"), false},
	    {"?", P("T050f:23010008;"), false},
	    {"qXfer:features:read:target.xml:",
	     P("l<target><architecture>arm</architecture><xi:include href=\"core.xml\"/></target>"), false},
	    {"qXfer:features:read:core.xml:",
	     P("l<feature name=\"org.gnu.gdb.arm.m-profile\"><reg name=\"r0\" bitsize=\"32\" regnum=\"0\"/>"
	       "<reg name=\"r1\" bitsize=\"32\"/><reg name=\"r2\" bitsize=\"32\"/><reg name=\"r3\" bitsize=\"32\"/>"
	       "<reg name=\"r4\" bitsize=\"32\"/><reg name=\"r5\" bitsize=\"32\"/><reg name=\"r6\" bitsize=\"32\"/>"
	       "<reg name=\"r7\" bitsize=\"32\"/><reg name=\"r8\" bitsize=\"32\"/><reg name=\"r9\" bitsize=\"32\"/>"
	       "<reg name=\"r10\" bitsize=\"32\"/><reg name=\"r11\" bitsize=\"32\"/><reg name=\"r12\" bitsize=\"32\"/>"
	       "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/><reg name=\"lr\" bitsize=\"32\"/>"
	       "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/><reg name=\"xPSR\" bitsize=\"32\" regnum=\"16\"/>"
	       "</feature>"),
	     false},
	    {"g", P(g), false},
	    {"Z1,8000122,2", P("OK"), false},
	    {"z1,8000122,2", P("OK"), false},
	    {"m8000122,2", P("00be"), false},
	    {"D", P("OK"), false},
	    {NULL, NULL, false}};
	struct fake_server fs = {.script = script};
	struct backend bk;
	struct bench_error err;
	uint32_t v;
	char ver[64];

	(void)state;
	assert_int_equal(open_fake(&fs, &bk, 1000, &err), 0);
	assert_string_equal(bk.ops->name, "gdb-rsp");
	/* Loading needs no flavour: a generic server loads too (X/M writes, no flash in its map). */
	assert_int_equal(bk.caps, BK_CAP_HALT_ON_BKPT | BK_CAP_CYCCNT | BK_CAP_HW_BREAK | BK_CAP_FLASH);
	assert_int_equal(backend_read_reg(&bk, BK_REG_R0 + 7, &v, &err), 0);
	assert_int_equal(v, 0x10000007u);
	assert_int_equal(backend_read_reg(&bk, BK_REG_XPSR, &v, &err), 0);
	assert_int_equal(v, 0x01000000u);
	assert_int_equal(backend_read_reg(&bk, BK_REG_PC, &v, &err), 0);
	assert_int_equal(v, 0x08000122u + 1u);
	assert_int_equal(backend_read_u32(&bk, 0x08000122u, &v, &err) < 0, 1); /* no 4-byte reply scripted */
	assert_int_equal(backend_version(&bk, ver, sizeof(ver), &err), 0);
	assert_non_null(strstr(ver, "gdbserver at 127.0.0.1:"));
	assert_int_equal(backend_monitor(&bk, "reset halt", ver, sizeof(ver), &err), -BENCH_E_UNSUPPORTED);
	backend_close(&bk);
	fake_server_stop(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nothing_listening),
	    cmocka_unit_test(test_hangs_up_mid_packet),
	    cmocka_unit_test(test_garbage),
	    cmocka_unit_test(test_short_garbage_then_silence),
	    cmocka_unit_test(test_silent_server),
	    cmocka_unit_test(test_no_qsupported),
	    cmocka_unit_test(test_other_architecture),
	    cmocka_unit_test(test_generic_server_g_fallback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
