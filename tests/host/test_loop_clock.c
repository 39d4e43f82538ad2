/* The host's clock against the counter (run/loop_check.c loop_wraps, issue 26 class 4): how many
 * times a 32-bit count can have wrapped, given the time the core ran at least and at most between
 * two halts at a known clock, within LOOP_CLOCK_TOLERANCE (2 %). Exact wrap ranges, no timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/loop_check.h"

static void wraps(uint32_t delta, unsigned bits, uint64_t hz, uint64_t lo_ms, uint64_t hi_ms, int64_t want_min,
                  int64_t want_max)
{
	int64_t kmin = 99, kmax = 99;

	loop_wraps(delta, bits, hz, lo_ms, hi_ms, &kmin, &kmax);
	assert_int_equal(kmin, want_min);
	assert_int_equal(kmax, want_max);
}

/* The stretch: 5033164868 cycles at 168 MHz read as 738197572. Seen running 29.5 to 30.1 s:
 * at least 4.857e9 and at most 5.158e9 cycles, so exactly one wrap. */
static void test_one_wrap_certain(void **state)
{
	(void)state;
	wraps(738197572u, 32, 168000000u, 29500, 30100, 1, 1);
}

/* The same count seen over 0 to 30.1 s: room for one wrap, no proof of any. */
static void test_wrap_possible(void **state)
{
	(void)state;
	wraps(738197572u, 32, 168000000u, 0, 30100, 0, 1);
}

/* DWT_CYCCNT written to 0 inside a stretch the host saw in 12 ms: 4294967272 cycles need 25.6 s at
 * 168 MHz, far more than 12 ms allow (2.06e6 cycles): impossible. */
static void test_written_impossible(void **state)
{
	(void)state;
	wraps(4294967272u, 32, 168000000u, 0, 12, -1, -1);
}

/* A plain short stretch: no wrap. */
static void test_short(void **state)
{
	(void)state;
	wraps(25u, 32, 168000000u, 0, 12, 0, 0);
}

/* A clock of 2^32 - 1 Hz (2^32 cycles a second) and 1.501 s: at most 6.575e9 cycles, one wrap at
 * most (tests/faults attach_e2e.py wrap_flagged). */
static void test_fast_clock(void **state)
{
	(void)state;
	wraps(25u, 32, 4294967295u, 0, 1501, 0, 1);
}

/* Exactly on the tolerance: an 8-bit counter at 1 kHz for 1 s, difference 0: 980 to 1020 cycles,
 * i.e. 4 wraps at least (980/256 = 3.8) and 3 at most (1020/256 = 3.98): no count fits, which the
 * caller reads as a counter that did not run all that time (deep sleep), not as a wrap count. */
static void test_counter_stopped(void **state)
{
	(void)state;
	wraps(0u, 8, 1000u, 1000, 1000, 4, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_wrap_certain), cmocka_unit_test(test_wrap_possible),
	    cmocka_unit_test(test_written_impossible), cmocka_unit_test(test_short),
	    cmocka_unit_test(test_fast_clock), cmocka_unit_test(test_counter_stopped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
