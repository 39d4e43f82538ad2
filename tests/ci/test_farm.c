/* Unit tests of host/farm/farm.c's parser: fields, comments and blank lines, and each error naming
 * FILE:LINE. (Board and serial checks run through `bench run --farm` in cli.table.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "farm/farm.h"

static struct farm f;

static void parses_the_lab_file(void **state)
{
	struct bench_error err;

	assert_int_equal(farm_load(BENCH_SOURCE_DIR "/tests/ci/fixtures/farm/lab.farm", &f, &err), 0);
	assert_int_equal(f.n, 3);
	assert_string_equal(f.boards[0].name, "disco-1");
	assert_string_equal(f.boards[0].board, "stm32f4-discovery");
	assert_string_equal(f.boards[0].serial, "066DFF535550755187191037"); /* the trailing comment is dropped */
	assert_int_equal(f.boards[0].line, 3);
	assert_string_equal(f.boards[1].name, "nucleo-401");
	assert_int_equal(f.boards[1].line, 4);
	assert_string_equal(f.boards[2].serial, "066BFF504884514867163442");
	assert_int_equal(f.boards[2].line, 6); /* after a blank line */
}

static void virtual_boards_take_no_serial(void **state)
{
	struct bench_error err;
	const char *text = "sim-a sim-stm32f4\n\tsim-b\tsim-stm32f4\r\n";

	assert_int_equal(farm_parse(text, strlen(text), "t.farm", &f, &err), 0);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.boards[1].name, "sim-b");
	assert_string_equal(f.boards[1].board, "sim-stm32f4");
	assert_string_equal(f.boards[1].serial, "");
}

static void errors_name_the_line(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"# only a comment\n\n", "t.farm: no boards: one line per board, NAME BOARD [PROBE-SERIAL]"},
		{"a sim-stm32f4\nlonely\n", "t.farm:2: expected NAME BOARD [PROBE-SERIAL], found 1 field"},
		{"a/b sim-stm32f4\n", "t.farm:1: name 'a/b' must be 1-31 of A-Z a-z 0-9 _ . -"},
		{"a sim-stm32f4\n\n\na sim-stm32f4\n", "t.farm:4: name 'a' already used on line 1"},
		{"a b S1\nc d S2\ne f S1\n", "t.farm:3: probe serial 'S1' already used by 'a' on line 1"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bench_error err;
		assert_int_equal(farm_parse(cases[i].text, strlen(cases[i].text), "t.farm", &f, &err), -BENCH_E_USAGE);
		assert_string_equal(err.msg, cases[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_lab_file),
		cmocka_unit_test(virtual_boards_take_no_serial),
		cmocka_unit_test(errors_name_the_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
