/* The RSP backend against stock OpenOCD 0.12's GDB port on the virtual board (started by
 * rsp_openocd.sh): identification and capabilities, registers by the description's numbers
 * (xPSR), binary X writes with bytes that need escaping, reset, BKPT markers halting by
 * themselves, the monitor run control's timeout and halt, and breakpoints on a marker-less
 * firmware.   Usage: test_rsp_openocd HOST:PORT NOMARKERS.elf (preloaded in the board's flash) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/elf.h"
#include "transport/gdb_rsp.h"

static const char *hp, *fw;

static void test_openocd_session(void **state)
{
	struct backend bk;
	struct bench_error err;
	struct backend_halt_info h;
	struct elf_file elf;
	char ver[128];
	uint8_t out[5000], back[5000];
	uint32_t v;

	(void)state;
	assert_int_equal(elf_open(fw, &elf, &err), 0);
	if (rsp_backend_open(&bk, hp, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(bk.caps, BK_CAP_HALT_ON_BKPT | BK_CAP_CYCCNT | BK_CAP_FLASH | BK_CAP_HW_BREAK | BK_CAP_RESET |
	                              BK_CAP_MONITOR);
	assert_int_equal(backend_version(&bk, ver, sizeof(ver), &err), 0);
	assert_string_equal(ver, "Open On-Chip Debugger 0.12.0");

	/* reset halt: PC at the reset vector, Thumb state in xPSR (Armv7-M B1.5.5) */
	assert_int_equal(backend_reset(&bk, BK_RESET_HALT, &err), 0);
	assert_int_equal(backend_read_reg(&bk, BK_REG_PC, &v, &err), 0);
	assert_int_equal(v, elf_symbol(&elf, "reset_handler")->addr);
	assert_int_equal(backend_read_reg(&bk, BK_REG_XPSR, &v, &err), 0);
	assert_int_equal(v & 0x01000000u, 0x01000000u);
	assert_int_equal(backend_read_reg(&bk, BK_REG_SP, &v, &err), 0);
	assert_int_equal(v, 0x20020000u);

	/* X writes carry raw bytes: '#', '$', '}', '*' escaped; more than one packet */
	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)("#$}*"[i % 4] + (i / 4));
	assert_int_equal(backend_write_mem(&bk, 0x20001000u, out, sizeof(out), &err), 0);
	assert_int_equal(backend_read_mem(&bk, 0x20001000u, back, sizeof(back), &err), 0);
	assert_memory_equal(out, back, sizeof(out));

	/* breakpoints between two functions, the marker-less way */
	assert_int_equal(backend_set_break(&bk, elf_symbol(&elf, "start_trigger")->addr, &err), 0);
	assert_int_equal(backend_set_break(&bk, elf_symbol(&elf, "stop_trigger")->addr, &err), 0);
	assert_int_equal(backend_resume(&bk, &err), 0);
	assert_int_equal(backend_wait_halt(&bk, 3000, &h, &err), 0);
	assert_int_equal(h.reason, BK_HALT_BREAKPOINT);
	assert_int_equal(h.pc, elf_symbol(&elf, "start_trigger")->addr);
	assert_int_equal(backend_resume_sample(&bk, 3000, elf_symbol(&elf, "result")->addr, &h, &v, &err), 0);
	assert_int_equal(h.pc, elf_symbol(&elf, "stop_trigger")->addr);
	assert_int_equal(v, 0xcbf43926u); /* CRC-32 check value of "123456789" */
	assert_int_equal(backend_clear_break(&bk, elf_symbol(&elf, "start_trigger")->addr, &err), 0);
	assert_int_equal(backend_clear_break(&bk, elf_symbol(&elf, "stop_trigger")->addr, &err), 0);

	/* then it spins: wait_halt times out with the target still running, halt stops it */
	assert_int_equal(backend_resume(&bk, &err), 0);
	assert_int_equal(backend_wait_halt(&bk, 200, &h, &err), -BENCH_E_TIMEOUT);
	assert_non_null(strstr(err.msg, "target did not halt within 200 ms"));
	assert_int_equal(backend_read_reg(&bk, BK_REG_PC, &v, &err), -BENCH_E_TARGET);
	assert_int_equal(backend_halt(&bk, &err), 0);
	assert_int_equal(backend_read_reg(&bk, BK_REG_PC, &v, &err), 0);
	assert_true(v >= elf_symbol(&elf, "reset_handler")->addr &&
	            v < elf_symbol(&elf, "skip_bkpt_handler")->addr + 0x40);
	assert_int_equal(backend_monitor(&bk, "reg r0 0x1234", ver, sizeof(ver), &err), 0);
	assert_int_equal(backend_read_reg(&bk, BK_REG_R0, &v, &err), 0);
	assert_int_equal(v, 0x1234);
	backend_close(&bk);
	elf_close(&elf);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_openocd_session)};

	if (argc != 3) {
		fprintf(stderr, "usage: %s HOST:PORT NOMARKERS.elf\n", argv[0]);
		return 2;
	}
	hp = argv[1];
	fw = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
