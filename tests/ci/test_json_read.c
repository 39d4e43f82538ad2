/* Unit tests of host/report/json_read.c on the hand-written fixtures (fixtures/README.md) and on
 * broken inputs given inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "report/json_read.h"

#define FIX BENCH_SOURCE_DIR "/tests/ci/fixtures/"

static void reads_every_field(void **state)
{
	struct bench_report r;
	struct bench_error err;

	results_init(&r);
	assert_int_equal(json_read_file(FIX "golden-input.json", &r, &err), 0);
	assert_int_equal(r.schema_version, 1);
	assert_int_equal(r.status, BENCH_STATUS_INCOMPLETE);
	assert_string_equal(r.status_detail, "timeout");
	assert_string_equal(r.context.firmware, "build/examples/sim-stm32f4/fut-softfp.elf");
	assert_string_equal(r.context.board, "sim-stm32f4");
	assert_true(r.context.cycles_modelled);
	assert_int_equal(r.context.core_clock_hz, 168000000);
	assert_int_equal(r.n_results, 4);
	assert_string_equal(r.results[1].name, "fut");
	assert_int_equal(r.results[1].n_args, 1);
	assert_string_equal(r.results[1].args[0].name, "input");
	assert_int_equal(r.results[1].args[0].value, 7);
	assert_int_equal(r.results[1].n_samples, 3);
	assert_int_equal(r.results[1].samples[2], 52);
	assert_float_equal(r.results[1].stats.median, 51.0, 0);
	assert_float_equal(r.results[1].stats.max, 52.0, 0);
	assert_int_equal(r.results[2].n_args, 0);
	assert_int_equal(r.results[3].n_samples, 0);
	assert_string_equal(r.results[3].error, "timeout before END marker 3");
	assert_int_equal(r.n_regions, 2);
	assert_string_equal(r.regions[0].name, "isr");
	assert_int_equal(r.regions[0].count, 10);
	assert_int_equal(r.regions[0].n_events, 1);
	assert_int_equal(r.regions[0].events[0].value, 300);
	results_free(&r);
}

static void refuses_other_schema_version(void **state)
{
	struct bench_report r;
	struct bench_error err;

	results_init(&r);
	assert_int_equal(json_read_file(FIX "schema-v2.json", &r, &err), -BENCH_E_REPORT);
	assert_string_equal(err.msg, BENCH_SOURCE_DIR "/tests/ci/fixtures/schema-v2.json: report schema_version 2, "
				     "this bench reads version 1: re-run it with this bench or use the bench that wrote it");
	results_free(&r);
}

static void refuses_broken_input(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"{", "x: not valid JSON (near byte 0): pass a report written by `bench run --json`"},
		{"[]", "x: not a JSON object: not a bench report"},
		{"{\"results\":[]}", "x: no \"schema_version\": not a bench report"},
		{"{\"schema_version\":1,\"status\":\"fine\"}", "x: \"status\" is not ok, incomplete or error"},
		{"{\"schema_version\":1,\"status\":\"ok\",\"context\":{},\"results\":[{\"name\":\"a\",\"samples\":[1.5]}]}",
		 "x: results[0].samples[0] is not an integer"},
		{"{\"schema_version\":1,\"status\":\"ok\",\"context\":{},\"results\":[{\"name\":\"a\",\"samples\":[1],"
		 "\"wrapped\":[3]}]}",
		 "x: results[0].wrapped holds a bad sample index"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bench_report r;
		struct bench_error err;
		results_init(&r);
		assert_int_equal(json_read_text(cases[i].text, strlen(cases[i].text), "x", &r, &err), -BENCH_E_REPORT);
		assert_string_equal(err.msg, cases[i].msg);
		results_free(&r);
	}
}

static void missing_file(void **state)
{
	struct bench_report r;
	struct bench_error err;

	results_init(&r);
	assert_int_equal(json_read_file("/nonexistent/run.json", &r, &err), -BENCH_E_REPORT);
	assert_string_equal(err.msg, "cannot open report /nonexistent/run.json: No such file or directory");
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_every_field),
		cmocka_unit_test(refuses_other_schema_version),
		cmocka_unit_test(refuses_broken_input),
		cmocka_unit_test(missing_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
