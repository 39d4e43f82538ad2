/* Fault-status decoding (run_fault.c): CFSR/HFSR bits to names, Armv7-M ARM B3.2.15-16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "run_fault.h"

static void test_bits(void **state)
{
	char out[256];

	/* A float instruction with the FPU off: UsageFault NOCP escalated to HardFault (FORCED). */
	run_fault_bits(1u << 19, 1u << 30, out, sizeof(out));
	assert_string_equal(out, "FORCED; UsageFault NOCP");
	run_fault_bits((1u << 9) | (1u << 15), 0, out, sizeof(out));
	assert_string_equal(out, "BusFault PRECISERR");
	run_fault_bits(1u << 25, 0, out, sizeof(out));
	assert_string_equal(out, "UsageFault DIVBYZERO");
	run_fault_bits(0x1u | 0x80u, 0, out, sizeof(out));
	assert_string_equal(out, "MemManage IACCVIOL");
	run_fault_bits(0, 0, out, sizeof(out));
	assert_string_equal(out, "");
	run_fault_bits(0xffffffffu, 0xffffffffu, out, 20);
	assert_int_equal(strlen(out), 19);
}

static void test_exception_names(void **state)
{
	assert_null(run_fault_exception_name(0));
	assert_string_equal(run_fault_exception_name(3), "HardFault");
	assert_string_equal(run_fault_exception_name(6), "UsageFault");
	assert_null(run_fault_exception_name(15)); /* SysTick is no fault */
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_bits), cmocka_unit_test(test_exception_names)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
