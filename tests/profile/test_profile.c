/* host/profile: aggregation and writers on recorded samples (profile.c, profile_write.c). The
 * symbols are a hand-made table (what elf_open would give for two functions); the callgrind file is
 * read back by valgrind's callgrind_annotate (argv[2]), whose PROGRAM TOTALS must be the samples and
 * the cycles. Shares and errors worked by hand: heavy 9 of 12 = 0.75, error sqrt(0.75*0.25/12). */
#include <math.h>
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
#include "profile/profile_sample.h"

static const char *out_dir, *annotate;

static struct elf_symbol syms[] = {
    {"heavy", 0x08000100u, 0x40u, true},
    {"light", 0x08000200u, 0x20u, true},
    {"table", 0x08000300u, 0x10u, false},
};

static struct elf_file fake_elf(void)
{
	struct elf_file e;
	memset(&e, 0, sizeof(e));
	e.symbols = syms;
	e.n_symbols = 3;
	return e;
}

/* heavy: 6 at +0, 3 at +2; light: 3; two reads while halted. */
static void record(struct profile *p)
{
	struct profile_stretch *s = profile_stretch(p, "fut");
	const uint32_t pcs[] = {0x08000100u, 0x08000102u, 0xFFFFFFFFu, 0x08000100u, 0x08000200u,
	                        0x08000100u, 0x08000103u, 0x08000100u, 0x08000204u, 0x08000100u,
	                        0x08000102u, 0x08000100u, 0x08000204u, 0xFFFFFFFFu};

	assert_non_null(s);
	for (size_t i = 0; i < sizeof(pcs) / sizeof(pcs[0]); i++)
		assert_int_equal(profile_add(s, pcs[i]), 0);
}

static void test_aggregate(void **state)
{
	struct profile p;
	struct elf_file e = fake_elf();
	struct bench_profile out;

	(void)state;
	profile_init(&p);
	record(&p);
	assert_int_equal(p.stretches[0].n, 12);
	assert_int_equal(p.stretches[0].discarded, 2);
	assert_int_equal(profile_aggregate(&p.stretches[0], &e, NULL, 1000.0, &out), 0);
	assert_int_equal(out.samples, 12);
	assert_int_equal(out.discarded, 2);
	assert_int_equal(out.n_functions, 2);
	assert_string_equal(out.functions[0].name, "heavy");
	assert_int_equal(out.functions[0].samples, 9);
	assert_float_equal(out.functions[0].share, 0.75, 1e-12);
	assert_float_equal(out.functions[0].error, sqrt(0.75 * 0.25 / 12.0), 1e-12);
	assert_float_equal(out.functions[0].cycles, 750.0, 1e-9);
	assert_string_equal(out.functions[1].name, "light");
	assert_int_equal(out.functions[1].samples, 3);
	assert_float_equal(out.functions[1].cycles, 250.0, 1e-9);
	/* No DWARF: one line record per function, file "" line 0, cycles adding up to 1000. */
	assert_int_equal(out.n_lines, 2);
	assert_string_equal(out.lines[0].function, "heavy");
	assert_int_equal(out.lines[0].samples, 9);
	assert_int_equal(out.lines[0].cycles, 750);
	assert_int_equal(out.lines[1].cycles, 250);
	results_profile_free(&out);
	profile_free(&p);
}

/* Three PCs of one sample each over 100 cycles: 33.3 each, apportioned 34 + 33 + 33 (the lowest
 * address first among equal remainders), and a PC no symbol covers is "[unknown]". */
static void test_apportion_unknown(void **state)
{
	struct profile p;
	struct elf_file e = fake_elf();
	struct bench_profile out;
	struct profile_stretch *s;
	uint64_t sum = 0;

	(void)state;
	profile_init(&p);
	s = profile_stretch(&p, "x");
	assert_int_equal(profile_add(s, 0x08000100u), 0);
	assert_int_equal(profile_add(s, 0x08000200u), 0);
	assert_int_equal(profile_add(s, 0x08000300u), 0); /* an object, not a function */
	assert_int_equal(profile_aggregate(s, &e, NULL, 100.0, &out), 0);
	assert_int_equal(out.n_functions, 3);
	assert_string_equal(out.functions[0].name, "[unknown]");
	assert_float_equal(out.functions[0].error, sqrt((1.0 / 3) * (2.0 / 3) / 3.0), 1e-12);
	for (size_t i = 0; i < out.n_lines; i++)
		sum += out.lines[i].cycles;
	assert_int_equal(sum, 100);
	/* [unknown] sorts first by name ('[' < 'h'); the lowest address (heavy) gets the extra cycle. */
	assert_int_equal(out.lines[0].cycles, 33);
	assert_int_equal(out.lines[1].cycles, 34);
	results_profile_free(&out);
	profile_free(&p);
}

static char *slurp(FILE *f)
{
	static char buf[8192];
	size_t n;

	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	return buf;
}

static void make(struct bench_profile *out)
{
	struct profile p;
	struct elf_file e = fake_elf();

	profile_init(&p);
	record(&p);
	assert_int_equal(profile_aggregate(&p.stretches[0], &e, NULL, 1000.0, out), 0);
	profile_free(&p);
}

static void test_folded_and_top(void **state)
{
	struct bench_profile out;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	make(&out);
	assert_int_equal(profile_write_folded(f, &out), 0);
	assert_string_equal(slurp(f), "fut;heavy 9\nfut;light 3\n");
	fclose(f);
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(profile_print_top(f, &out, 1), 0);
	assert_non_null(strstr(slurp(f),
	                       "  heavy                                    9   75.00 % +- 12.50 %        750.0\n"
	                       "  (1 more functions)\n"));
	fclose(f);
	results_profile_free(&out);
}

static void test_callgrind(void **state)
{
	struct bench_profile out;
	char path[1024], cmd[2200], line[512];
	FILE *f;
	bool found = false;

	(void)state;
	make(&out);
	snprintf(path, sizeof(path), "%s/unit.callgrind", out_dir);
	f = fopen(path, "w+");
	assert_non_null(f);
	assert_int_equal(profile_write_callgrind(f, &out, "fut.elf"), 0);
	assert_string_equal(slurp(f), "# callgrind format\nversion: 1\ncreator: bench --profile (DWT_PCSR samples)\n"
	                              "cmd: fut.elf fut\npart: 1\npositions: line\nevents: Samples Cycles\n"
	                              "summary: 12 1000\n\nfl=???\nfn=heavy\n0 9 750\nfl=???\nfn=light\n0 3 250\n");
	fclose(f);
	results_profile_free(&out);
	if (!annotate || !*annotate)
		BENCH_SKIP("callgrind_annotate not found: install valgrind");
	/* callgrind_annotate prints the totals of every event: "12 (100.0%)  1,000 (100.0%)  PROGRAM TOTALS". */
	snprintf(cmd, sizeof(cmd), "'%s' '%s' 2>&1", annotate, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "PROGRAM TOTALS")) {
			assert_non_null(strstr(line, "12 "));
			assert_non_null(strstr(line, "1,000 "));
			found = true;
		}
	assert_int_equal(pclose(f), 0);
	assert_true(found);
}

/* A pair with no measured sample (a run interrupted in its first stretch): shares, no cycles; the
 * callgrind file has the Samples event only, the console a "-". */
static void test_unknown_cycles(void **state)
{
	struct profile p;
	struct elf_file e = fake_elf();
	struct bench_profile out;
	FILE *f;

	(void)state;
	profile_init(&p);
	record(&p);
	assert_int_equal(profile_aggregate(&p.stretches[0], &e, NULL, -1.0, &out), 0);
	profile_free(&p);
	assert_false(out.cycles_known);
	assert_float_equal(out.functions[0].share, 0.75, 1e-12);
	assert_true(out.functions[0].cycles == 0.0);
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(profile_write_callgrind(f, &out, "fut.elf"), 0);
	assert_string_equal(slurp(f), "# callgrind format\nversion: 1\ncreator: bench --profile (DWT_PCSR samples)\n"
	                              "cmd: fut.elf fut\npart: 1\npositions: line\nevents: Samples\nsummary: 12\n\n"
	                              "fl=???\nfn=heavy\n0 9\nfl=???\nfn=light\n0 3\n");
	fclose(f);
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(profile_print_top(f, &out, 10), 0);
	assert_non_null(strstr(slurp(f), "no cycles: the pair has no measured sample"));
	assert_non_null(strstr(slurp(f), "75.00 % +- 12.50 %            -\n"));
	fclose(f);
	results_profile_free(&out);
}

static void test_refusal(void **state)
{
	struct board b;
	struct bench_error err;

	(void)state;
	memset(&b, 0, sizeof(b));
	strcpy(b.name, "qemu-mps2-an386");
	strcpy(b.backend, "qemu");
	strcpy(b.counter, "none");
	assert_int_equal(profile_check_board(&b, &err), -BENCH_E_USAGE);
	assert_non_null(strstr(err.msg, "DWT_PCSR"));
	strcpy(b.name, "sim-stm32f4");
	strcpy(b.backend, "openocd");
	strcpy(b.counter, "DWT_CYCCNT");
	assert_int_equal(profile_check_board(&b, &err), 0);
}

/* A scripted target for the sampler: PCSR reads the next value of a list (0xFFFFFFFF once the list
 * is used up: the END marker's halt); monitor answers a Tcl batch when `tcl`, else an error. */
struct script {
	const uint32_t *pcs;
	size_t n, next;
	bool tcl, resumed;
	size_t monitors, reads;
	int batches[8]; /* the size of each Tcl batch asked for */
};

static uint32_t next_pc(struct script *s)
{
	return s->next < s->n ? s->pcs[s->next++] : PROFILE_PCSR_HALTED;
}

static int fake_resume(struct backend *bk, struct bench_error *err)
{
	(void)err;
	((struct script *)bk->priv)->resumed = true;
	return 0;
}

static int fake_wait(struct backend *bk, unsigned ms, struct backend_halt_info *h, struct bench_error *err)
{
	(void)bk;
	(void)ms;
	(void)err;
	h->reason = BK_HALT_BKPT_INSN;
	h->pc = 0x08000400u;
	return 0;
}

static int fake_read(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	struct script *s = bk->priv;
	uint32_t v = addr == PROFILE_PCSR_ADDR ? next_pc(s) : 1234u; /* 1234: the cycle counter */
	uint8_t *b = buf;

	(void)err;
	assert_int_equal(len, 4);
	s->reads += addr == PROFILE_PCSR_ADDR;
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return 0;
}

static int fake_monitor(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err)
{
	struct script *s = bk->priv;
	size_t used = 0;

	s->monitors++;
	if (!s->tcl)
		return bench_fail(err, BENCH_E_TARGET, "not Tcl");
	assert_non_null(strstr(cmd, "read_memory 0xe000101c 32 1"));
	const char *lt = strstr(cmd, "$_pi < ");
	int want;
	assert_non_null(lt);
	want = atoi(lt + 7);
	s->batches[s->monitors - 1] = want;
	for (int i = 0; i < want; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s0x%x", i ? " " : "", next_pc(s));
	return 0;
}

static const struct backend_ops fake_ops = {
    .name = "fake",
    .resume = fake_resume,
    .wait_halt = fake_wait,
    .read_mem = fake_read,
    .monitor = fake_monitor,
};

/* Six PCs, then the halt: in batches of 4 (two round trips, 8 reads, two of them halted) through
 * Tcl, or one read each (seven reads) when monitor is not Tcl; the counter read after the halt. */
static void sampler_case(bool tcl, unsigned batch, size_t n_pcs, uint64_t want_reads, uint64_t want_trips,
                         struct script *out)
{
	static const uint32_t pcs[] = {0x08000100u, 0x08000102u, 0x08000200u, 0x08000100u, 0x08000104u, 0x08000204u,
	                               0x08000100u, 0x08000102u, 0x08000200u, 0x08000100u, 0x08000104u, 0x08000204u};
	struct script sc = {pcs, n_pcs, 0, tcl, false, 0, 0, {0}};
	struct backend bk = {&fake_ops, BK_CAP_MONITOR, &sc, {NULL, NULL}};
	struct profile p;
	struct profile_sampler s;
	struct backend_halt_info h;
	struct bench_error err;
	uint32_t cnt = 0;

	profile_init(&p);
	profile_sampler_init(&s, &p, batch);
	assert_int_equal(profile_sampled_resume(&s, &bk, "fut", 10000, 0xE0001004u, &h, &cnt, &err), 0);
	assert_true(sc.resumed);
	assert_int_equal(h.pc, 0x08000400u);
	assert_int_equal(cnt, 1234);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.stretches[0].n, n_pcs);
	assert_int_equal(p.stretches[0].discarded, want_reads - n_pcs);
	assert_int_equal(s.reads, want_reads);
	assert_int_equal(s.round_trips, want_trips);
	assert_int_equal(s.tcl, tcl);
	profile_free(&p);
	if (out)
		*out = sc;
}

static void test_sampler_tcl(void **state)
{
	(void)state;
	sampler_case(true, 4, 6, 8, 2, NULL);
}

/* Batches double from 4 up to the limit: 12 PCs with a limit of 8 take 4, 8 and 8 (the last all
 * halted). */
static void test_sampler_doubling(void **state)
{
	struct script sc;

	(void)state;
	sampler_case(true, 8, 12, 20, 3, &sc);
	assert_int_equal(sc.batches[0], 4);
	assert_int_equal(sc.batches[1], 8);
	assert_int_equal(sc.batches[2], 8);
}

static void test_sampler_plain(void **state)
{
	(void)state;
	sampler_case(false, 4, 6, 7, 7, NULL);
}

/* A core without PCSR reads it as 0: refused, not counted as a PC. */
static void test_sampler_no_pcsr(void **state)
{
	static const uint32_t zeros[] = {0, 0, 0, 0};
	struct script sc = {zeros, 4, 0, true, false, 0, 0, {0}};
	struct backend bk = {&fake_ops, BK_CAP_MONITOR, &sc, {NULL, NULL}};
	struct profile p;
	struct profile_sampler s;
	struct backend_halt_info h;
	struct bench_error err;
	uint32_t cnt = 0;

	(void)state;
	profile_init(&p);
	profile_sampler_init(&s, &p, 4);
	assert_int_equal(profile_sampled_resume(&s, &bk, "fut", 10000, 0xE0001004u, &h, &cnt, &err),
	                 -BENCH_E_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "DWT_PCSR reads 0"));
	assert_int_equal(p.stretches[0].n, 0);
	profile_free(&p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_aggregate),       cmocka_unit_test(test_apportion_unknown),
	    cmocka_unit_test(test_folded_and_top),  cmocka_unit_test(test_callgrind),
	    cmocka_unit_test(test_refusal),         cmocka_unit_test(test_sampler_tcl),
	    cmocka_unit_test(test_sampler_plain),   cmocka_unit_test(test_sampler_doubling),
	    cmocka_unit_test(test_sampler_no_pcsr), cmocka_unit_test(test_unknown_cycles),
	};
	out_dir = argc > 1 ? argv[1] : ".";
	annotate = argc > 2 ? argv[2] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
