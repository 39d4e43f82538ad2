/* The marker loop (run/loop.c) against a scripted backend, as pyOCD tests its core logic with a mock
 * core: each test lists the halts the "target" makes (PC of a marker site and the counter there),
 * and checks what the loop measured, wrote and reported. The same loop runs against stock OpenOCD on
 * bench-sim in tests/e2e and tests/faults; this test covers the paths a real peer makes hard to hit
 * on purpose (a lost link between two halts, Ctrl-C in a wait, a child that died). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/le.h"
#include "bench_abi.h"
#include "loop_rig.h"

/* CAL_BEGIN/CAL_END give the overhead, subtracted from the BEGIN/END difference. */
static void test_calibration(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 100), HALT(A_CAL_END, 103), HALT(A_BEGIN, 1000),
	                                    HALT(A_END, 1050), HALT(A_DONE, 1100)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.overhead, 3);
	assert_int_equal(r.rep.context.overhead_cycles, 3);
	assert_int_equal(r.rep.n_results, 1);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 47);
	assert_int_equal(r.s.resets, 1);
	results_free(&r.rep);
}

/* The counter wraps between BEGIN and END: the 32-bit difference is still right. */
static void test_wrap_safe_difference(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 0xFFFFFFF0u),
	                                    HALT(A_END, 0x10), HALT(A_DONE, 0x20)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 0x20);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], 0);
	results_free(&r.rep);
}

/* SYNC halts write each input and bench_ctl (stop, iteration); the last one stops the loop. */
static void test_sync_writes_inputs(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2), HALT(A_SYNC, 10), HALT(A_BEGIN, 20), HALT(A_END, 35),
	    HALT(A_SYNC, 40),     HALT(A_BEGIN, 50),  HALT(A_END, 80),  HALT(A_SYNC, 90),  HALT(A_DONE, 95)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 10, true);
	r.sweep[0] = 5;
	r.sweep[1] = -7;
	strcpy(r.o.sweeps[0].name, "input");
	r.o.sweeps[0].values = r.sweep;
	r.o.sweeps[0].n = 2;
	r.o.n_sweeps = 1;
	r.cfg.input_addr[0] = IN_ADDR;
	r.cfg.input_size[0] = 4;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.rep.n_results, 2);
	assert_int_equal(r.rep.results[0].args[0].value, 5);
	assert_int_equal(r.rep.results[0].samples[0], 13);
	assert_int_equal(r.rep.results[1].args[0].value, -7);
	assert_int_equal(r.rep.results[1].samples[0], 28);
	/* The last input written, and the stop request with the iteration count. */
	assert_int_equal((int32_t)le_get32(r.s.ram + (IN_ADDR - RAM_BASE)), -7);
	assert_int_equal(le_get32(r.s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_STOP), 1);
	assert_int_equal(le_get32(r.s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_ITERATION), 2);
	results_free(&r.rep);
}

/* A pair inside a pair: each END closes its own BEGIN (by id), not the last one. */
static void test_nested_pairs(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_OUTER_BEGIN, 100),
	                                    HALT(A_BEGIN, 110),   HALT(A_END, 150),   HALT(A_OUTER_END, 200),
	                                    HALT(A_DONE, 300)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 7, false);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 40);
	assert_int_equal(result(&r, "outer", 0)->samples[0], 100);
	results_free(&r.rep);
}

/* END without its BEGIN is the firmware's mistake, said as such. */
static void test_end_without_begin(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_END, 10)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 3, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "marker END fut (id 1) reached without its BEGIN"));
	results_free(&r.rep);
}

/* A halt at no marker: the target stopped where it should not have. */
static void test_unexpected_halt(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_NOT_A_MARKER, 5)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 2, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(
	    strstr(r.err.msg, "the target halted at 0x08000998, which is no marker (after marker CAL_BEGIN cal)"));
	results_free(&r.rep);
}

/* The target never reaches the next marker: a timeout after --timeout, saying where it is. */
static void test_timeout(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0),        {STEP_TIMEOUT, 0, 0, false},
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false},
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false},
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 8, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TIMEOUT);
	assert_non_null(strstr(r.err.msg, "did not reach the next marker within 30 ms (it is at 0x08000999"));
	results_free(&r.rep);
}

/* The link to the debug server breaks between two halts: the samples taken stay in the report. */
static void test_lost_link(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10), HALT(A_END, 20), {STEP_LOST, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_CONNECT);
	assert_int_equal(r.loop.samples_taken, 1);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	results_free(&r.rep);
}

/* Ctrl-C while the target runs: interrupted, with the count of samples kept. */
static void test_interrupt(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0),        HALT(A_CAL_END, 0),
	                                    HALT(A_BEGIN, 10),           HALT(A_END, 20),
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 6, false);
	r.o.timeout_ms = 10000;
	r.s.cancel_after = 6; /* asked before each of 5 halts, then in the first wait slice */
	assert_int_equal(rig_run(&r), -(int)BENCH_E_INTERRUPTED);
	assert_string_equal(r.err.msg, "interrupted: stopped the run; the report keeps the 1 samples measured so far");
	results_free(&r.rep);
}

/* A child process (bench-sim) died while the target ran: noticed in the next wait slice. */
static void test_child_died(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 3, false);
	r.o.timeout_ms = 10000;
	r.s.children_dead = true;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_CONNECT);
	assert_string_equal(r.err.msg, "the virtual board (bench-sim) stopped mid-run (scripted): the report keeps the "
	                               "0 samples measured so far");
	results_free(&r.rep);
}

/* A wide clock (the virtual board's 64-bit count) flags a stretch of 2^32 cycles or more. */
static void test_wide_clock_flags_wrap(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.hooks.wide_clock = h_wide;
	r.s.wide[0] = 1000;
	r.s.wide[1] = 1000 + (1ull << 32) + 10;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_WRAPPED);
	results_free(&r.rep);
}

/* Firmware that switched the counter off (DWT_CTRL.CYCCNTENA = 0) gets no samples passed as cycles. */
static void test_counter_switched_off(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 10), HALT(A_DONE, 10)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.s.dwt_ctrl = 0;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "DWT_CTRL.CYCCNTENA = 0"));
	results_free(&r.rep);
}

/* counter none: the markers are still run through, no cycles recorded. */
static void test_no_counter(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 0), HALT(A_END, 0),
	                                    HALT(A_DONE, 0)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.cfg.counter = NULL;
	r.bk.caps = BK_CAP_HALT_ON_BKPT;
	r.bk.ops = &(struct backend_ops){.name = "scripted",
	                                 .halt = s_halt,
	                                 .wait_halt = s_wait_halt,
	                                 .read_mem = s_read_mem,
	                                 .write_mem = s_write_mem,
	                                 .read_reg = s_read_reg,
	                                 .reset = s_reset,
	                                 .resume = s_halt};
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 0);
	assert_non_null(strstr(result(&r, "fut", 0)->error, "counter: none"));
	results_free(&r.rep);
}

/* Issue 13: DWT_EXCCNT moved between BEGIN and END (no wide clock): the sample is flagged
 * interrupted and left out of the statistics. */
static void test_exccnt_flags_interrupted(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.s.exccnt[0] = 250; /* at BEGIN */
	r.s.exccnt[1] = 6;   /* at END: 12 cycles of exception overhead later, wrapped at 8 bits */
	assert_int_equal(rig_run(&r), 0);
	results_finish(&r.rep);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_INTERRUPTED);
	assert_int_equal(result(&r, "fut", 0)->stats.n, 0);
	assert_int_equal(r.loop.interrupted, 1);
	results_free(&r.rep);
}

/* With the virtual board's clock, its exception count says it; an unchanged count does not flag. */
static void test_wide_exceptions_flag(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20),      HALT(A_BEGIN, 30),  HALT(A_END, 40),
	                                    HALT(A_DONE, 50)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 7, false);
	r.hooks.wide_clock = h_wide;
	r.s.wide[0] = 100, r.s.wide[1] = 110, r.s.wide[2] = 120, r.s.wide[3] = 130;
	r.s.wide_exc[0] = 7, r.s.wide_exc[1] = 8, r.s.wide_exc[2] = 8, r.s.wide_exc[3] = 8;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_INTERRUPTED);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[1], 0);
	results_free(&r.rep);
}

/* The counter moved 10 while the core ran 50 cycles: written or paused inside the stretch. */
static void test_counter_written(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.hooks.wide_clock = h_wide;
	r.s.wide[0] = 1000, r.s.wide[1] = 1050;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_string_equal(r.err.msg,
	                    "the cycle counter was written or stopped between BEGIN and END fut (DWT_CYCCNT "
	                    "moved 10 cycles, the core ran 50): the sample is not cycles; leave DWT_CYCCNT to "
	                    "bench");
	assert_int_equal(r.loop.samples_taken, 0);
	results_free(&r.rep);
}

/* DEMCR.TRCENA cleared: the DWT is off, checked at the END, not only at DONE. */
static void test_trcena_off_at_end(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.s.demcr = 0;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "(DEMCR.TRCENA = 0 at END fut)"));
	results_free(&r.rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_calibration),
	    cmocka_unit_test(test_wrap_safe_difference),
	    cmocka_unit_test(test_sync_writes_inputs),
	    cmocka_unit_test(test_nested_pairs),
	    cmocka_unit_test(test_end_without_begin),
	    cmocka_unit_test(test_unexpected_halt),
	    cmocka_unit_test(test_timeout),
	    cmocka_unit_test(test_lost_link),
	    cmocka_unit_test(test_interrupt),
	    cmocka_unit_test(test_child_died),
	    cmocka_unit_test(test_wide_clock_flags_wrap),
	    cmocka_unit_test(test_counter_switched_off),
	    cmocka_unit_test(test_no_counter),
	    cmocka_unit_test(test_exccnt_flags_interrupted),
	    cmocka_unit_test(test_wide_exceptions_flag),
	    cmocka_unit_test(test_counter_written),
	    cmocka_unit_test(test_trcena_off_at_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
