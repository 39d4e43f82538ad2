/* `bench run` argument parsing (run_args.c): sweeps, flags, and each usage error's message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "farm/farm.h"
#include "report/junit.h"
#include "run/run.h"

static void test_sweep_range(void **state)
{
	struct run_sweep s;
	struct bench_error err;

	assert_int_equal(run_parse_sweep("input=0:1000:7", &s, &err), 0);
	assert_string_equal(s.name, "input");
	assert_int_equal(s.n, 143); /* 0, 7, ..., 994 */
	assert_int_equal(s.values[0], 0);
	assert_int_equal(s.values[142], 994);
	free(s.values);
	assert_int_equal(run_parse_sweep("x=10:0:-5", &s, &err), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.values[2], 0);
	free(s.values);
	assert_int_equal(run_parse_sweep("x=3:3", &s, &err), 0); /* step defaults to 1 */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.values[0], 3);
	free(s.values);
}

static void test_sweep_list(void **state)
{
	struct run_sweep s;
	struct bench_error err;

	assert_int_equal(run_parse_sweep("input=1,2,-3,0x10", &s, &err), 0);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.values[2], -3);
	assert_int_equal(s.values[3], 16);
	free(s.values);
	assert_int_equal(run_parse_sweep("n=42", &s, &err), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.values[0], 42);
	free(s.values);
}

static void test_sweep_bad(void **state)
{
	static const char *const bad[][2] = {
	    {"input", "no NAME="},
	    {"=1", "no NAME="},
	    {"input=", "no values"},
	    {"in-put=1", "NAME must be a C identifier"},
	    {"1x=1", "NAME must be a C identifier"},
	    {"input=0:10:0", "STEP must move START towards STOP"},
	    {"input=10:0:1", "STEP must move START towards STOP"},
	    {"input=a:b", "not integers"},
	    {"input=1,,2", "empty list element"},
	    {"input=1,x", "not a list of integers"},
	    {"input=0:2000000:1", "more than 1000000 values"},
	};
	struct run_sweep s;
	struct bench_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = run_parse_sweep(bad[i][0], &s, &err);
		if (rc != -(int)BENCH_E_USAGE || !strstr(err.msg, bad[i][1]))
			fail_msg("'%s': rc %d msg '%s'", bad[i][0], rc, err.msg);
		assert_null(s.values);
	}
}

static int parse(struct run_opts *o, struct bench_error *err, int argc, char **argv)
{
	run_opts_init(o);
	return run_parse_args(argc, argv, o, err);
}

static void test_args_good(void **state)
{
	struct run_opts o;
	struct bench_error err;
	char *argv[] = {"run",      "fut.elf",      "--repeat",          "100",     "--warmup=0",
	                "--arg",    "input=1,2",    "--timeout",         "2s",      "--json",
	                "out.json", "--board",      "stm32f4-discovery", "--probe", "066DFF",
	                "--quiet",  "--no-progress"};

	assert_int_equal(parse(&o, &err, (int)(sizeof(argv) / sizeof(argv[0])), argv), 0);
	assert_string_equal(o.firmware, "fut.elf");
	assert_int_equal(o.repeat, 100);
	assert_int_equal(o.warmup, 0);
	assert_int_equal(o.n_sweeps, 1);
	assert_int_equal(o.sweeps[0].n, 2);
	assert_int_equal(o.timeout_ms, 2000);
	assert_string_equal(o.json, "out.json");
	assert_string_equal(o.board, "stm32f4-discovery");
	assert_string_equal(o.probe, "066DFF");
	assert_true(o.quiet);
	assert_false(o.progress);
	run_opts_free(&o);

	char *argv2[] = {"run", "fw.elf"};
	assert_int_equal(parse(&o, &err, 2, argv2), 0);
	assert_int_equal(o.repeat, 10);
	assert_int_equal(o.warmup, 1);
	assert_int_equal(o.timeout_ms, RUN_DEFAULT_TIMEOUT_MS);
	assert_null(o.board);
	run_opts_free(&o);

	char *argv3[] = {"run", "--help"};
	assert_int_equal(parse(&o, &err, 2, argv3), 1);
}

static void test_args_bad(void **state)
{
	struct {
		char *argv[6];
		int argc;
		const char *msg;
	} cases[] = {
	    {{"run"}, 1, "no firmware given: bench run FIRMWARE.elf"},
	    {{"run", "a.elf", "b.elf"}, 3, "two firmware files ('a.elf', 'b.elf'): give one"},
	    {{"run", "a.elf", "--frobnicate"}, 3, "unknown option '--frobnicate': see `bench run --help`"},
	    {{"run", "a.elf", "--repeat"}, 3, "--repeat needs a value (N)"},
	    {{"run", "a.elf", "--repeat", "x"}, 4, "--repeat x: not a number"},
	    {{"run", "a.elf", "--repeat", "0"}, 4, "--repeat 0 measures nothing"},
	    {{"run", "a.elf", "--timeout", "0"}, 4, "--timeout 0: give milliseconds"},
	    {{"run", "a.elf", "--tcl-port", "70000"}, 4, "--tcl-port 70000: give a TCP port"},
	    {{"run", "a.elf", "--start", "f"}, 4, "--start and --stop go together"},
	    {{"run", "a.elf", "--openocd", "h:1", "--gdb", "h:2"}, 6, "pick one backend"},
	    {{"run", "a.elf", "--quiet=1"}, 3, "--quiet takes no value"},
	    {{"run", "a.elf", "--arg", "i=1", "--arg", "i=2"}, 6, "--arg i given twice"},
	    {{"run", "a.elf", "--board", ""}, 4, "--board needs a non-empty value"},
	};
	struct run_opts o;
	struct bench_error err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse(&o, &err, cases[i].argc, cases[i].argv);
		if (rc != -(int)BENCH_E_USAGE || !strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: rc %d msg '%s'", i, rc, err.msg);
		run_opts_free(&o);
	}
}

/* Every flag `bench run` accepts (--max-cycles and --farm too, in the same table) is in --help, and every flag --help
 * names is accepted. */
static const char *const run_flags[] = {
    "--board",    "--probe",    "--openocd",    "--gdb",   "--repeat",      "--warmup", "--arg",        "--timeout",
    "--json",     "--format",   "--start",      "--stop",  "--bp-markers",  "--poll",   "--no-regions", "--no-load",
    "--work-dir", "--tcl-port", "--boards-dir", "--quiet", "--no-progress", "--help",   "--farm",       "--max-cycles",
};

static bool flag_accepted(const char *flag)
{
	char a0[] = "run", a1[64], a2[] = "x=1";
	char *argv[] = {a0, a1, a2, NULL};
	int argc = 3;
	struct run_opts o;
	struct bench_error err;
	static struct junit_limits l; /* --max-cycles x=1 goes here; 2.5 KiB */
	int rc;

	snprintf(a1, sizeof(a1), "%s", flag);
	memset(&l, 0, sizeof(l));
	run_opts_init(&o);
	o.limits = &l;
	rc = run_parse_args(argc, argv, &o, &err);
	run_opts_free(&o);
	return rc == 1 || rc == 0 || !strstr(err.msg, "unknown option");
}

static void test_help_lists_every_flag(void **state)
{
	char *text = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	run_print_usage(f);
	assert_int_equal(fclose(f), 0);
	for (size_t i = 0; i < sizeof(run_flags) / sizeof(run_flags[0]); i++) {
		char want[80];
		snprintf(want, sizeof(want), "  %s", run_flags[i]);
		if (!strstr(text, want))
			fail_msg("`bench run --help` lacks %s", run_flags[i]);
		assert_true(flag_accepted(run_flags[i]));
	}
	/* And the other way: each "  --flag" the help starts a line with is a flag bench run takes. */
	for (p = strstr(text, "\n  --"); p; p = strstr(p + 1, "\n  --")) {
		char flag[64];
		size_t n = strcspn(p + 3, " \n");
		assert_true(n + 1 < sizeof(flag));
		memcpy(flag, p + 3, n);
		flag[n] = '\0';
		if (!flag_accepted(flag))
			fail_msg("--help names %s, which bench run refuses", flag);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_range), cmocka_unit_test(test_sweep_list),
	    cmocka_unit_test(test_sweep_bad),   cmocka_unit_test(test_help_lists_every_flag),
	    cmocka_unit_test(test_args_good),   cmocka_unit_test(test_args_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
