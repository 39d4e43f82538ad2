/* Reading bench-sim's halt records (session/sim_record.c, docs/sim-record.md) as the file grows:
 * complete records with their node table and cycles, a partial record answered "not yet" and
 * finished by the next append, a bad line refused with file:line. The text is what bench-sim
 * --record writes (tests/sim/record_e2e.py checks the writer against a real peer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/error.h"
#include "session/sim_record.h"

static const char header[] = "bench-sim-record 1\n"
                             "reasons block block-taken exception\n";

/* main (node 0) calls f (node 1) twice, f calls g (node 2) once; 130 cycles in all. */
static const char record1[] = "fn 0 -1 80001c4 root\n"
                              "fn 1 0 8000200 call\n"
                              "fn 2 1 8000220 call\n"
                              "halt 1 cyccnt 130 total 130 msp_min 2001ffd8 psp_min 0 exc 0\n"
                              "enter 1 2\n"
                              "enter 2 1\n"
                              "pc 0 80001c4 1 40 10 0\n"
                              "pc 1 8000200 2 20 12 0\n"
                              "pc 1 8000202 2 4 0 0\n"
                              "pc 2 8000220 1 30 14 0\n"
                              "end 1\n";

/* SysTick (exception 15) taken once under f; 50 cycles. */
static const char record2[] = "fn 3 1 8000300 exc:15\n"
                              "halt 2 cyccnt 180 total 180 msp_min 2001ffb0 psp_min 0 exc 1\n"
                              "enter 3 1\n"
                              "pc 1 8000202 1 2 0 12\n"
                              "pc 3 8000300 1 20 4 12\n"
                              "end 2\n";

static char dir[64];
static char path[128];

static void append(const char *text)
{
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	(void)state;
	(void)snprintf(dir, sizeof(dir), "/tmp/simrecXXXXXX");
	if (!mkdtemp(dir))
		return -1;
	(void)snprintf(path, sizeof(path), "%s/sim-record", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	(void)unlink(path);
	(void)rmdir(dir);
	return 0;
}

static void complete_records(void **state)
{
	(void)state;
	struct sim_record_reader *r = NULL;
	struct bench_error err = {0};
	struct sim_record rec;
	assert_int_equal(sim_record_open(&r, path, &err), 0);
	assert_int_equal(sim_record_next(r, &rec, &err), 0); /* no file yet: not yet */
	append(header);
	append(record1);
	append(record2);
	assert_int_equal(sim_record_next(r, &rec, &err), 1);
	assert_int_equal(sim_record_n_reasons(r), 3);
	assert_string_equal(sim_record_reason(r, 1), "block-taken");
	assert_int_equal(sim_record_reason_index(r, "exception"), 2);
	assert_int_equal(sim_record_reason_index(r, "sleep"), -1);
	assert_int_equal(rec.seq, 1);
	assert_int_equal(rec.cyccnt, 130);
	assert_int_equal(rec.total, 130);
	assert_int_equal(rec.cycles, 130);
	assert_int_equal(rec.msp_min, 0x2001ffd8u);
	assert_int_equal(rec.exceptions, 0);
	assert_int_equal(rec.n_pcs, 4);
	assert_int_equal(rec.pcs[2].node, 1);
	assert_int_equal(rec.pcs[2].addr, 0x8000202u);
	assert_int_equal(rec.pcs[2].execs, 2);
	assert_int_equal(rec.pcs[3].cycles[1], 14);
	assert_int_equal(rec.n_enters, 2);
	assert_int_equal(rec.enters[0].node, 1);
	assert_int_equal(rec.enters[0].count, 2);
	assert_int_equal(sim_record_n_nodes(r), 3);
	assert_int_equal(sim_record_node(r, 2)->parent, 1);
	assert_int_equal(sim_record_node(r, 2)->entry, 0x8000220u);
	assert_int_equal(sim_record_node(r, 0)->kind, SIM_RECORD_KIND_ROOT);

	assert_int_equal(sim_record_next(r, &rec, &err), 1);
	assert_int_equal(rec.seq, 2);
	assert_int_equal(rec.cycles, 50); /* 180 - 130 */
	assert_int_equal(rec.exceptions, 1);
	assert_int_equal(rec.n_pcs, 2);
	assert_int_equal(rec.pcs[1].cycles[2], 12);
	const struct sim_record_node *h = sim_record_node(r, 3);
	assert_non_null(h);
	assert_int_equal(h->kind, SIM_RECORD_KIND_EXC);
	assert_int_equal(h->exc, 15);
	assert_int_equal(h->parent, 1);
	assert_null(sim_record_node(r, 4));
	assert_int_equal(sim_record_next(r, &rec, &err), 0); /* nothing more */
	sim_record_close(r);
}

/* The file ends inside a record, even inside a line: "not yet", then the rest completes it. */
static void partial_record(void **state)
{
	(void)state;
	struct sim_record_reader *r = NULL;
	struct bench_error err = {0};
	struct sim_record rec;
	assert_int_equal(sim_record_open(&r, path, &err), 0);
	append(header);
	size_t cut = strlen(record1) - 9; /* inside the last pc line */
	char first[sizeof(record1)];
	memcpy(first, record1, cut);
	first[cut] = '\0';
	append(first);
	assert_int_equal(sim_record_next(r, &rec, &err), 0);
	assert_int_equal(sim_record_next(r, &rec, &err), 0);
	append(record1 + cut);
	assert_int_equal(sim_record_next(r, &rec, &err), 1);
	assert_int_equal(rec.seq, 1);
	assert_int_equal(rec.n_pcs, 4);
	assert_int_equal(rec.pcs[3].execs, 1);
	assert_int_equal(rec.pcs[3].cycles[0], 30);
	sim_record_close(r);
}

static void expect_error(const char *text, const char *where, const char *what)
{
	struct sim_record_reader *r = NULL;
	struct bench_error err = {0};
	struct sim_record rec;
	(void)unlink(path);
	append(text);
	assert_int_equal(sim_record_open(&r, path, &err), 0);
	int rc = sim_record_next(r, &rec, &err);
	if (rc == 1) /* an error in a later record: the first is fine */
		rc = sim_record_next(r, &rec, &err);
	assert_int_equal(rc, -BENCH_E_PROTOCOL);
	assert_int_equal(err.kind, BENCH_E_PROTOCOL);
	char at[160];
	(void)snprintf(at, sizeof(at), "%s:%s: ", path, where);
	if (strstr(err.msg, at) != err.msg || !strstr(err.msg, what) || strchr(err.msg, '\n'))
		fail_msg("got \"%s\", want it to start with \"%s\" and say \"%s\" on one line", err.msg, at, what);
	/* The reader repeats it. */
	struct bench_error again = {0};
	assert_int_equal(sim_record_next(r, &rec, &again), -BENCH_E_PROTOCOL);
	assert_string_equal(again.msg, err.msg);
	sim_record_close(r);
}

static void bad_lines(void **state)
{
	(void)state;
	char text[2048];
	expect_error("bench-sim-recrd 1\n", "1", "not a bench-sim record");
	expect_error("bench-sim-record 2\n", "1", "version 2");
	(void)snprintf(text, sizeof(text), "%s%s", header, "fn 0 -1 80001c4 root\nhalt 1 cyccnt 5 total 5\n");
	expect_error(text, "4", "a halt line is");
	/* A pc line one reason short. */
	(void)snprintf(text, sizeof(text),
	               "%sfn 0 -1 80001c4 root\nhalt 1 cyccnt 5 total 5 msp_min 0 psp_min 0 exc 0\n"
	               "pc 0 80001c4 1 5 0\nend 1\n",
	               header);
	expect_error(text, "5", "a pc line is");
	/* A node that is not there. */
	(void)snprintf(text, sizeof(text),
	               "%sfn 0 -1 80001c4 root\nhalt 1 cyccnt 5 total 5 msp_min 0 psp_min 0 exc 0\n"
	               "pc 7 80001c4 1 5 0 0\nend 1\n",
	               header);
	expect_error(text, "5", "a pc line is");
	/* Cycles that do not add up to the count's difference (line 10: the second record's end). */
	(void)snprintf(text, sizeof(text),
	               "%s%shalt 2 cyccnt 140 total 140 msp_min 0 psp_min 0 exc 0\n"
	               "pc 0 80001c4 1 5 0 0\nend 2\n",
	               header, record1);
	expect_error(text, "16", "add up to 5, the core counted 10");
	/* A record skipped. */
	(void)snprintf(text, sizeof(text), "%s%shalt 3 cyccnt 140 total 140 msp_min 0 psp_min 0 exc 0\n", header,
	               record1);
	expect_error(text, "14", "out of sequence");
	/* Something else between records. */
	(void)snprintf(text, sizeof(text), "%s%spc 0 80001c4 1 5 0 0\n", header, record1);
	expect_error(text, "14", "expected `fn` or `halt`");
	/* A node whose parent comes after it. */
	(void)snprintf(text, sizeof(text), "%sfn 0 -1 80001c4 root\nfn 1 2 8000200 call\n", header);
	expect_error(text, "4", "parent");
	(void)snprintf(text, sizeof(text), "%sfn 0 -1 80001c4 root\nfn 1 0 8000200 exc:x\n", header);
	expect_error(text, "4", "exception number");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(complete_records, setup, teardown),
	    cmocka_unit_test_setup_teardown(partial_record, setup, teardown),
	    cmocka_unit_test_setup_teardown(bad_lines, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
