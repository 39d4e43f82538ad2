/* board.c: board.json parsing (docs/boards.md) and lookup in the source tree's boards/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/board.h"

static const char *boards_dir;

static void test_parse_good(void **state)
{
	static const char j[] = "{\"name\":\"b\",\"core_clock_hz\":168000000,\"openocd_cfg\":\"openocd.cfg\","
	                        "\"virtual\":true,\"flash\":{\"base\":\"0x08000000\",\"size\":1048576},"
	                        "\"ram\":{\"base\":536870912,\"size\":\"0x20000\"}}";
	struct board b;
	struct bench_error err;

	assert_int_equal(board_parse(j, strlen(j), "/x/b", &b, &err), 0);
	assert_string_equal(b.name, "b");
	assert_int_equal(b.core_clock_hz, 168000000);
	assert_string_equal(b.counter, "DWT_CYCCNT"); /* default */
	assert_string_equal(b.backend, "openocd");    /* default */
	assert_string_equal(b.transport, "dap");      /* default: the ST-LINK, dapdirect_swd */
	assert_string_equal(b.openocd_cfg, "/x/b/openocd.cfg");
	assert_true(b.virtual_board);
	assert_int_equal(b.flash_base, 0x08000000);
	assert_int_equal(b.flash_size, 1048576);
	assert_int_equal(b.ram_base, 0x20000000);
	assert_int_equal(b.ram_size, 0x20000);
}

struct bad_case {
	const char *json, *msg;
};

static void test_parse_bad(void **state)
{
	static const struct bad_case cases[] = {
	    {"{", "is not valid JSON"},
	    {"[1]", "is not a JSON object"},
	    {"{\"core_clock_hz\":1,\"openocd_cfg\":\"o\"}", "field \"name\" is missing"},
	    {"{\"name\":1,\"core_clock_hz\":1,\"openocd_cfg\":\"o\"}", "field \"name\" must be a string"},
	    {"{\"name\":\"b\",\"openocd_cfg\":\"o\"}", "field \"core_clock_hz\" is missing"},
	    {"{\"name\":\"b\",\"core_clock_hz\":-5,\"openocd_cfg\":\"o\"}", "\"core_clock_hz\" must be a positive"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1.5,\"openocd_cfg\":\"o\"}", "\"core_clock_hz\" must be a positive"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1}", "field \"openocd_cfg\" is missing"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"../../etc/x\"}",
	     "must stay inside the board folder"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"backend\":\"jlink\"}",
	     "\"backend\" must be \"openocd\", \"qemu\" or \"gdb\""},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"backend\":\"gdb\",\"arch\":\"riscv\"}",
	     "\"arch\" must be \"cortex-m\" or \"tricore\""},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"backend\":\"gdb\",\"csfr_base\":\"0xF88100000\"}",
	     "\"csfr_base\" must be a 32-bit unsigned integer"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"virtual\":1}",
	     "\"virtual\" must be true or false"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"flash\":{\"base\":\"0x1zz\",\"size\":1}}",
	     "\"base\" must be a 32-bit unsigned integer"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"ram\":{\"base\":4294967296,\"size\":1}}",
	     "\"base\" must be a 32-bit unsigned integer"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"ram\":{\"size\":1}}", "\"base\" is missing"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"transport\":\"swd\"}",
	     "\"transport\" must be \"dap\" or \"hla\" (jtag is the virtual board's only)"},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"transport\":\"jtag\"}",
	     "\"transport\" must be \"dap\" or \"hla\""},
	    {"{\"name\":\"b\",\"core_clock_hz\":1,\"openocd_cfg\":\"o\",\"virtual\":true,\"transport\":\"x\"}",
	     "\"transport\" must be \"dap\", \"hla\" or \"jtag\""},
	};
	struct board b;
	struct bench_error err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = board_parse(cases[i].json, strlen(cases[i].json), "/x/b", &b, &err);
		if (rc != -(int)BENCH_E_BOARD || !strstr(err.msg, cases[i].msg))
			fail_msg("case %zu (%s): rc %d, message \"%s\"", i, cases[i].json, rc, err.msg);
		assert_non_null(strstr(err.msg, ": fix the board file"));
	}
}

static void test_qemu_board_needs_no_cfg(void **state)
{
	static const char j[] = "{\"name\":\"q\",\"core_clock_hz\":25000000,\"backend\":\"qemu\",\"counter\":\"none\"}";
	struct board b;
	struct bench_error err;
	assert_int_equal(board_parse(j, strlen(j), "/x/q", &b, &err), 0);
	assert_string_equal(b.openocd_cfg, "");
	assert_string_equal(b.counter, "none");
}

/* The TriCore boards (issue 15): QEMU's TC277 with its own emulator and machine name, and the AURIX
 * TC297 through the user's gdbserver with core 0's CSFR base (TC29x user manual, CPU0 CSFR space). */
static void test_tricore_boards(void **state)
{
	struct board b;
	struct bench_error err;

	assert_int_equal(board_load(boards_dir, "qemu-tc277", &b, &err), 0);
	assert_string_equal(b.arch, "tricore");
	assert_string_equal(b.qemu_system, "qemu-system-tricore");
	assert_string_equal(b.qemu_machine, "KIT_AURIX_TC277_TRB");
	assert_string_equal(b.counter, "none");
	assert_int_equal(b.csfr_base, 0); /* none: QEMU does not map the CSFRs */
	assert_int_equal(board_load(boards_dir, "aurix-tc297", &b, &err), 0);
	assert_string_equal(b.backend, "gdb");
	assert_string_equal(b.counter, "CCNT");
	assert_int_equal(b.csfr_base, 0xF8810000u);
	assert_int_equal(board_load(boards_dir, "qemu-mps2-an386", &b, &err), 0);
	assert_string_equal(b.arch, "cortex-m"); /* the default */
	assert_string_equal(b.qemu_system, "qemu-system-arm");
	assert_string_equal(b.qemu_machine, "");
}

static void test_load_real(void **state)
{
	struct board b;
	struct bench_error err;
	char list[512];

	assert_int_equal(board_load(boards_dir, "sim-stm32f4", &b, &err), 0);
	assert_string_equal(b.name, "sim-stm32f4");
	assert_int_equal(b.core_clock_hz, 168000000);
	assert_true(b.virtual_board);
	assert_non_null(strstr(b.openocd_cfg, "/sim-stm32f4/openocd.cfg"));
	assert_string_equal(b.transport, "dap");
	assert_int_equal(board_check_transport(&b, "jtag", "--transport", &err), 0);
	assert_int_equal(board_check_transport(&b, "hla", "--transport", &err), 0);
	assert_int_equal(board_load(boards_dir, "stm32f4-discovery", &b, &err), 0);
	assert_int_equal(b.core_clock_hz, 168000000);
	assert_false(b.virtual_board);
	assert_string_equal(b.transport, "dap");
	assert_int_equal(board_check_transport(&b, "jtag", "--transport", &err), -(int)BENCH_E_USAGE);
	assert_non_null(strstr(err.msg, "--transport jtag: board stm32f4-discovery is reached through its ST-LINK"));
	assert_true(board_list(boards_dir, list, sizeof(list)) >= 5);
	assert_non_null(strstr(list, "nucleo-f401re, nucleo-f446re"));
}

static void test_load_unknown(void **state)
{
	struct board b;
	struct bench_error err;

	assert_int_equal(board_load(boards_dir, "nucleo-f999", &b, &err), -(int)BENCH_E_BOARD);
	assert_non_null(strstr(err.msg, "unknown board 'nucleo-f999': pick one of: "));
	assert_non_null(strstr(err.msg, "sim-stm32f4"));
	/* Names are folder names, never paths. */
	assert_int_equal(board_load(boards_dir, "../boards/sim-stm32f4", &b, &err), -(int)BENCH_E_BOARD);
	assert_int_equal(board_load(boards_dir, ".", &b, &err), -(int)BENCH_E_BOARD);
	assert_int_equal(board_load(boards_dir, "", &b, &err), -(int)BENCH_E_BOARD);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_good),
	    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_qemu_board_needs_no_cfg),
	    cmocka_unit_test(test_tricore_boards),
	    cmocka_unit_test(test_load_real),
	    cmocka_unit_test(test_load_unknown),
	};
	boards_dir = argc > 1 ? argv[1] : BENCH_SOURCE_DIR "/boards";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
