/* Recognising why OpenOCD failed to start from its log (session/openocd_proc.c
 * openocd_fail_start(), openocd_start_advice()): a known cause gets its own next step, the rest the
 * general one; either way exit 4 (docs/exit-codes.md, tool-start). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/error.h"
#include "session/openocd_proc.h"
#include "session/proc.h"

/* OpenOCD 0.12 with interface/stlink-dap.cfg and an ST-LINK/V2 whose firmware predates V2J24: the
 * error line is verbatim what stlink_dap_init() (src/jtag/drivers/stlink_usb.c, v0.12.0) logs and
 * users quote; the lines around it are 0.12's start-up lines for that probe. */
static const char old_stlink_log[] = "Open On-Chip Debugger 0.12.0\n"
                                     "Licensed under GNU GPL v2\n"
                                     "For bug reports, read\n"
                                     "\thttp://openocd.org/doc/doxygen/bugs.html\n"
                                     "Info : STLINK V2J17S4 (API v2) VID:PID 0483:3748\n"
                                     "Error: ST-Link version does not support DAP direct transport\n";

/* No probe on the USB bus at all: the general advice stays. */
static const char no_probe_log[] = "Open On-Chip Debugger 0.12.0\n"
                                   "Error: open failed\n";

/* The line OpenOCD 0.12 logged on bench-sim when tests/firmware/faults/resets.c reset itself
 * (faults.resets_markers' work-dir openocd.log, verbatim), among lines that only look alike. */
static const char reset_log[] = "Info : [stm32f4x.cpu] halted due to breakpoint, current mode: Thread \n"
                                "Info : [stm32f4x.cpu] external reset detected\n"
                                "Info : reset detected in the firmware's own words\n"
                                "Info : [stm32f4x.cpu] external reset detected";

static void write_log(struct openocd_proc *p, const char *text)
{
	char tmpl[] = "/tmp/test_openocd_log.XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(close(fd), 0);
	memset(p, 0, sizeof(*p));
	(void)snprintf(p->log_path, sizeof(p->log_path), "%s", tmpl);
}

static void test_old_stlink_firmware(void **state)
{
	struct openocd_proc p;
	struct bench_error err = {0};
	char want[sizeof(p.log_path) + 256];

	(void)state;
	write_log(&p, old_stlink_log);
	assert_int_equal(openocd_fail_start(&p, "exited with status 1", &err), -(int)BENCH_E_TOOL_START);
	(void)snprintf(want, sizeof(want),
	               "OpenOCD failed to start: it exited with status 1 (log %s: ST-Link version does not support "
	               "DAP direct transport): use --transport hla (or update the probe's firmware)",
	               p.log_path);
	assert_string_equal(err.msg, want);
	assert_int_equal(bench_exit_code(err.kind), 4);
	/* The TCL port never opened: the same advice without how it ended. */
	assert_int_equal(openocd_fail_start(&p, NULL, &err), -(int)BENCH_E_TOOL_START);
	assert_non_null(strstr(err.msg, "OpenOCD failed to start (log "));
	assert_non_null(strstr(err.msg, "): use --transport hla (or update the probe's firmware)"));
	assert_int_equal(unlink(p.log_path), 0);
}

static void test_other_failure(void **state)
{
	struct openocd_proc p;
	struct bench_error err = {0};

	(void)state;
	write_log(&p, no_probe_log);
	(void)openocd_fail_start(&p, NULL, &err);
	assert_non_null(strstr(err.msg, "(log "));
	assert_non_null(strstr(err.msg, ": open failed): check the board, the probe and its USB permissions"));
	assert_null(strstr(err.msg, "--transport hla"));
	assert_int_equal(unlink(p.log_path), 0);
	assert_string_equal(openocd_start_advice(""), "check the board, the probe and its USB permissions");
}

/* A long work dir and long error lines: the quote is shortened, the advice still ends the line. */
static void test_long_log_path(void **state)
{
	struct openocd_proc p;
	struct bench_error err = {0};
	const char *advice = "use --transport hla (or update the probe's firmware)";
	char text[2048], path[600];
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 2; i++) {
		n += (size_t)snprintf(text + n, sizeof(text) - n, "Error: ");
		memset(text + n, 'x', 400);
		n += 400;
		text[n++] = '\n';
	}
	(void)snprintf(text + n, sizeof(text) - n, "Error: ST-Link version does not support DAP direct transport\n");
	write_log(&p, text);
	/* 450 bytes of path that name the same file: "/tmp/./././.../test_openocd_log.XXXXXX". */
	n = (size_t)snprintf(path, sizeof(path), "/tmp");
	while (n < 450)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/.");
	(void)snprintf(path + n, sizeof(path) - n, "%s", p.log_path + strlen("/tmp"));
	char real[sizeof(p.log_path)];
	(void)snprintf(real, sizeof(real), "%s", p.log_path);
	(void)snprintf(p.log_path, sizeof(p.log_path), "%s", path);
	(void)openocd_fail_start(&p, "exited with status 1", &err);
	n = strlen(err.msg);
	assert_true(n < sizeof(err.msg) - 1 || n == sizeof(err.msg) - 1);
	assert_true(n > strlen(advice));
	assert_string_equal(err.msg + n - strlen(advice), advice);
	assert_non_null(strstr(err.msg, "xxxxxxxx"));
	assert_int_equal(unlink(real), 0);
}

/* openocd_log_resets() counts whole "external reset detected" lines and reads on from where it
 * stopped: a line still being written counts once it ends. */
static void test_log_resets(void **state)
{
	struct openocd_proc p;
	struct bench_error e;
	uint64_t n = 99;
	FILE *f;

	(void)state;
	write_log(&p, reset_log);
	assert_int_equal(openocd_log_resets(&p, &n, &e), 0);
	assert_int_equal(n, 1); /* the last line has no newline yet */
	assert_int_equal(openocd_log_resets(&p, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_non_null(f = fopen(p.log_path, "a"));
	assert_int_equal(fputs("\nInfo : [stm32f4x.cpu] external reset detected\n", f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(openocd_log_resets(&p, &n, &e), 0);
	assert_int_equal(n, 3);
	assert_int_equal(unlink(p.log_path), 0);
	assert_int_equal(openocd_log_resets(&p, &n, &e), -(int)BENCH_E_TOOL_START);
	assert_non_null(strstr(e.msg, "cannot read OpenOCD's log"));
}

/* The TCL port OpenOCD 0.12 chose after `tcl_port 0`, as bench-sim's session logged it (verbatim,
 * debug_level 2), and the same line at debug_level 3, which puts a count, a time and the source
 * location first (src/helper/log.c log_puts()). */
static void test_listen_port(void **state)
{
	(void)state;
	uint16_t port = 0;
	assert_int_equal(openocd_log_listen_port("Info : Listening on port 37537 for tcl connections", "tcl", &port),
	                 0);
	assert_int_equal(port, 37537);
	assert_int_equal(openocd_log_listen_port("Info : 46 12 server.c:297 add_service(): Listening on port 4444 for "
	                                         "tcl connections",
	                                         "tcl", &port),
	                 0);
	assert_int_equal(port, 4444);
	port = 7;
	/* Another service's line, a port out of range, a line cut short, text after it: not the port. */
	assert_int_equal(openocd_log_listen_port("Info : Listening on port 33843 for gdb connections", "tcl", &port),
	                 -1);
	assert_int_equal(openocd_log_listen_port("Info : Listening on port 0 for tcl connections", "tcl", &port), -1);
	assert_int_equal(openocd_log_listen_port("Info : Listening on port 65536 for tcl connections", "tcl", &port),
	                 -1);
	assert_int_equal(openocd_log_listen_port("Info : Listening on port 37537 for tcl", "tcl", &port), -1);
	assert_int_equal(openocd_log_listen_port("Info : Listening on port 37537 for tcl connections!", "tcl", &port),
	                 -1);
	assert_int_equal(openocd_log_listen_port("Info : Listening on port  37537 for tcl connections", "tcl", &port),
	                 -1);
	assert_int_equal(openocd_log_listen_port("Error: couldn't bind tcl to socket on port 6666", "tcl", &port), -1);
	assert_int_equal(port, 7);
}

struct port_seen {
	uint16_t port;
};

static bool tcl_line(const char *line, void *ctx)
{
	return openocd_log_listen_port(line, "tcl", &((struct port_seen *)ctx)->port) == 0;
}

/* proc_wait_log_match() on a log a child is still writing: a line longer than its 512-byte buffer
 * whose second piece is, character for character, a port line (511 bytes, then "Info : Listening
 * on port 1111 ..."), and the port line itself arriving in two writes, must give the port of the
 * whole line (4242), not the piece's (1111). */
static void test_listen_port_while_written(void **state)
{
	(void)state;
	char dir[] = "/tmp/bench-test-log-XXXXXX", log[64];
	struct bench_error err = {0};
	struct proc *p = NULL;
	struct port_seen seen = {0};
	assert_non_null(mkdtemp(dir));
	assert_true(snprintf(log, sizeof(log), "%s/openocd.log", dir) < (int)sizeof(log));
	const char *const argv[] = {
	    "/bin/sh", "-c",
	    "printf 'Info : %0504d' 0; printf 'Info : Listening on port 1111 for tcl connections\n'; "
	    "printf 'Info : Listening on port 4242 for tcl conn'; sleep 0.3; "
	    "printf 'ections\n'; exec sleep 30",
	    NULL};
	assert_int_equal(proc_start(argv, log, dir, "", &p, &err), 0);
	assert_int_equal(proc_wait_log_match(p, tcl_line, &seen, "the port", 5000, &err), 0);
	assert_int_equal(seen.port, 4242);
	proc_stop(p, 1000);
	assert_int_equal(unlink(log), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_old_stlink_firmware), cmocka_unit_test(test_other_failure),
	    cmocka_unit_test(test_long_log_path),       cmocka_unit_test(test_log_resets),
	    cmocka_unit_test(test_listen_port),         cmocka_unit_test(test_listen_port_while_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
