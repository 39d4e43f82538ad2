/* host/profile exact profiles (profile_ledger.c, profile_exact.c, profile_exact_agg.c,
 * profile_write_exact.c) on a hand-made ledger shaped like fut-softfp's: main calls fut, fut calls
 * __aeabi_fmul; the calibration pair's 3 cycles (1 block, 2 entry_fetch) come off the END marker
 * and the stretch's first instruction. Figures worked by hand below; valgrind's callgrind_annotate
 * (argv[2]) reads the callgrind file back and its PROGRAM TOTALS must be the result's cycles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench_skip.h"
#include "profile/profile.h"
#include "profile/profile_exact.h"
#include "report/json.h"
#include "report/json_read.h"
#include "results/compare.h"
#include "results/compare_profile.h"

static const char *out_dir, *annotate;

static struct elf_symbol syms[] = {
    {"Reset_Handler", 0x08000000u, 0x20u, true},
    {"main", 0x08000100u, 0x40u, true},
    {"fut", 0x08000200u, 0x20u, true},
    {"__aeabi_fmul", 0x08000300u, 0x40u, true},
};

static struct elf_file fake_elf(void)
{
	struct elf_file e;
	memset(&e, 0, sizeof(e));
	e.symbols = syms;
	e.n_symbols = sizeof(syms) / sizeof(syms[0]);
	return e;
}

static const struct marker cal_begin = {0x08000110u, MARKER_CAL_BEGIN, 0, "cal"};
static const struct marker cal_end = {0x08000112u, MARKER_CAL_END, 0, "cal"};
static const struct marker begin = {0x08000120u, MARKER_BEGIN, 1, "fut"};
static const struct marker end = {0x08000126u, MARKER_END, 1, "fut"};

static void cell(struct profile_exact *x, uint32_t node, uint32_t addr, uint64_t execs, uint64_t block, uint64_t fetch)
{
	const uint64_t c[2] = {block, fetch};
	assert_int_equal(profile_exact_cell(x, node, addr, execs, c), 0);
}

/* One stretch of fut: 17 cycles counted, 14 after the calibration's 3. `fmul` cycles in fmul. */
static void stretch(struct profile_exact *x, bool warm, const struct bench_arg *args, uint64_t fmul)
{
	assert_int_equal(profile_exact_halt(x, &begin, warm, args, 1), 0);
	cell(x, 1, 0x08000122u, 1, 1, 2); /* bl fut: the resume's refill lands here */
	cell(x, 2, 0x08000200u, 1, 3, 0);
	cell(x, 2, 0x08000204u, 1, 1, 0);
	cell(x, 3, 0x08000300u, 4, fmul - 1, 1);
	cell(x, 1, 0x08000126u, 1, 1, 0); /* the END BKPT */
	assert_int_equal(profile_exact_enter(x, 2, 1), 0);
	assert_int_equal(profile_exact_enter(x, 3, 1), 0);
	assert_int_equal(profile_exact_halt(x, &end, warm, args, 1), 0);
}

static void build(struct profile_exact *x)
{
	const char *reasons[] = {"block", "entry_fetch"};
	const struct bench_arg in0 = {"input", 0}, in3 = {"input", 3}, in5 = {"input", 5};

	profile_exact_init(x);
	assert_int_equal(profile_exact_reasons(x, reasons, 2), 0);
	assert_int_equal(profile_exact_node(x, 0, -1, 0x08000000u, 0), 0);
	assert_int_equal(profile_exact_node(x, 1, 0, 0x08000101u, 0), 0); /* Thumb bit dropped */
	assert_int_equal(profile_exact_node(x, 2, 1, 0x08000200u, 0), 0);
	assert_int_equal(profile_exact_node(x, 3, 2, 0x08000300u, 0), 0);
	cell(x, 0, 0x08000004u, 10, 10, 0); /* start-up: before any pair, dropped */
	assert_int_equal(profile_exact_halt(x, &cal_begin, false, NULL, 0), 0);
	cell(x, 1, 0x08000112u, 1, 1, 2);
	assert_int_equal(profile_exact_halt(x, &cal_end, false, NULL, 0), 0);
	stretch(x, true, &in0, 9);  /* warm-up: not counted */
	stretch(x, false, &in0, 9); /* input 0: 14 cycles */
	stretch(x, false, &in3, 20);
	stretch(x, false, &in3, 20); /* input 3: 25 cycles a stretch, two alike */
	stretch(x, false, &in5, 9);
	stretch(x, false, &in5, 20); /* input 5: 14 then 25, summed */
}

static void test_exact(void **state)
{
	struct profile_exact x;
	struct elf_file e = fake_elf();
	struct bench_profile p;

	(void)state;
	build(&x);
	assert_int_equal(x.n_results, 3);
	assert_int_equal(profile_exact_aggregate(&x, &x.results[0], &e, NULL, &p), 0);
	assert_true(p.exact);
	assert_string_equal(p.source, "ledger");
	assert_int_equal(p.stretches, 1);
	assert_int_equal(p.total, 14);
	assert_int_equal(p.n_functions, 3);
	/* Most exclusive cycles first: fmul 9 (8 block, 1 fetch), fut 4, main 1 (bl fut's 1 block: its
	 * 2 refill cycles and the END BKPT's 1 were the calibration's). */
	assert_string_equal(p.functions[0].name, "__aeabi_fmul");
	assert_int_equal(p.functions[0].self, 9);
	assert_int_equal(p.functions[0].incl, 9);
	assert_int_equal(p.functions[0].calls, 1);
	assert_int_equal(p.functions[0].execs, 4);
	assert_int_equal(p.functions[0].by_reason[0], 8);
	assert_int_equal(p.functions[0].by_reason[1], 1);
	assert_string_equal(p.functions[1].name, "fut");
	assert_int_equal(p.functions[1].self, 4);
	assert_int_equal(p.functions[1].incl, 13);
	assert_string_equal(p.functions[2].name, "main");
	assert_int_equal(p.functions[2].self, 1);
	assert_int_equal(p.functions[2].incl, 14);
	assert_int_equal(p.functions[2].by_reason[1], 0);
	/* The END BKPT left with no cycle is gone: 4 instructions. */
	assert_int_equal(p.n_insns, 4);
	assert_int_equal(p.insns[0].addr, 0x08000122u);
	assert_int_equal(p.insns[0].cycles, 1);
	assert_int_equal(p.n_stacks, 3);
	assert_string_equal(p.stacks[0].frames, "Reset_Handler;main;fut;__aeabi_fmul");
	assert_int_equal(p.stacks[0].cycles, 9);
	assert_string_equal(p.stacks[2].frames, "Reset_Handler;main");
	/* Calls within the stretch: main -> fut (13 inclusive), fut -> fmul (9). Reset_Handler -> main
	 * was entered before the stretch: 0 calls, the stretch's 14. */
	assert_int_equal(p.n_calls, 3);
	for (size_t i = 0; i < p.n_calls; i++)
		if (!strcmp(p.calls[i].callee, "fut")) {
			assert_string_equal(p.calls[i].caller, "main");
			assert_int_equal(p.calls[i].calls, 1);
			assert_int_equal(p.calls[i].incl, 13);
		}
	results_profile_free(&p);
	assert_false(p.summed);
	results_profile_free(&p);
	/* Input 3: two stretches of 25 alike: the profile of one. */
	assert_int_equal(profile_exact_aggregate(&x, &x.results[1], &e, NULL, &p), 0);
	assert_int_equal(p.stretches, 2);
	assert_false(p.summed);
	assert_int_equal(p.total, 25);
	assert_int_equal(p.functions[0].self, 20);
	assert_int_equal(p.functions[0].calls, 1);
	results_profile_free(&p);
	/* Input 5: 14 and 25 are not alike: the sum, 39. */
	assert_int_equal(profile_exact_aggregate(&x, &x.results[2], &e, NULL, &p), 0);
	assert_true(p.summed);
	assert_int_equal(p.total, 39);
	assert_int_equal(p.functions[0].self, 29);
	assert_int_equal(p.functions[0].calls, 2);
	results_profile_free(&p);
	profile_exact_free(&x);
}

static uint64_t folded_total(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	uint64_t sum = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');
		assert_non_null(sp);
		sum += strtoull(sp + 1, NULL, 10);
	}
	fclose(f);
	return sum;
}

/* callgrind_annotate's counts at the start of a line, "1,234 (100.0%)  7 (50.00%) ...": up to n. */
static size_t totals_of(const char *line, uint64_t *v, size_t n)
{
	size_t got = 0;

	while (got < n) {
		uint64_t x = 0;
		bool digit = false;
		while (*line == ' ')
			line++;
		for (; (*line >= '0' && *line <= '9') || *line == ','; line++)
			if (*line != ',') {
				x = 10 * x + (uint64_t)(*line - '0');
				digit = true;
			}
		if (!digit)
			break;
		v[got++] = x;
		while (*line == ' ')
			line++;
		if (*line == '(') /* the share */
			while (*line && *line++ != ')')
				;
	}
	return got;
}

/* The callgrind file read back by callgrind_annotate: its totals, Cycles first, are the result's. */
static void test_writers(void **state)
{
	struct profile_exact x;
	struct elf_file e = fake_elf();
	struct bench_report rep;
	struct bench_error err;
	char path[4096], cmd[8192], line[1024];
	FILE *f;
	bool totals = false, fut = false;

	(void)state;
	build(&x);
	results_init(&rep);
	assert_int_equal(profile_exact_to_report(&x, NULL, &e, &rep, &err), 0);
	assert_int_equal(rep.n_profiles, 3);
	(void)snprintf(path, sizeof(path), "%s/exact", out_dir);
	f = fopen("/dev/null", "w");
	assert_int_equal(profile_write_all(&rep, path, f, &err), 0);
	fclose(f);
	(void)snprintf(path, sizeof(path), "%s/exact.fut.input=0.folded", out_dir);
	assert_int_equal(folded_total(path), 14);
	(void)snprintf(path, sizeof(path), "%s/exact.fut.input=3.folded", out_dir);
	assert_int_equal(folded_total(path), 25);
	(void)snprintf(path, sizeof(path), "%s/exact.fut.input=5.folded", out_dir);
	assert_int_equal(folded_total(path), 39);
	if (!annotate[0])
		BENCH_SKIP("callgrind_annotate not found: install valgrind");
	(void)snprintf(cmd, sizeof(cmd), "%s --inclusive=yes %s/exact.fut.input=0.callgrind", annotate, out_dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "PROGRAM TOTALS")) {
			/* Cycles Ir block entry_fetch: 14 cycles, 7 instructions, 13 block, 1 fetch. */
			uint64_t v[4];
			assert_int_equal(totals_of(line, v, 4), 4);
			assert_int_equal(v[0], 14);
			assert_int_equal(v[1], 7);
			assert_int_equal(v[2], 13);
			assert_int_equal(v[3], 1);
			totals = true;
		}
		if (strstr(line, ":fut ") || (strstr(line, ":fut") && !strstr(line, "fmul") && strstr(line, "???"))) {
			uint64_t v[1];
			assert_int_equal(totals_of(line, v, 1), 1);
			assert_int_equal(v[0], 13); /* inclusive: its 4 and fmul's 9 */
			fut = true;
		}
	}
	assert_int_equal(pclose(f), 0);
	assert_true(totals);
	assert_true(fut);
	results_free(&rep);
	profile_exact_free(&x);
}

/* Input 3 against input 0, per stretch: fmul took the 11 extra cycles. */
static void test_diff(void **state)
{
	struct profile_exact x;
	struct elf_file e = fake_elf();
	struct bench_profile a, b;
	struct profile_diff d;

	(void)state;
	build(&x);
	assert_int_equal(profile_exact_aggregate(&x, &x.results[0], &e, NULL, &a), 0);
	assert_int_equal(profile_exact_aggregate(&x, &x.results[1], &e, NULL, &b), 0);
	assert_int_equal(profile_diff(&a, &b, &d), 0);
	assert_true(d.reasons);
	assert_string_equal(d.rows[0].name, "__aeabi_fmul");
	assert_true(d.rows[0].a == 9.0 && d.rows[0].b == 20.0);
	assert_true(d.rows[0].by_reason[0] == 11.0);
	assert_true(d.rows[1].b - d.rows[1].a == 0.0);
	profile_diff_free(&d);
	results_profile_free(&a);
	results_profile_free(&b);
	profile_exact_free(&x);
}

/* A report of the two inputs written as JSON and read back (bench compare's path): the profiles
 * come back with their functions and reasons, and compare_print_profiles sets input 3's against
 * itself (no change) and a report with fmul 11 cycles faster against it. */
static void test_json_compare(void **state)
{
	struct profile_exact x;
	struct elf_file e = fake_elf();
	struct bench_report rep, back, slow;
	struct bench_error err;
	struct compare_opts o;
	struct compare_result r;
	const struct bench_arg in0 = {"input", 0}, in3 = {"input", 3};
	cJSON *root;
	char *text, *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	build(&x);
	results_init(&rep);
	results_init(&back);
	results_init(&slow);
	rep.schema_version = BENCH_SCHEMA_VERSION;
	assert_int_equal(results_add_sample(results_get(&rep, "fut", &in0, 1), 14, 0), 0);
	assert_int_equal(results_add_sample(results_get(&rep, "fut", &in3, 1), 25, 0), 0);
	assert_int_equal(results_add_sample(results_get(&rep, "fut", &in3, 1), 25, 0), 0);
	results_finish(&rep);
	assert_int_equal(profile_exact_to_report(&x, NULL, &e, &rep, &err), 0);
	root = json_report_build(&rep);
	assert_non_null(root);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	assert_non_null(text);
	assert_int_equal(json_read_text(text, strlen(text), "t.json", &back, &err), 0);
	assert_int_equal(json_read_text(text, strlen(text), "t.json", &slow, &err), 0);
	cJSON_free(text);
	assert_int_equal(back.n_profiles, 3);
	assert_true(back.profiles[1].exact);
	assert_int_equal(back.profiles[1].total, 25);
	assert_int_equal(back.profiles[1].stretches, 2);
	assert_false(back.profiles[1].summed);
	assert_true(back.profiles[2].summed);
	assert_int_equal(back.profiles[1].n_reasons, 2);
	assert_string_equal(back.profiles[1].functions[0].name, "__aeabi_fmul");
	assert_int_equal(back.profiles[1].functions[0].by_reason[0], 19);
	/* NEW: input 0's fmul 11 cycles slower (9 -> 20 under block). */
	slow.profiles[0].functions[0].self = 20;
	slow.profiles[0].functions[0].cycles = 20;
	slow.profiles[0].functions[0].by_reason[0] = 19;
	slow.profiles[0].total = 25;
	compare_opts_init(&o);
	assert_int_equal(compare_reports(&back, &slow, &o, &r, &err), 0);
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	assert_int_equal(compare_print_profiles(mem, &back, &slow, &r), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "profile fut[input=0]: NEW (B) against BASE (A): +11 cycles (14 -> 25)"));
	assert_non_null(strstr(buf, "__aeabi_fmul"));
	assert_non_null(strstr(buf, "+11"));
	assert_non_null(strstr(buf, "block +11"));
	assert_non_null(strstr(buf, "profile fut[input=3]: NEW (B) against BASE (A): +0 cycles (25 -> 25)"));
	free(buf);
	compare_free(&r);
	results_free(&rep);
	results_free(&back);
	results_free(&slow);
	profile_exact_free(&x);
}

/* A report whose exact profile is malformed is refused with the field named (exit 2, BENCH_E_REPORT):
 * a null cycles, an args array, a by_reason of the wrong length. */
static void test_json_bad(void **state)
{
	struct profile_exact x;
	struct elf_file e = fake_elf();
	struct bench_report rep;
	struct bench_error err;
	static const char *const bad[][2] = {
	    {"cycles", "profile[0].cycles"}, {"args", "profile[0].args"}, {"by_reason", "profile[0].functions"}};

	(void)state;
	build(&x);
	results_init(&rep);
	rep.schema_version = BENCH_SCHEMA_VERSION;
	assert_int_equal(profile_exact_to_report(&x, NULL, &e, &rep, &err), 0);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		cJSON *root = json_report_build(&rep), *p0;
		struct bench_report back;
		char *text;

		assert_non_null(root);
		p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "profile"), 0);
		if (k == 0)
			cJSON_ReplaceItemInObject(p0, "cycles", cJSON_CreateNull());
		else if (k == 1)
			cJSON_ReplaceItemInObject(p0, "args", cJSON_CreateIntArray((const int[]){1, 2}, 2));
		else
			cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(p0, "functions"), 0),
			                          "by_reason", cJSON_CreateIntArray((const int[]){1}, 1));
		text = cJSON_Print(root);
		cJSON_Delete(root);
		results_init(&back);
		bench_error_clear(&err);
		assert_int_equal(json_read_text(text, strlen(text), "t.json", &back, &err), -BENCH_E_REPORT);
		assert_non_null(strstr(err.msg, bad[k][1]));
		cJSON_free(text);
		results_free(&back);
	}
	results_free(&rep);
	profile_exact_free(&x);
}

/* Nested pairs: the inner pair's halts fall inside the outer stretch, whose profile has every
 * record up to its END (the inner markers' BKPTs too, as the counter counts them); each END takes
 * the calibration off its own stretch. */
static void test_nested(void **state)
{
	const char *reasons[] = {"block", "entry_fetch"};
	const struct marker ob = {0x08000130u, MARKER_BEGIN, 2, "outer"}, oe = {0x0800013au, MARKER_END, 2, "outer"};
	const struct marker ib = {0x08000132u, MARKER_BEGIN, 3, "inner"}, ie = {0x08000136u, MARKER_END, 3, "inner"};
	struct profile_exact x;
	struct elf_file e = fake_elf();
	struct bench_profile p;

	(void)state;
	profile_exact_init(&x);
	assert_int_equal(profile_exact_reasons(&x, reasons, 2), 0);
	assert_int_equal(profile_exact_node(&x, 0, -1, 0x08000000u, 0), 0);
	assert_int_equal(profile_exact_node(&x, 1, 0, 0x08000100u, 0), 0);
	assert_int_equal(profile_exact_halt(&x, &cal_begin, false, NULL, 0), 0);
	cell(&x, 1, 0x08000112u, 1, 1, 0); /* calibration: 1 cycle */
	assert_int_equal(profile_exact_halt(&x, &cal_end, false, NULL, 0), 0);
	assert_int_equal(profile_exact_halt(&x, &ob, false, NULL, 0), 0);
	cell(&x, 1, 0x08000132u, 1, 1, 0); /* the inner BEGIN's BKPT, run by the outer stretch */
	assert_int_equal(profile_exact_halt(&x, &ib, false, NULL, 0), 0);
	cell(&x, 1, 0x08000134u, 1, 5, 0);
	cell(&x, 1, 0x08000136u, 1, 1, 0); /* the inner END's BKPT */
	assert_int_equal(profile_exact_halt(&x, &ie, false, NULL, 0), 0);
	cell(&x, 1, 0x08000138u, 1, 2, 0);
	cell(&x, 1, 0x0800013au, 1, 1, 0); /* the outer END's BKPT */
	assert_int_equal(profile_exact_halt(&x, &oe, false, NULL, 0), 0);
	assert_int_equal(x.n_results, 2);
	/* inner: 5 + 1 - 1 = 5, all at 0x08000134; outer: 1 + 5 + 1 + 2 + 1 - 1 = 9 */
	assert_string_equal(x.results[0].name, "inner");
	assert_int_equal(profile_exact_aggregate(&x, &x.results[0], &e, NULL, &p), 0);
	assert_int_equal(p.total, 5);
	assert_int_equal(p.n_insns, 1);
	assert_int_equal(p.insns[0].addr, 0x08000134u);
	results_profile_free(&p);
	assert_int_equal(profile_exact_aggregate(&x, &x.results[1], &e, NULL, &p), 0);
	assert_int_equal(p.total, 9);
	assert_int_equal(p.n_insns, 4); /* the outer END's BKPT gave its cycle to the calibration */
	results_profile_free(&p);
	profile_exact_free(&x);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_exact),        cmocka_unit_test(test_writers), cmocka_unit_test(test_diff),
	    cmocka_unit_test(test_json_compare), cmocka_unit_test(test_nested),  cmocka_unit_test(test_json_bad),
	};

	out_dir = argc > 1 ? argv[1] : ".";
	annotate = argc > 2 ? argv[2] : "";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
