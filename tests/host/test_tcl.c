/* The OpenOCD TCL client (transport/openocd_tcl.c): quoting and reply parsing as units, then
 * against stock OpenOCD 0.12 itself (its `dummy` adapter: a real Tcl interpreter, no target needed),
 * so a string that would run a command if badly quoted is proven to come back unchanged. Also
 * exercises proc.c (start, free port, wait for the port, stop). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "session/proc.h"
#include "transport/openocd_tcl.h"

static void test_quote(void **state)
{
	char out[256];

	assert_int_equal(tcl_quote("fut.elf", out, sizeof(out)), 9);
	assert_string_equal(out, "{fut.elf}");
	assert_int_equal(tcl_quote("x];shutdown;#.elf", out, sizeof(out)), 19);
	assert_string_equal(out, "{x];shutdown;#.elf}");
	tcl_quote("$a [b]", out, sizeof(out));
	assert_string_equal(out, "{$a [b]}");
	/* Braces or backslashes: escape every special character instead. */
	tcl_quote("a}; shutdown; {b", out, sizeof(out));
	assert_string_equal(out, "a\\}\\;\\ shutdown\\;\\ \\{b");
	tcl_quote("c:\\x", out, sizeof(out));
	assert_string_equal(out, "c\\:\\\\x");
	tcl_quote("l1\nl2", out, sizeof(out));
	assert_string_equal(out, "l1\\nl2");
	tcl_quote("", out, sizeof(out));
	assert_string_equal(out, "{}");
	assert_int_equal(tcl_quote("toolong", out, 5), -1);
	assert_int_equal(tcl_quote("a}b", out, 4), -1);
}

static void test_parse_reply(void **state)
{
	char ok[] = "O0x08000120 0x0000002a", bad[] = "Etimed out", junk[] = "hello";
	bool is_err;
	char *body;
	uint32_t v[4];

	assert_int_equal(tcl_parse_reply(ok, &is_err, &body), 0);
	assert_false(is_err);
	assert_int_equal(tcl_parse_u32_list(body, v, 4), 2);
	assert_int_equal(v[0], 0x08000120);
	assert_int_equal(v[1], 42);
	assert_int_equal(tcl_parse_reply(bad, &is_err, &body), 0);
	assert_true(is_err);
	assert_string_equal(body, "timed out");
	assert_int_equal(tcl_parse_reply(junk, &is_err, &body), -1);
	assert_int_equal(tcl_parse_u32_list("{0x1 2} 3", v, 4), 3);
	assert_int_equal(tcl_parse_u32_list("", v, 4), 0);
	assert_int_equal(tcl_parse_u32_list("0x1 zz", v, 4), -1);
	assert_int_equal(tcl_parse_u32_list("-1", v, 4), -1);
	assert_int_equal(tcl_parse_u32_list("0x100000000", v, 4), -1);
	assert_int_equal(tcl_parse_u32_list("1 2 3", v, 2), -1);
}

struct peer {
	struct proc *p;
	struct backend bk;
	char log[64];
};

static int start_openocd(void **state)
{
	static struct peer peer;
	struct bench_error err;
	uint16_t port;
	char tcl[32], hp[32];
	int fd;

	strcpy(peer.log, "/tmp/bench-test-tcl-XXXXXX");
	fd = mkstemp(peer.log);
	if (fd < 0)
		return -1;
	close(fd);
	if (proc_free_port(&port, &err))
		return -1;
	snprintf(tcl, sizeof(tcl), "tcl_port %u", port);
	const char *argv[] = {"openocd",
	                      "-c",
	                      "adapter driver dummy",
	                      "-c",
	                      "transport select jtag",
	                      "-c",
	                      "bindto 127.0.0.1",
	                      "-c",
	                      "gdb_port disabled",
	                      "-c",
	                      "telnet_port disabled",
	                      "-c",
	                      tcl,
	                      NULL};
	if (proc_start(argv, peer.log, NULL, "apt-get install openocd", &peer.p, &err) ||
	    proc_wait_port("127.0.0.1", port, peer.p, 10000, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	snprintf(hp, sizeof(hp), "127.0.0.1:%u", port);
	if (tcl_backend_open(&peer.bk, hp, 5000, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	*state = &peer;
	return 0;
}

static int stop_openocd(void **state)
{
	struct peer *peer = *state;
	if (!peer)
		return 0;
	backend_close(&peer->bk);
	proc_stop(peer->p, 1000);
	unlink(peer->log);
	return 0;
}

static void test_openocd_roundtrip(void **state)
{
	struct peer *peer = *state;
	struct bench_error err;
	char out[256], q[256], script[300];
	static const char *const nasty[] = {"x];shutdown;#.elf", "a}; shutdown; {b", "$env(HOME) [version]",
	                                    "back\\slash\\",     "{unbalanced",      "two\nlines",
	                                    "\"quoted\"",        "tab\there"};

	assert_int_equal(backend_version(&peer->bk, out, sizeof(out), &err), 0);
	assert_string_equal(out, "Open On-Chip Debugger 0.12.0");
	for (size_t i = 0; i < sizeof(nasty) / sizeof(nasty[0]); i++) {
		assert_true(tcl_quote(nasty[i], q, sizeof(q)) > 0);
		snprintf(script, sizeof(script), "set bench_test %s", q);
		if (tcl_eval(&peer->bk, script, out, sizeof(out), &err))
			fail_msg("string %zu: %s", i, err.msg);
		assert_string_equal(out, nasty[i]);
	}
	/* Still alive: nothing above ran shutdown. */
	assert_true(proc_alive(peer->p, NULL));
	assert_int_equal(backend_version(&peer->bk, out, sizeof(out), &err), 0);
}

static void test_openocd_errors(void **state)
{
	struct peer *peer = *state;
	struct bench_error err;
	char out[64];
	uint32_t v;

	/* A Tcl error comes back as an error, with OpenOCD's own words. */
	assert_int_equal(tcl_eval(&peer->bk, "no_such_command 1", out, sizeof(out), &err), -(int)BENCH_E_TARGET);
	assert_string_equal(err.msg, "OpenOCD could not run the command: invalid command name \"no_such_command\"");
	/* No target behind the dummy adapter: memory access fails cleanly. */
	assert_int_equal(backend_read_u32(&peer->bk, 0xE0001004u, &v, &err), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(err.msg, "OpenOCD could not read target memory"));
	/* Loading a file named to inject a command fails as a load, and OpenOCD lives on. */
	assert_true(backend_load(&peer->bk, "/nonexistent/x];shutdown;#.elf", &err) < 0);
	assert_true(proc_alive(peer->p, NULL));
	assert_int_equal(backend_version(&peer->bk, out, sizeof(out), &err), 0);
}

static bool always(void *ctx)
{
	(void)ctx;
	return true;
}

/* Ctrl-C inside a long command: the TCL client stops waiting at once with "interrupted" instead of
 * at the command's end (the RSP client does the same: tests/rsp/test_rsp_packet.c test_link_cancel). */
static void test_openocd_cancel(void **state)
{
	struct peer *peer = *state;
	struct bench_error err;
	char out[64];

	backend_set_cancel(&peer->bk, (struct bench_cancel){always, NULL});
	assert_int_equal(tcl_eval(&peer->bk, "sleep 3000", out, sizeof(out), &err), -(int)BENCH_E_INTERRUPTED);
	assert_string_equal(err.msg, "interrupted");
	backend_set_cancel(&peer->bk, (struct bench_cancel){NULL, NULL});
}

static void test_connect_refused(void **state)
{
	struct backend bk;
	struct bench_error err;
	uint16_t port;

	assert_int_equal(proc_free_port(&port, &err), 0);
	char hp[32];
	snprintf(hp, sizeof(hp), "127.0.0.1:%u", port);
	assert_int_equal(tcl_backend_open(&bk, hp, 1000, &err), -(int)BENCH_E_CONNECT);
	assert_non_null(strstr(err.msg, "nothing answers at 127.0.0.1:"));
	assert_int_equal(tcl_backend_open(&bk, "127.0.0.1:http", 1000, &err), -(int)BENCH_E_USAGE);
}

static void test_proc_missing_tool(void **state)
{
	struct proc *p;
	struct bench_error err;
	const char *argv[] = {"bench-no-such-tool", NULL};
	char tail[128];

	assert_int_equal(proc_start(argv, NULL, NULL, "install it with apt-get install x", &p, &err),
	                 -(int)BENCH_E_TOOL_MISSING);
	assert_string_equal(err.msg, "bench-no-such-tool not found: install it with apt-get install x");
	assert_null(p);
	/* A program that dies at once: the wait reports it with its log. */
	const char *sh[] = {"/bin/sh", "-c", "echo line1; echo boom >&2; exit 3", NULL};
	char log[] = "/tmp/bench-test-proc-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(proc_start(sh, log, NULL, NULL, &p, &err), 0);
	assert_int_equal(proc_wait_port("127.0.0.1", 1, p, 5000, &err), -(int)BENCH_E_TOOL_START);
	assert_non_null(strstr(err.msg, "sh exited with status 3 before it was ready"));
	assert_non_null(strstr(err.msg, "line1 | boom"));
	proc_log_tail(log, 1, tail, sizeof(tail));
	assert_string_equal(tail, "boom");
	proc_stop(p, 100);
	unlink(log);
}

int main(void)
{
	const struct CMUnitTest units[] = {
	    cmocka_unit_test(test_quote),
	    cmocka_unit_test(test_parse_reply),
	    cmocka_unit_test(test_connect_refused),
	    cmocka_unit_test(test_proc_missing_tool),
	};
	const struct CMUnitTest peer[] = {
	    cmocka_unit_test(test_openocd_roundtrip),
	    cmocka_unit_test(test_openocd_errors),
	    cmocka_unit_test(test_openocd_cancel), /* last: OpenOCD is busy in its sleep afterwards */
	};
	int rc = cmocka_run_group_tests_name("units", units, NULL, NULL);
	return rc | cmocka_run_group_tests_name("openocd", peer, start_openocd, stop_openocd);
}
