/* The marker loop (run/loop.c) against the scripted backend (loop_rig.h) when the core restarts or
 * resets under it: a second calibration, the board's reset count (bench-sim's `stats`, one answer a
 * halt), inputs written again, a reset inside a stretch, a firmware that never stops. test_loop.c
 * has the loop's other paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/le.h"
#include "bench_abi.h"
#include "loop_rig.h"

/* The virtual board's hooks as run.c sets them: one `stats` answer (h_stats) a halt. */
static void with_board_stats(struct rig *r, bool from_count)
{
	r->hooks.wide_clock = h_wide; /* present, as run.c sets it, but not asked */
	r->hooks.resets = h_resets;
	r->hooks.board_stats = h_stats;
	r->s.stats_from_count = from_count;
}

/* One board_stats answer a halt serves the reset check and the wide clock at BEGIN and END: bench's
 * reset halt, then CAL_BEGIN, CAL_END, BEGIN, END, DONE are six answers (eight without the cache),
 * the clock's 2^32 + 10 between BEGIN and END still flags the sample as wrapped, and an exception
 * counted between them as interrupted. */
static void test_board_stats_once_a_halt(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	with_board_stats(&r, false);
	r.s.stats_wide[3] = 1000;                     /* BEGIN */
	r.s.stats_wide[4] = 1000 + (1ull << 32) + 10; /* END */
	r.s.stats_exc[4] = 1;
	r.s.stats_exc[5] = 1;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.s.stats_calls, 6);
	assert_int_equal(r.s.wide_calls, 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_WRAPPED | BENCH_SAMPLE_INTERRUPTED);
	results_free(&r.rep);
}

/* board_stats's reset count: a firmware reset between stretches is seen (inputs written again) and
 * bench's own reset at each pass of a run without SYNC is the new baseline, not a reset it did not
 * make: the answer taken before a reset is never used after it. */
static void test_board_stats_resets(void **state)
{
	static const struct step steps[] = {
	    HALT(A_SYNC, 0),   HALT(A_BEGIN, 10), HALT(A_END, 30),  HALT_AFTER_RESET(A_SYNC, 5),
	    HALT(A_BEGIN, 15), HALT(A_END, 40),   HALT(A_SYNC, 50), HALT(A_DONE, 60)};
	static const struct step passes[] = {HALT(A_BEGIN, 10), HALT(A_END, 30), HALT(A_DONE, 40),
	                                     HALT(A_BEGIN, 10), HALT(A_END, 35), HALT(A_DONE, 45)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 8, true);
	with_board_stats(&r, true);
	r.o.repeat = 2;
	rig_one_input(&r, 9);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.restarts, 1);
	assert_int_equal(r.s.in_writes, 2);
	assert_int_equal(result(&r, "fut", 0)->samples[1], 25);
	results_free(&r.rep);

	rig_init(&r, passes, 6, false); /* no SYNC: a reset halt before each pass */
	with_board_stats(&r, true);
	r.o.repeat = 2;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.s.resets, 2);
	assert_int_equal(result(&r, "fut", 0)->samples[1], 25);
	results_free(&r.rep);
}

/* A second calibration in a pass (the core restarted between stretches and its start-up code
 * zeroed the input): the next SYNC writes the input again although it is no new input. */
static void test_restart_rewrites_inputs(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2), HALT(A_SYNC, 10),
	                                    HALT(A_BEGIN, 20),    HALT(A_END, 35),    HALT(A_CAL_BEGIN, 0),
	                                    HALT(A_CAL_END, 2),   HALT(A_SYNC, 10),   HALT(A_BEGIN, 20),
	                                    HALT(A_END, 35),      HALT(A_SYNC, 40),   HALT(A_DONE, 95)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 12, true);
	r.o.repeat = 2;
	rig_one_input(&r, 5);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.restarts, 1);
	assert_int_equal(r.s.in_writes, 2); /* the first SYNC, and again after the restart */
	assert_int_equal((int32_t)le_get32(r.s.ram + (IN_ADDR - RAM_BASE)), 5);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 2);
	results_free(&r.rep);
}

/* A restart after a SYNC and before its END: that iteration measured nothing, so the next SYNC runs
 * it again; the input keeps its --repeat samples and the run still ends with stop = 1. */
static void test_restart_before_end_repeats_iteration(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2), HALT(A_SYNC, 10), HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2),
	    HALT(A_SYNC, 10),     HALT(A_BEGIN, 20),  HALT(A_END, 35),  HALT(A_SYNC, 40),     HALT(A_DONE, 95)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 10, true);
	rig_one_input(&r, 5);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.restarts, 1);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	assert_int_equal(le_get32(r.s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_STOP), 1);
	results_free(&r.rep);
}

/* Firmware without bench_init() resets itself between two stretches: the board's reset count shows
 * it at the next halt (bench's own reset halts are the baseline, not counted); the inputs are
 * written again and each iteration keeps its sample. */
static void test_reset_count_rewrites_inputs(void **state)
{
	static const struct step steps[] = {
	    HALT(A_SYNC, 0),   HALT(A_BEGIN, 10), HALT(A_END, 30),  HALT_AFTER_RESET(A_SYNC, 5),
	    HALT(A_BEGIN, 15), HALT(A_END, 40),   HALT(A_SYNC, 50), HALT(A_DONE, 60)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 8, true);
	r.hooks.resets = h_resets;
	r.o.repeat = 2;
	rig_one_input(&r, 9);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.s.resets, 1);      /* bench's one reset halt */
	assert_int_equal(r.loop.restarts, 1); /* the firmware's, seen once */
	assert_int_equal(r.s.in_writes, 2);   /* the first SYNC, and again after the reset */
	assert_int_equal(result(&r, "fut", 0)->n_samples, 2);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 20);
	assert_int_equal(result(&r, "fut", 0)->samples[1], 25);
	results_free(&r.rep);
}

/* A reset while a pair is open fails the run (exit 5) naming the reset; the earlier sample stays. */
static void test_reset_count_inside_stretch_fails(void **state)
{
	static const struct step steps[] = {HALT(A_SYNC, 0),  HALT(A_BEGIN, 10), HALT(A_END, 30),
	                                    HALT(A_SYNC, 35), HALT(A_BEGIN, 40), HALT_AFTER_RESET(A_SYNC, 5)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 6, true);
	r.hooks.resets = h_resets;
	r.o.repeat = 3;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_string_equal(r.err.msg, "the target was reset inside the measured stretch (after marker BEGIN fut) by "
	                               "something other than bench (AIRCR.SYSRESETREQ, a watchdog, NRST): find what "
	                               "resets the core");
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 20);
	results_free(&r.rep);
}

/* Without a SYNC loop bench cannot write inputs again: a reset between markers fails the run. */
static void test_reset_count_without_sync_fails(void **state)
{
	static const struct step steps[] = {HALT(A_BEGIN, 10), HALT(A_END, 30), HALT_AFTER_RESET(A_BEGIN, 5)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 3, false);
	r.hooks.resets = h_resets;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "the target was reset between markers (after marker END fut)"));
	assert_int_equal(result(&r, "fut", 0)->samples[0], 20);
	results_free(&r.rep);
}

/* A firmware that ignores bench_ctl.stop and keeps calling bench_sync(): after the one sample, 1000
 * marker halts in a row with no END and no new input end the run (exit 5) instead of going on for
 * ever (--timeout never fires while markers keep coming; issue 26). */
static void test_no_progress_ends(void **state)
{
	static struct step steps[1100];
	struct rig r;

	(void)state;
	steps[0] = (struct step)HALT(A_CAL_BEGIN, 0);
	steps[1] = (struct step)HALT(A_CAL_END, 3);
	steps[2] = (struct step)HALT(A_SYNC, 10);
	steps[3] = (struct step)HALT(A_BEGIN, 100);
	steps[4] = (struct step)HALT(A_END, 150);
	for (size_t i = 5; i < 1100; i++)
		steps[i] = (struct step)HALT(A_SYNC, 200);
	rig_init(&r, steps, 1100, true);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_string_equal(r.err.msg,
	                    "the target reached 1000 markers in a row without finishing a stretch or taking the next "
	                    "input (the last: SYNC sync, in its SYNC loop): the report keeps the 1 samples measured "
	                    "so far; check the firmware's marker loop (it must end when bench_sync() returns 0)");
	assert_int_equal(r.s.next, 1005); /* the END, then the 1000th halt without progress */
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	results_free(&r.rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_board_stats_once_a_halt),
	    cmocka_unit_test(test_board_stats_resets),
	    cmocka_unit_test(test_restart_rewrites_inputs),
	    cmocka_unit_test(test_restart_before_end_repeats_iteration),
	    cmocka_unit_test(test_reset_count_rewrites_inputs),
	    cmocka_unit_test(test_reset_count_inside_stretch_fails),
	    cmocka_unit_test(test_reset_count_without_sync_fails),
	    cmocka_unit_test(test_no_progress_ends),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
