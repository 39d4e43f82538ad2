/* base/str.c: snprintf with its result checked (whole or an error) or visibly cut ("..."). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/error.h"
#include "base/str.h"

static void test_fmt_whole_or_error(void **state)
{
	char b[8];

	assert_int_equal(str_fmt(b, sizeof(b), "%s=%d", "ab", 1234), 0); /* 7 characters + NUL: fits */
	assert_string_equal(b, "ab=1234");
	assert_int_equal(str_fmt(b, sizeof(b), "%s=%d", "abc", 1234), -1); /* 8: cut, still terminated */
	assert_string_equal(b, "abc=123");
	assert_int_equal(str_fmt(b, 0, "x"), -1);
	assert_true(str_fits(7, 8));
	assert_false(str_fits(8, 8));
	assert_false(str_fits(-1, 8));
}

static void test_append_and_copy(void **state)
{
	char b[8] = "1";

	assert_int_equal(str_append(b, sizeof(b), ".%u", 22u), 0);
	assert_string_equal(b, "1.22");
	assert_int_equal(str_append(b, sizeof(b), ".%u", 333u), -1);
	assert_string_equal(b, "1.22.33");
	assert_int_equal(str_copy(b, sizeof(b), "1234567"), 0);
	assert_int_equal(str_copy(b, sizeof(b), "12345678"), -1);
	assert_string_equal(b, "1234567");
	assert_int_equal(str_copy(b, 0, "x"), -1);
}

static void test_cut_is_visible(void **state)
{
	char b[8];

	assert_string_equal(str_fmt_cut(b, sizeof(b), "%d", 1234567), "1234567");
	assert_string_equal(str_fmt_cut(b, sizeof(b), "%d", 12345678), "1234...");
	assert_string_equal(str_fmt_cut(b, 3, "%s", "abcdef"), "ab"); /* too small for "...": plain cut */
}

/* bench_fail's message is cut the same way: a reader sees it was longer. */
static void test_error_message_cut(void **state)
{
	struct bench_error err;
	char big[2000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(bench_fail(&err, BENCH_E_USAGE, "%s", big), -(int)BENCH_E_USAGE);
	assert_int_equal(strlen(err.msg), sizeof(err.msg) - 1);
	assert_string_equal(err.msg + sizeof(err.msg) - 4, "...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fmt_whole_or_error),
	    cmocka_unit_test(test_append_and_copy),
	    cmocka_unit_test(test_cut_is_visible),
	    cmocka_unit_test(test_error_message_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
