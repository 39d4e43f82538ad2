/* Counters as data (issue 15): the TriCore counters' CSFR offsets (TC1.6P core architecture manual;
 * QEMU target/tricore/csfr.h.inc agrees: CCTRL 0xFC00, CCNT 0xFC04, ICNT 0xFC08, M1CNT-M3CNT
 * 0xFC0C-0xFC14), where a debugger reads them (CSFR base + offset, 0xF881_0000 for AURIX core 0),
 * the 31-bit wrap of CCNT, and CCTRL's multiplexer against ePAPI table 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/counters.h"

static void test_tricore_offsets(void **state)
{
	static const struct {
		const char *name;
		uint32_t off;
	} want[] = {{"CCTRL", 0xFC00}, {"CCNT", 0xFC04},  {"ICNT", 0xFC08},
	            {"M1CNT", 0xFC0C}, {"M2CNT", 0xFC10}, {"M3CNT", 0xFC14}};
	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct counter_desc *d = counters_find(want[i].name);
		assert_non_null(d);
		assert_int_equal(d->core, COUNTER_TRICORE);
		assert_int_equal(d->addr, want[i].off);
	}
	assert_int_equal(counters_find("CCNT")->bits, 31);
	/* CCTRL.CE (bit 1) starts them (TC1.6P manual, CCTRL) */
	assert_int_equal(counters_find("CCNT")->enable_addr, 0xFC00u);
	assert_int_equal(counters_find("CCNT")->enable_mask, COUNTERS_CCTRL_CE);
}

static void test_debug_addr(void **state)
{
	struct bench_error err;
	uint32_t a = 0;

	(void)state;
	assert_int_equal(counters_address(counters_find("CCNT"), 0xF8810000u, &a, &err), 0);
	assert_int_equal(a, 0xF881FC04u);
	assert_int_equal(counters_address(counters_find("M3CNT"), 0xF8810000u, &a, &err), 0);
	assert_int_equal(a, 0xF881FC14u);
	/* Cortex-M: the table's address as it is, whatever the board says of CSFRs */
	assert_int_equal(counters_address(counters_find("DWT_CYCCNT"), 0, &a, &err), 0);
	assert_int_equal(a, 0xE0001004u);
	/* a TriCore counter without the board's CSFR base: one line saying what to add */
	assert_int_equal(counters_address(counters_find("CCNT"), 0, &a, &err), -(int)BENCH_E_BOARD);
	assert_non_null(strstr(err.msg, "give the board a \"csfr_base\""));
	assert_int_equal(counters_address(counters_find("CCNT"), 0xFFFFF000u, &a, &err), -(int)BENCH_E_BOARD);
	assert_non_null(strstr(err.msg, "leaves the 32-bit address space"));
}

static void test_delta_wraps(void **state)
{
	(void)state;
	/* CCNT counts in bits 30:0; bit 31 is the sticky overflow flag */
	assert_int_equal(counters_delta(counters_find("CCNT"), 0x7FFFFFF0u, 0x80000010u), 0x20);
	assert_int_equal(counters_delta(counters_find("CCNT"), 100, 350), 250);
	assert_int_equal(counters_delta(counters_find("DWT_CYCCNT"), 0xFFFFFFF0u, 0x10u), 0x20);
	assert_int_equal(counters_delta(counters_find("DWT_CPICNT"), 250, 4), 10); /* 8-bit */
}

static void test_cctrl_mux(void **state)
{
	(void)state;
	/* ePAPI table 1, one selection in all three fields */
	assert_string_equal(counters_tricore_mux_event(COUNTERS_CCTRL_CE, 1), "IP_DISPATCH_STALL");
	assert_string_equal(counters_tricore_mux_event(COUNTERS_CCTRL_CE | 1u << 2 | 1u << 5 | 1u << 8, 2),
	                    "PCACHE_MISS");
	assert_string_equal(counters_tricore_mux_event(2u << 2 | 2u << 5 | 2u << 8, 3), "DCACHE_MISS_DIRTY");
	assert_string_equal(counters_tricore_mux_event(3u << 2, 1), "TOTAL_BRANCH");
	/* each field on its own: M1 = 3, M2 = 0, M3 = 1 */
	assert_string_equal(counters_tricore_mux_event(3u << 2 | 0u << 5 | 1u << 8, 2), "LS_DISPATCH_STALL");
	assert_string_equal(counters_tricore_mux_event(3u << 2 | 0u << 5 | 1u << 8, 3), "MULTI_ISSUE");
	assert_null(counters_tricore_mux_event(7u << 2, 1)); /* not in the table */
	assert_null(counters_tricore_mux_event(0, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tricore_offsets),
	    cmocka_unit_test(test_debug_addr),
	    cmocka_unit_test(test_delta_wraps),
	    cmocka_unit_test(test_cctrl_mux),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
