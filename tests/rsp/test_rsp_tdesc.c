/* Target descriptions and memory maps as real servers send them (fixtures/README.md says where
 * each came from): register numbers for r0-r15/xPSR/MSP/PSP, architecture checks, flash regions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "transport/gdb_rsp_priv.h"

static char *slurp(const char *name)
{
	char path[1024];
	FILE *f;
	long n;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", RSP_FIXTURES, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_openocd_description(void **state)
{
	struct rsp_tdesc *td = calloc(1, sizeof(*td));
	struct bench_error err;
	char *xml = slurp("openocd-0.12-stm32f4-target.xml");
	int next = 0;

	(void)state;
	assert_int_equal(rsp_tdesc_parse(NULL, td, xml, &next, 0, &err), 0);
	assert_string_equal(td->arch, "arm");
	assert_int_equal(td->n_regs, 40);
	assert_int_equal(rsp_tdesc_finish(td, "test", &err), 0);
	for (int r = 0; r <= 15; r++)
		assert_int_equal(td->map[r], r);
	assert_int_equal(td->map[BK_REG_XPSR], 16); /* named "xPSR" there */
	assert_int_equal(td->map[BK_REG_MSP], 17);
	assert_int_equal(td->map[BK_REG_PSP], 18);
	free(xml);
	free(td);
}

static void test_qemu_description_with_include(void **state)
{
	struct rsp_tdesc *td = calloc(1, sizeof(*td));
	struct bench_error err;
	char *top = slurp("qemu-7.2-mps2-an386-target.xml");
	char *core = slurp("qemu-7.2-mps2-an386-arm-m-profile.xml");
	int next = 0;

	(void)state;
	/* without a session the include is not fetched: the top document alone has no registers */
	assert_int_equal(rsp_tdesc_parse(NULL, td, top, &next, 0, &err), 0);
	assert_string_equal(td->arch, "arm");
	assert_int_equal(td->n_regs, 0);
	assert_int_equal(rsp_tdesc_finish(td, "test", &err), -BENCH_E_ARCH);
	assert_string_equal(err.msg,
	                    "gdbserver test's target description has no register 'r0': not an Arm Cortex-M target?");
	/* the included feature, as the session would splice it in: numbers count up from 0, xpsr is 25 */
	assert_int_equal(rsp_tdesc_parse(NULL, td, core, &next, 1, &err), 0);
	assert_int_equal(rsp_tdesc_finish(td, "test", &err), 0);
	assert_int_equal(td->map[BK_REG_SP], 13);
	assert_int_equal(td->map[BK_REG_PC], 15);
	assert_int_equal(td->map[BK_REG_XPSR], 25);
	assert_int_equal(td->map[BK_REG_MSP], -1);
	free(top);
	free(core);
	free(td);
}

static void test_other_architectures(void **state)
{
	static const char *const docs[][2] = {
	    {"<target><architecture>riscv:rv32</architecture></target>", "riscv:rv32"},
	    {"<target><architecture>aarch64</architecture></target>", "aarch64"},
	    {"<target><architecture>i386:x86-64</architecture></target>", "i386:x86-64"},
	};
	struct bench_error err;
	char want[160];

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct rsp_tdesc *td = calloc(1, sizeof(*td));
		int next = 0;

		assert_int_equal(rsp_tdesc_parse(NULL, td, docs[i][0], &next, 0, &err), 0);
		assert_int_equal(rsp_tdesc_finish(td, "h:1", &err), -BENCH_E_ARCH);
		snprintf(want, sizeof(want),
		         "gdbserver h:1 debugs a '%s' target, not an Arm Cortex-M: point --gdb at the Cortex-M "
		         "target's port",
		         docs[i][1]);
		assert_string_equal(err.msg, want);
		free(td);
	}
}

/* TriCore (issue 15): d0-d14, pc and psw by the description's own numbers; an Arm description (the
 * TriCore ELF pointed at an Arm target's port) and one without D registers are refused, exit 3. */
static void test_tricore_description(void **state)
{
	static const char xml[] = "<target><architecture>tricore:V1_6</architecture><feature name=\"x\">"
	                          "<reg name=\"pc\" bitsize=\"32\" regnum=\"0\"/><reg name=\"psw\" bitsize=\"32\"/>"
	                          "<reg name=\"d0\" bitsize=\"32\" regnum=\"10\"/><reg name=\"d1\" bitsize=\"32\"/>"
	                          "<reg name=\"d2\"/><reg name=\"d3\"/><reg name=\"d4\"/><reg name=\"d5\"/>"
	                          "<reg name=\"d6\"/><reg name=\"d7\"/><reg name=\"d8\"/><reg name=\"d9\"/>"
	                          "<reg name=\"d10\"/><reg name=\"d11\"/><reg name=\"d12\"/><reg name=\"d13\"/>"
	                          "<reg name=\"d14\"/><reg name=\"d15\"/><reg name=\"a10\"/></feature></target>";
	struct rsp_tdesc *td = calloc(1, sizeof(*td));
	struct bench_error err;
	int next = 0;

	(void)state;
	assert_int_equal(rsp_tdesc_parse(NULL, td, xml, &next, 0, &err), 0);
	assert_int_equal(rsp_tdesc_finish_tricore(td, "t:1", &err), 0);
	assert_int_equal(td->map[BK_REG_PC], 0);
	assert_int_equal(td->map[BK_REG_XPSR], 1);
	for (int r = 0; r < 15; r++)
		assert_int_equal(td->map[BK_REG_R0 + r], 10 + r);
	assert_int_equal(td->map[15], 0); /* Arm's PC number: the PC, D15 has none */
	assert_int_equal(td->map[BK_REG_MSP], -1);
	/* the same description read for an Arm ELF: not an Arm target */
	assert_int_equal(rsp_tdesc_finish(td, "t:1", &err), -BENCH_E_ARCH);
	memset(td, 0, sizeof(*td));
	next = 0;
	assert_int_equal(rsp_tdesc_parse(NULL, td, "<target><architecture>arm</architecture></target>", &next, 0, &err),
	                 0);
	assert_int_equal(rsp_tdesc_finish_tricore(td, "t:1", &err), -BENCH_E_ARCH);
	assert_non_null(strstr(err.msg, "debugs a 'arm' target, not a TriCore"));
	memset(td, 0, sizeof(*td));
	next = 0;
	assert_int_equal(rsp_tdesc_parse(NULL, td,
	                                 "<target><architecture>tricore</architecture><reg name=\"pc\"/></target>",
	                                 &next, 0, &err),
	                 0);
	assert_int_equal(rsp_tdesc_finish_tricore(td, "t:1", &err), -BENCH_E_ARCH);
	assert_non_null(strstr(err.msg, "has no register 'd0..d14'"));
	free(td);
}

static void test_openocd_memory_map(void **state)
{
	struct rsp_priv *s = calloc(1, sizeof(*s));
	char *xml = slurp("openocd-0.12-stm32f4-memory-map.xml");

	(void)state;
	rsp_memory_map_parse(s, xml);
	/* RM0090 3.3: 4 x 16 KiB, 1 x 64 KiB, 7 x 128 KiB sectors */
	assert_int_equal(s->n_flash, 3);
	assert_int_equal(s->flash[0].start, 0x08000000u);
	assert_int_equal(s->flash[0].length, 0x10000u);
	assert_int_equal(s->flash[0].blocksize, 0x4000u);
	assert_int_equal(s->flash[1].start, 0x08010000u);
	assert_int_equal(s->flash[1].blocksize, 0x10000u);
	assert_int_equal(s->flash[2].start, 0x08020000u);
	assert_int_equal(s->flash[2].length, 0xe0000u);
	assert_int_equal(s->flash[2].blocksize, 0x20000u);
	free(xml);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_openocd_description), cmocka_unit_test(test_qemu_description_with_include),
	    cmocka_unit_test(test_other_architectures), cmocka_unit_test(test_tricore_description),
	    cmocka_unit_test(test_openocd_memory_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
