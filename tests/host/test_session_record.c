/* The session's switch for the virtual board's halt records (session_opts.want_record,
 * session_open_record(); docs/sim-record.md): bench starts bench-sim with --record in the work
 * folder and the run loop reads each halt's record once the backend has seen the halt. Driven here
 * as the run loop would, with stock OpenOCD and bench-sim on tests/firmware/core/record.S (main
 * calls f twice, f calls g): the record of the halt at BKPT #2 has f and g entered twice each.
 * Attaching (--openocd) with want_record is refused before anything starts.
 * Usage: test_session_record BOARDS_DIR BENCH_SIM RECORD_ELF */
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
#include "firmware/board.h"
#include "session/session.h"
#include "session/sim_record.h"
#include "transport/backend.h"

static const char *boards_dir, *sim_bin, *elf;

/* The next record, waiting for it as the run loop does after a halt: it is in the file already. */
static void next_record(struct sim_record_reader *r, struct sim_record *rec)
{
	struct bench_error err = {0};
	int rc = sim_record_next(r, rec, &err);
	if (rc != 1)
		fail_msg("no complete record after the halt: %d %s", rc, err.msg);
}

static void records_through_session(void **state)
{
	(void)state;
	struct board b;
	struct bench_error err = {0};
	if (board_load(boards_dir, "sim-stm32f4", &b, &err) != 0)
		fail_msg("%s", err.msg);
	char wd[] = "/tmp/sessrecXXXXXX";
	assert_non_null(mkdtemp(wd));
	struct session_opts o = {.board = &b,
	                         .sim_bin = sim_bin,
	                         .elf_abs = elf,
	                         .allow_preload = true,
	                         .want_record = true,
	                         .work_dir = wd,
	                         .arch = "cortex-m"};
	struct session s;
	if (session_open(&s, &o, &err) != 0) {
		session_close(&s);
		fail_msg("session_open: %s", err.msg);
	}
	struct sim_record_reader *r = NULL;
	assert_int_equal(session_open_record(&s, &r, &err), 0);
	char want[4200];
	(void)snprintf(want, sizeof(want), "%s/" SIM_RECORD_FILE, wd);
	assert_string_equal(sim_record_path(r), want);
	struct sim_record rec;
	struct backend_halt_info hi;
	/* Reset and halt at the reset vector, then BKPT #1 and BKPT #2. */
	assert_int_equal(backend_reset(&s.bk, BK_RESET_HALT, &err), 0);
	uint64_t seen = 0;
	for (;;) { /* the halts OpenOCD made while attaching and resetting */
		int rc = sim_record_next(r, &rec, &err);
		assert_true(rc >= 0);
		if (rc == 0)
			break;
		seen = rec.seq;
	}
	assert_true(seen >= 1);
	for (int bkpt = 1; bkpt <= 2; bkpt++) {
		assert_int_equal(backend_resume(&s.bk, &err), 0);
		assert_int_equal(backend_wait_halt(&s.bk, 5000, &hi, &err), 0);
		next_record(r, &rec);
		assert_int_equal(rec.seq, seen + (uint64_t)bkpt);
	}
	/* BKPT #2's record: f (a call under the root) and g (a call under f), twice each. Before the
	 * reset the firmware ran with no debugger: its BKPT took HardFault, a node of its own. */
	int64_t f = -1, g = -1;
	for (uint32_t i = 0; i < sim_record_n_nodes(r); i++) {
		const struct sim_record_node *n = sim_record_node(r, i);
		if (n->kind == SIM_RECORD_KIND_CALL && n->parent == 0)
			f = i;
		else if (n->kind == SIM_RECORD_KIND_CALL && n->parent == f && f >= 0)
			g = i;
	}
	assert_true(f > 0 && g > f);
	assert_int_equal(rec.n_enters, 2);
	assert_int_equal(rec.enters[0].node, f);
	assert_int_equal(rec.enters[0].count, 2);
	assert_int_equal(rec.enters[1].node, g);
	assert_int_equal(rec.enters[1].count, 2);
	assert_int_equal(rec.msp_min, 0x2001FFD8u);
	uint64_t execs = 0;
	for (size_t i = 0; i < rec.n_pcs; i++)
		execs += rec.pcs[i].execs;
	assert_int_equal(execs, 30);
	sim_record_close(r);
	session_close(&s);
	session_finish_work_dir(&s, 0, &err);
	char rm[64];
	(void)snprintf(rm, sizeof(rm), "rm -rf '%s'", wd);
	assert_int_equal(system(rm), 0);
}

static void attach_refused(void **state)
{
	(void)state;
	struct session_opts o = {.openocd = "127.0.0.1:1", .want_record = true};
	struct session s;
	struct bench_error err = {0};
	assert_int_equal(session_open(&s, &o, &err), -BENCH_E_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "halt records"));
	session_close(&s);
	struct sim_record_reader *r = NULL;
	assert_int_equal(session_open_record(&s, &r, &err), -BENCH_E_UNSUPPORTED);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_session_record BOARDS_DIR BENCH_SIM RECORD_ELF\n");
		return 2;
	}
	boards_dir = argv[1];
	sim_bin = argv[2];
	elf = argv[3];
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(attach_refused),
	    cmocka_unit_test(records_through_session),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
