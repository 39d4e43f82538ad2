/* stats_compute and the results container (results.c, stats.c): exact values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "results/results.h"

static void test_stats_known(void **state)
{
	/* 2 4 4 4 5 5 7 9: mean 5, sum of squares 32, sample variance 32/7. */
	const int64_t s[] = {9, 2, 4, 4, 5, 4, 7, 5};
	struct bench_stats st;

	stats_compute(s, 8, &st);
	assert_int_equal(st.n, 8);
	assert_true(st.min == 2.0);
	assert_true(st.max == 9.0);
	assert_true(st.mean == 5.0);
	assert_true(st.median == 4.5);
	assert_float_equal(st.stddev, 2.138089935299395, 1e-12);
}

static void test_stats_one_and_none(void **state)
{
	const int64_t one[] = {14};
	struct bench_stats st;

	stats_compute(one, 1, &st);
	assert_int_equal(st.n, 1);
	assert_true(st.min == 14.0 && st.max == 14.0 && st.mean == 14.0 && st.median == 14.0);
	assert_true(st.stddev == 0.0);
	stats_compute(NULL, 0, &st);
	assert_int_equal(st.n, 0);
	assert_true(st.mean == 0.0);
}

static void test_stats_odd_median_negative(void **state)
{
	/* Overhead subtraction can make a sample negative (an empty stretch): still ordered right. */
	const int64_t s[] = {3, -1, 2};
	struct bench_stats st;

	stats_compute(s, 3, &st);
	assert_true(st.median == 2.0);
	assert_true(st.min == -1.0);
	assert_float_equal(st.stddev, 2.0816659994661326, 1e-12);
}

static void test_stats_large_values(void **state)
{
	/* Near 2^32: Welford keeps the variance exact where a naive sum of squares loses it. */
	const int64_t s[] = {4294967290LL, 4294967292LL, 4294967294LL};
	struct bench_stats st;

	stats_compute(s, 3, &st);
	assert_true(st.mean == 4294967292.0);
	assert_float_equal(st.stddev, 2.0, 1e-9);
}

static void test_results_grouping(void **state)
{
	struct bench_report r;
	struct bench_arg a7 = {"input", 7}, a8 = {"input", 8};
	struct bench_result *x, *y, *z;

	results_init(&r);
	assert_int_equal(r.schema_version, 1);
	assert_string_equal(results_status_name(r.status), "ok");
	x = results_get(&r, "fut", &a7, 1);
	y = results_get(&r, "fut", &a8, 1);
	z = results_get(&r, "fut", &a7, 1);
	assert_non_null(x);
	assert_ptr_equal(results_get(&r, "fut", &a7, 1), &r.results[0]);
	assert_int_equal(r.n_results, 2);
	assert_ptr_equal(z, &r.results[0]);
	assert_ptr_not_equal(y, &r.results[0]);
	assert_string_equal(r.results[0].unit, "cycles");
	for (int i = 0; i < 100; i++)
		assert_int_equal(results_add_sample(&r.results[1], 100 + i, i == 5 ? BENCH_SAMPLE_WRAPPED : 0), 0);
	assert_int_equal(results_add_sample(&r.results[0], 14, 0), 0);
	results_finish(&r);
	assert_int_equal(r.results[1].stats.n, 100);
	assert_true(r.results[1].stats.median == 149.5);
	assert_int_equal(r.results[1].sample_flags[5], BENCH_SAMPLE_WRAPPED);
	assert_int_equal(r.results[0].stats.n, 1);
	/* No args is its own key. */
	assert_non_null(results_get(&r, "fut", NULL, 0));
	assert_int_equal(r.n_results, 3);
	assert_non_null(results_add_region(&r));
	assert_int_equal(r.n_regions, 1);
	assert_string_equal(results_status_name(BENCH_STATUS_INCOMPLETE), "incomplete");
	assert_string_equal(results_status_name(BENCH_STATUS_ERROR), "error");
	results_free(&r);
	assert_int_equal(r.n_results, 0);
}

/* A result whose samples are all left out fails the run (exit 5) unless the board has no counter;
 * its reason counts what left the samples out (issue 26). */
static void test_results_unmeasured(void **state)
{
	struct bench_report r;
	struct bench_error err;
	const struct bench_result *first;
	struct bench_result *x;

	(void)state;
	results_init(&r);
	x = results_get(&r, "sled", NULL, 0);
	assert_non_null(x);
	assert_int_equal(results_add_sample(x, 300, BENCH_SAMPLE_INTERRUPTED), 0);
	assert_int_equal(results_add_sample(x, 310, BENCH_SAMPLE_INTERRUPTED | BENCH_SAMPLE_WRAPPED), 0);
	assert_non_null(results_get(&r, "fut", NULL, 0));
	assert_int_equal(results_add_sample(&r.results[1], 14, 0), 0);
	results_finish(&r);
	assert_string_equal(r.results[0].error,
	                    "no sample counts: all 2 took an exception inside the stretch (\"interrupted\"), may have "
	                    "wrapped the counter too, and are left out; --mask-irqs keeps interrupts out, "
	                    "--keep-interrupted counts them");
	assert_int_equal(results_unmeasured(&r, &first), 1);
	assert_ptr_equal(first, &r.results[0]);
	assert_int_equal(results_fail_unmeasured(&r, &err), -(int)BENCH_E_TARGET);
	assert_int_equal(bench_exit_code(err.kind), 5);
	assert_string_equal(results_status_name(r.status), "incomplete");
	assert_string_equal(r.status_detail, bench_err_name(BENCH_E_TARGET));
	assert_true(!strncmp(r.error, "sled: no sample counts: all 2 took", 34));
	/* counter: none measures nothing by design: exit 0 (docs/run.md) */
	r.status = BENCH_STATUS_OK;
	(void)snprintf(r.context.counter, sizeof(r.context.counter), "none");
	assert_int_equal(results_unmeasured(&r, NULL), 0);
	assert_int_equal(results_fail_unmeasured(&r, &err), 0);
	assert_string_equal(results_status_name(r.status), "ok");
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats_known),
	    cmocka_unit_test(test_stats_one_and_none),
	    cmocka_unit_test(test_stats_odd_median_negative),
	    cmocka_unit_test(test_stats_large_values),
	    cmocka_unit_test(test_results_grouping),
	    cmocka_unit_test(test_results_unmeasured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
