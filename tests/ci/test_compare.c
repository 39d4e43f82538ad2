/* Unit tests of host/results/compare.c: the Mann-Whitney U test against published values, threshold
 * parsing, and the verdicts on the hand-written fixture pair (fixtures/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "results/compare.h"
#include "report/json_read.h"

#define FIX BENCH_SOURCE_DIR "/tests/ci/fixtures/"

/* scipy.stats.mannwhitneyu documentation example (Conover, "Practical Nonparametric Statistics"):
 * males vs females, U = 17, exact two-sided p = 0.1111 (= 14/126). */
static void utest_exact_scipy_example(void **state)
{
	const int64_t males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
	assert_float_equal(compare_mann_whitney_p(males, 5, females, 4), 0.1111111111111111, 1e-12);
	assert_float_equal(compare_mann_whitney_p(females, 4, males, 5), 0.1111111111111111, 1e-12);
}

/* Complete separation of 3 vs 3: one ordering of 20 in each tail, p = 2/20. */
static void utest_exact_separated(void **state)
{
	const int64_t a[] = {1, 2, 3}, b[] = {4, 5, 6}, c[] = {1, 2, 3, 4}, d[] = {5, 6, 7, 8};
	assert_float_equal(compare_mann_whitney_p(a, 3, b, 3), 0.1, 1e-12);
	assert_float_equal(compare_mann_whitney_p(c, 4, d, 4), 2.0 / 70.0, 1e-12);
}

/* 10 vs 10, separated, no ties: the normal approximation with continuity correction, as scipy's
 * method="asymptotic": z = (100 - 50 - 0.5) / sqrt(10*10*21/12), p = 0.000182671791... */
static void utest_asymptotic(void **state)
{
	int64_t a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = i + 1;
		b[i] = i + 11;
	}
	assert_float_equal(compare_mann_whitney_p(a, 10, b, 10), 0.0001826717911095504, 1e-12);
}

/* All values equal: no evidence of a difference. An empty sample: nothing to test. */
static void utest_degenerate(void **state)
{
	const int64_t a[] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, b[] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
	assert_float_equal(compare_mann_whitney_p(a, 10, b, 10), 1.0, 0);
	assert_float_equal(compare_mann_whitney_p(a, 0, b, 10), 1.0, 0);
}

static void threshold_parse(void **state)
{
	struct bench_error err;
	double t = -1;
	assert_int_equal(compare_parse_threshold("1%", &t, &err), 0);
	assert_float_equal(t, 0.01, 1e-15);
	assert_int_equal(compare_parse_threshold("0.5%", &t, &err), 0);
	assert_float_equal(t, 0.005, 1e-15);
	assert_int_equal(compare_parse_threshold("0.02", &t, &err), 0);
	assert_float_equal(t, 0.02, 1e-15);
	assert_int_equal(compare_parse_threshold("-1%", &t, &err), -BENCH_E_USAGE);
	assert_int_equal(compare_parse_threshold("1%%", &t, &err), -BENCH_E_USAGE);
	assert_int_equal(compare_parse_threshold("abc", &t, &err), -BENCH_E_USAGE);
	assert_non_null(strstr(err.msg, "expected a percentage"));
}

static void load(const char *path, struct bench_report *r)
{
	struct bench_error err;
	results_init(r);
	assert_int_equal(json_read_file(path, r, &err), 0);
}

static void verdicts_on_fixture_pair(void **state)
{
	struct bench_report base, cur;
	struct compare_opts o;
	struct compare_result res;
	struct bench_error err;

	compare_opts_init(&o);
	load(FIX "cmp-base.json", &base);
	load(FIX "cmp-regressed.json", &cur);
	assert_int_equal(compare_check(&base, "b", &cur, "n", &o, &err), 0);
	assert_int_equal(compare_reports(&base, &cur, &o, &res, &err), 0);
	assert_int_equal(res.n, 4);
	assert_int_equal(res.rows[0].verdict, CMP_SAME);      /* fut[input=0] 50 -> 50 */
	assert_int_equal(res.rows[1].verdict, CMP_REGRESSED); /* fut[input=1] 50 -> 55 */
	assert_float_equal(res.rows[1].change, 5.0, 0);
	assert_float_equal(res.rows[1].ratio, 0.10, 1e-12);
	assert_int_equal(res.rows[2].verdict, CMP_IMPROVED); /* fut[input=2] 50 -> 40 */
	assert_int_equal(res.rows[3].verdict, CMP_SAME);     /* sled 100 -> 100 */
	assert_int_equal(res.regressions, 1);
	compare_free(&res);
	/* A 10% change is within a 10% threshold (strictly beyond is a regression). */
	o.threshold = 0.10;
	assert_int_equal(compare_reports(&base, &cur, &o, &res, &err), 0);
	assert_int_equal(res.regressions, 0);
	compare_free(&res);
	results_free(&base);
	results_free(&cur);
}

static void noisy_figures_use_the_utest(void **state)
{
	struct bench_report base, cur;
	struct compare_opts o;
	struct compare_result res;
	struct bench_error err;

	compare_opts_init(&o);
	load(FIX "times-base.json", &base);
	load(FIX "times-new.json", &cur);
	assert_int_equal(compare_reports(&base, &cur, &o, &res, &err), 0);
	assert_int_equal(res.n, 2);
	assert_true(res.rows[0].tested);
	assert_true(res.rows[0].p_value < 0.001); /* t_shift: every new sample higher */
	assert_int_equal(res.rows[0].verdict, CMP_REGRESSED);
	assert_true(res.rows[1].tested);
	assert_true(res.rows[1].ratio > 0.01);   /* t_noise: median moved beyond 1% ... */
	assert_true(res.rows[1].p_value > 0.05); /* ... but not significantly */
	assert_int_equal(res.rows[1].verdict, CMP_SAME);
	assert_int_equal(res.regressions, 1);
	compare_free(&res);
	results_free(&base);
	results_free(&cur);
}

static void refuses_other_firmware(void **state)
{
	struct bench_report a, b;
	struct compare_opts o;
	struct bench_error err;

	compare_opts_init(&o);
	load(FIX "fut-hardfp.json", &a);
	load(FIX "fut-softfp.json", &b);
	assert_int_equal(compare_check(&a, "A.json", &b, "B.json", &o, &err), -BENCH_E_REPORT);
	assert_string_equal(err.msg, "A.json measured firmware 'fut-hardfp.elf' but B.json measured 'fut-softfp.elf': "
	                             "compare runs of the same firmware (or pass --allow-different-firmware)");
	o.allow_other_firmware = true;
	assert_int_equal(compare_check(&a, "A.json", &b, "B.json", &o, &err), 0);
	results_free(&a);
	results_free(&b);
}

/* Issue 26, class 2: a result with no sample that counts is UNMEASURED (a regression) whatever
 * BASE had, never "same"; its error says why. In unmeasured.json fut[input=1] has three samples,
 * all interrupted, and sled none. */
static void empty_sides_are_not_same(void **state)
{
	struct bench_report a, b;
	struct compare_opts o;
	struct compare_result res;
	struct bench_error err;

	compare_opts_init(&o);
	load(FIX "unmeasured.json", &a);
	load(FIX "unmeasured.json", &b);
	assert_int_equal(compare_reports(&a, &b, &o, &res, &err), 0);
	assert_int_equal(res.n, 3);
	assert_int_equal(res.rows[0].verdict, CMP_SAME);       /* fut[input=0] 50 -> 50 */
	assert_int_equal(res.rows[1].verdict, CMP_UNMEASURED); /* every sample interrupted on both sides */
	assert_int_equal(res.rows[2].verdict, CMP_UNMEASURED); /* no sample on both sides */
	assert_int_equal(res.regressions, 2);
	assert_int_equal(b.results[1].stats.n, 0);
	assert_string_equal(b.results[1].error,
	                    "no sample counts: all 3 took an exception inside the stretch (\"interrupted\") and are "
	                    "left out; --mask-irqs keeps interrupts out, --keep-interrupted counts them");
	assert_string_equal(b.results[2].error, "no sample measured");
	compare_free(&res);
	/* Kept in the statistics (--keep-interrupted), the same samples count: no error. */
	b.context.keep_interrupted = true;
	b.results[1].error[0] = '\0';
	results_finish(&b);
	assert_int_equal(b.results[1].stats.n, 3);
	assert_string_equal(b.results[1].error, "");
	results_free(&a);
	results_free(&b);
}

/* Two results of one name and input in one report are refused, not pooled into one median
 * (fut[input=0] 50,50,50 and 70,70,70 would read as median 60, which neither run measured). */
static void one_name_twice_is_refused(void **state)
{
	struct bench_report r;
	struct bench_error err;

	results_init(&r);
	assert_int_equal(json_read_file(FIX "duplicate.json", &r, &err), -BENCH_E_REPORT);
	assert_string_equal(err.msg, FIX "duplicate.json: results[2] is fut[input=0] again (results[0]): one report "
	                                 "holds one result per name and input; split the report or rename one");
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(utest_exact_scipy_example),
	    cmocka_unit_test(utest_exact_separated),
	    cmocka_unit_test(utest_asymptotic),
	    cmocka_unit_test(utest_degenerate),
	    cmocka_unit_test(threshold_parse),
	    cmocka_unit_test(verdicts_on_fixture_pair),
	    cmocka_unit_test(noisy_figures_use_the_utest),
	    cmocka_unit_test(refuses_other_firmware),
	    cmocka_unit_test(empty_sides_are_not_same),
	    cmocka_unit_test(one_name_twice_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
