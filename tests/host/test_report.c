/* The JSON and console reporters and atomic writing (report/json.c, console.c, write.c). Writes
 * the report to argv[1] when given, for the schema check that runs after this test
 * (check_schema.py, ctest fixture host.report). */
#include <cjson/cJSON.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "firmware/regions.h"
#include "report/json_read.h"
#include "report/junit.h"
#include "report/reporter.h"

static const char *out_path;

static void make_report(struct bench_report *r)
{
	struct bench_arg a = {"input", 7};
	struct bench_result *res;
	struct bench_region_result *g;

	results_init(r);
	snprintf(r->context.tool_version, sizeof(r->context.tool_version), "0.1.0");
	snprintf(r->context.firmware, sizeof(r->context.firmware), "build/examples/sim-stm32f4/fut-hardfp.elf");
	memset(r->context.firmware_sha256, 'a', 64);
	snprintf(r->context.board, sizeof(r->context.board), "sim-stm32f4");
	snprintf(r->context.probe, sizeof(r->context.probe), "virtual");
	snprintf(r->context.backend, sizeof(r->context.backend), "openocd-tcl");
	snprintf(r->context.server_version, sizeof(r->context.server_version), "Open On-Chip Debugger 0.12.0");
	r->context.cycles_modelled = true;
	r->context.core_clock_hz = 168000000;
	r->context.overhead_cycles = 2;
	snprintf(r->context.date, sizeof(r->context.date), "2026-11-22T04:40:00Z");
	res = results_get(r, "fut", &a, 1);
	results_add_sample(res, 14, 0);
	results_add_sample(res, 14, 0);
	results_add_sample(res, 17, BENCH_SAMPLE_WRAPPED);
	res = results_get(r, "nop100", NULL, 0);
	results_add_sample(res, 100, 0);
	res = results_get(r, "never", NULL, 0);
	snprintf(res->error, sizeof(res->error), "no samples: timeout");
	g = results_add_region(r);
	snprintf(g->name, sizeof(g->name), "isr");
	g->id = 1, g->count = 10, g->total = 4200, g->min = 420, g->max = 420, g->last = 420;
	g->mean = 420.0, g->ema = 420.0, g->enabled = true;
	snprintf(g->events[0].name, sizeof(g->events[0].name), "PAPI_TOT_INS");
	g->events[0].value = 300;
	g->n_events = 1;
	results_finish(r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char buf[65536];
	size_t n;
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void test_json_roundtrip(void **state)
{
	struct bench_report r;
	struct bench_error err;
	char path[] = "/tmp/bench-test-report-XXXXXX";
	const char *p = out_path;
	int fd;

	make_report(&r);
	if (!p) {
		fd = mkstemp(path);
		assert_true(fd >= 0);
		close(fd);
		p = path;
	}
	assert_int_equal(report_write_atomic(reporter_find("json"), NULL, p, &r, &err), 0);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	cJSON *root = cJSON_Parse(slurp(p));
	assert_non_null(root);
	assert_int_equal(cJSON_GetObjectItem(root, "schema_version")->valueint, 1);
	assert_string_equal(cJSON_GetObjectItem(root, "status")->valuestring, "ok");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(root, "error")));
	cJSON *ctx = cJSON_GetObjectItem(root, "context");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ctx, "cycles_modelled")));
	assert_true(cJSON_GetObjectItem(ctx, "core_clock_hz")->valuedouble == 168000000.0);
	cJSON *res = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
	assert_string_equal(cJSON_GetObjectItem(res, "name")->valuestring, "fut");
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(res, "args"), "input")->valueint, 7);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(res, "samples")), 3);
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "wrapped"), 0)->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(res, "median")->valueint, 14);
	assert_true(cJSON_GetObjectItem(res, "mean")->valuedouble == 15.0);
	/* 14 cycles at 168 MHz = 83.333 ns, reported to 0.1 ns. */
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(res, "time_ns"), "min")->valuedouble == 83.3);
	res = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 2);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(res, "min")));
	assert_string_equal(cJSON_GetObjectItem(res, "error")->valuestring, "no samples: timeout");
	cJSON *reg = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "regions"), 0);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(reg, "events"), "PAPI_TOT_INS")->valueint, 300);
	cJSON_Delete(root);
	if (!out_path)
		unlink(path);
	results_free(&r);
}

static void test_console_golden(void **state)
{
	struct bench_report r;
	struct bench_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const char want[] =
	    "fut-hardfp.elf on sim-stm32f4 at 168.0 MHz, DWT_CYCCNT via openocd-tcl\n"
	    "cycles are modelled by the virtual board (Cortex-M4 timing model), not measured on silicon\n"
	    "overhead of an empty marker pair: 2 cycles, subtracted from every sample\n"
	    "\n"
	    "name    args     n     min  median    mean     max  stddev   time(min)\n"
	    "fut     input=7  3      14      14    15.0      17     1.7     83.3 ns\n"
	    "nop100  -        1     100     100   100.0     100     0.0    595.2 ns\n"
	    "never   -        0  no samples: timeout\n"
	    "(cycles; n samples per row; stddev is the sample standard deviation)\n"
	    "\n"
	    "region                  count        total      min      max       mean        ema\n"
	    "isr                        10         4200      420      420      420.0      420.0\n";

	assert_non_null(f);
	make_report(&r);
	assert_int_equal(report_emit(reporter_find("console"), NULL, f, &r, &err), 0);
	fclose(f);
	if (strcmp(buf, want))
		fail_msg("console output differs:\n%s", buf);
	free(buf);
	results_free(&r);
}

/* The header names the transport as the JSON's context.transport does. */
static void test_console_transport(void **state)
{
	struct bench_report r;
	struct bench_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	make_report(&r);
	snprintf(r.context.transport, sizeof(r.context.transport), "dap");
	assert_int_equal(report_emit(reporter_find("console"), NULL, f, &r, &err), 0);
	fclose(f);
	static const char head[] =
	    "fut-hardfp.elf on sim-stm32f4 at 168.0 MHz, DWT_CYCCNT via openocd-tcl (transport dap)\n"
	    "cycles are modelled";
	if (strncmp(buf, head, strlen(head)))
		fail_msg("console header differs:\n%s", buf);
	free(buf);
	results_free(&r);
}

/* The report's warnings follow the tables, one line each, after one blank line. */
static void test_console_warnings(void **state)
{
	struct bench_report r;
	struct bench_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const char tail[] =
	    "isr                        10         4200      420      420      420.0      420.0\n"
	    "\n"
	    "warning: 3 of 9 --poll reads of the region table failed, measuring went on; the first: torn\n"
	    "warning: second\n";

	assert_non_null(f);
	make_report(&r);
	r.n_warnings = 2;
	snprintf(r.warnings[0], sizeof(r.warnings[0]),
	         "3 of 9 --poll reads of the region table failed, measuring went on; the first: torn");
	snprintf(r.warnings[1], sizeof(r.warnings[1]), "second");
	assert_int_equal(report_emit(reporter_find("console"), NULL, f, &r, &err), 0);
	fclose(f);
	assert_true(len > strlen(tail));
	if (strcmp(buf + len - strlen(tail), tail))
		fail_msg("console output ends differently:\n%s", buf);
	free(buf);
	results_free(&r);
}

static void test_write_failures(void **state)
{
	struct bench_report r;
	struct bench_error err;
	FILE *full = fopen("/dev/full", "w");

	make_report(&r);
	assert_int_equal(report_write_atomic(reporter_find("json"), NULL, "/nonexistent-dir/r.json", &r, &err),
	                 -(int)BENCH_E_IO);
	assert_non_null(strstr(err.msg, "cannot write report /nonexistent-dir/r.json: No such file or directory"));
	/* A full disk is an error, not a silent short file. */
	assert_non_null(full);
	assert_int_equal(report_emit(reporter_find("json"), NULL, full, &r, &err), -(int)BENCH_E_IO);
	fclose(full);
	assert_null(reporter_find("nosuch"));
	assert_non_null(reporter_find("csv"));
	results_free(&r);
}

static void test_incomplete_status(void **state)
{
	struct bench_report r;
	struct bench_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	make_report(&r);
	r.status = BENCH_STATUS_INCOMPLETE;
	snprintf(r.status_detail, sizeof(r.status_detail), "timeout");
	snprintf(r.error, sizeof(r.error), "the target did not reach the next marker within 100 ms");
	assert_int_equal(report_emit(reporter_find("json"), NULL, f, &r, &err), 0);
	fclose(f);
	cJSON *root = cJSON_Parse(buf);
	assert_string_equal(cJSON_GetObjectItem(root, "status")->valuestring, "incomplete");
	assert_string_equal(cJSON_GetObjectItem(root, "status_detail")->valuestring, "timeout");
	assert_string_equal(cJSON_GetObjectItem(root, "error")->valuestring,
	                    "the target did not reach the next marker within 100 ms");
	cJSON_Delete(root);
	free(buf);
	results_free(&r);
}

/* Emits REP with OPS and CTX into a string (freed by the caller). */
static char *emit(const char *format, const struct reporter_ctx *ctx, const struct bench_report *rep)
{
	struct bench_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_emit(reporter_find(format), ctx, f, rep, &err), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Options travel in the context of one emit, not in a global: the same reporter gives a failed
 * case with the limits and none without them, in either order. */
static void test_context_limits(void **state)
{
	static struct junit_limits l; /* 2.5 KiB */
	struct bench_report r;
	struct bench_error err;
	const struct reporter_ctx with = {.limits = &l};
	char *a, *b, *c;

	make_report(&r);
	memset(&l, 0, sizeof(l));
	assert_int_equal(junit_limit_parse(&l, "fut=16", &err), 0); /* fut's samples: 14, 14, 17 */
	a = emit("junit", NULL, &r);
	b = emit("junit", &with, &r);
	c = emit("junit", NULL, &r);
	assert_null(strstr(a, "<failure"));
	assert_non_null(strstr(b, "<failure type=\"max-cycles\" message=\"max 17 cycles &gt; limit 16\"/>"));
	assert_non_null(strstr(b, "failures=\"1\""));
	assert_string_equal(a, c);
	assert_int_equal(junit_limit_exit(&l, &r, 0), 1);
	assert_int_equal(junit_limit_exit(NULL, &r, 0), 0);
	assert_int_equal(junit_limit_exit(&l, &r, 4), 4); /* the run's own failure wins */
	free(a);
	free(b);
	free(c);
	results_free(&r);
}

/* html and svg are reporters like the others; with several reports in the context they draw
 * them all (one series per firmware), without it the emitted one alone. */
static void test_registry_figures(void **state)
{
	struct bench_report r1, r2;
	const struct bench_report *both[] = {&r1, &r2};
	const struct reporter_ctx ctx = {.reports = both, .n_reports = 2};
	char names[160], *one, *two;

	make_report(&r1);
	make_report(&r2);
	snprintf(r2.context.firmware, sizeof(r2.context.firmware), "fut-softfp.elf");
	assert_string_equal(reporter_names(names, sizeof(names)),
	                    "console, json, csv, bmf, github, junit, html or svg");
	assert_string_equal(reporter_names(names, 12), "console, js"); /* truncated, terminated */
	for (size_t i = 0; reporter_table[i]; i++)
		assert_true(reporter_table[i]->help && reporter_table[i]->help[0]);
	one = emit("html", NULL, &r1);
	two = emit("html", &ctx, &r1);
	assert_non_null(strstr(one, "<title>bench report: fut-hardfp.elf</title>"));
	assert_non_null(strstr(two, "<title>bench report: fut-hardfp.elf, fut-softfp.elf</title>"));
	free(one);
	free(two);
	one = emit("svg", &ctx, &r1);
	assert_int_equal(strncmp(one, "<svg", 4), 0);
	assert_non_null(strstr(one, "fut-softfp.elf: fut"));
	free(one);
	results_free(&r1);
	results_free(&r2);
}

/* An instruction count (--icount) is no duration: BMF gives it no "latency" and JUnit no time,
 * while a cycle result of the same report keeps both (console, JSON and CSV already did so). */
static void test_instructions_no_time(void **state)
{
	struct bench_report r;
	struct bench_result *res;
	char *bmf, *junit;

	(void)state;
	results_init(&r);
	r.context.core_clock_hz = 100000000;
	res = results_get(&r, "loop [icount]", NULL, 0);
	snprintf(res->unit, sizeof(res->unit), "instructions");
	results_add_sample(res, 2001, 0);
	results_finish(&r);
	bmf = emit("bmf", NULL, &r);
	junit = emit("junit", NULL, &r);
	assert_non_null(strstr(bmf, "\"instructions\""));
	assert_null(strstr(bmf, "latency"));
	assert_non_null(strstr(junit, "time=\"0.000000000\""));
	free(bmf);
	free(junit);
	/* the same figure in cycles: 2001 cycles at 100 MHz are 20010 ns */
	snprintf(res->unit, sizeof(res->unit), "cycles");
	bmf = emit("bmf", NULL, &r);
	junit = emit("junit", NULL, &r);
	assert_non_null(strstr(bmf, "latency"));
	assert_non_null(strstr(junit, "time=\"0.000020010\""));
	free(bmf);
	free(junit);
	results_free(&r);
}

/* A region on a board with counter none: JSON null for its cycle figures (never 0), read back as not
 * measured; the console shows '-' and keeps the count. */
static void test_region_no_cycles(void **state)
{
	struct bench_report r, back;
	struct bench_region_result *g;
	struct bench_error err;
	char *json, *con;

	(void)state;
	results_init(&r);
	g = results_add_region(&r);
	snprintf(g->name, sizeof(g->name), "filter");
	g->id = 2, g->count = 7, g->total = 840, g->min = 100, g->max = 140, g->last = 120;
	/* What the runtime flagged from a counter the board does not have (QEMU's TriCore CCNT): no
	 * wrap warning on a counter-none board; the marker errors stay. */
	g->error_flags = PFP_E_WRAP | PFP_E_NEGATIVE | PFP_E_DOUBLE_BEGIN;
	snprintf(g->error, sizeof(g->error), "an interval reached 2^31 cycles: the counter may have wrapped");
	regions_mark_no_cycles(&r);
	assert_null(strstr(g->error, "wrap"));
	assert_null(strstr(g->error, "below the calibrated overhead"));
	assert_non_null(strstr(g->error, "Begin twice"));
	assert_int_equal(g->error_flags, PFP_E_WRAP | PFP_E_NEGATIVE | PFP_E_DOUBLE_BEGIN); /* as read */
	results_finish(&r);
	assert_true(g->no_cycles);
	assert_int_equal(r.n_warnings, 1);
	json = emit("json", NULL, &r);
	assert_non_null(strstr(json, "\"total\":\tnull"));
	assert_non_null(strstr(json, "\"min\":\tnull"));
	assert_non_null(strstr(json, "\"last\":\tnull"));
	assert_non_null(strstr(json, "\"count\":\t7"));
	assert_non_null(strstr(json, "cycles not measured: the board has no cycle counter"));
	results_init(&back);
	assert_int_equal(json_read_text(json, strlen(json), "t", &back, &err), 0);
	assert_int_equal(back.n_regions, 1);
	assert_true(back.regions[0].no_cycles);
	assert_int_equal(back.regions[0].count, 7);
	con = emit("console", NULL, &r);
	assert_non_null(
	    strstr(con, "filter                      7            -        -        -          -          -"));
	free(json);
	free(con);
	results_free(&back);
	results_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_roundtrip),       cmocka_unit_test(test_console_golden),
	    cmocka_unit_test(test_console_warnings),     cmocka_unit_test(test_write_failures),
	    cmocka_unit_test(test_incomplete_status),    cmocka_unit_test(test_context_limits),
	    cmocka_unit_test(test_registry_figures),     cmocka_unit_test(test_console_transport),
	    cmocka_unit_test(test_instructions_no_time), cmocka_unit_test(test_region_no_cycles),
	};
	out_path = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
