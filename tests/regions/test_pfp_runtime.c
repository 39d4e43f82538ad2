/* Unit tests of the profile-point runtime (target/pfp) on the host, with a scripted counter
 * (pfp_port_host.h): every PFP semantics the PFP slides describe (seeds/000), with exact cycles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pfp.h"

uint32_t pfp_host_now;
uint32_t pfp_host_read_cost;
int pfp_host_lock_depth;
int pfp_host_lock_max;
uint32_t pfp_host_raw[6];
unsigned pfp_host_setup_calls;
uint8_t pfp_host_mux_seen;
void (*pfp_host_pending_irq)(void);

#define TEST_REGIONS(X) X(ID_A, "a") X(ID_B, "b") X(ID_ISR, "isr")
PFP_DECLARE_IDS(TEST_REGIONS);
PFP_DEFINE_TABLE(TEST_REGIONS);

#define COST 3u /* cycles each counter read "takes": PFP's own code, as the calibration sees it */

static void run(uint32_t cycles)
{
	pfp_host_now += cycles;
}

static int setup(void **state)
{
	(void)state;
	pfp_host_now = 1000;
	pfp_host_read_cost = COST;
	pfp_host_lock_depth = 0;
	pfp_host_lock_max = 0;
	pfp_host_pending_irq = 0;
	for (int i = 0; i < 6; i++)
		pfp_host_raw[i] = 0;
	pfp_init(168000000u);
	pfp_calibrate(8);
	for (unsigned id = 2; id < PFP_ID_COUNT; id++)
		pfp_enable(id);
	return 0;
}

static struct pfp_stats stats(unsigned id)
{
	struct pfp_stats s;
	pfp_get_stats(id, &s);
	return s;
}

static void test_init_defaults(void **state)
{
	(void)state;
	pfp_init(100u);
	assert_int_equal(bench_regions.magic, PFP_TABLE_MAGIC);
	assert_int_equal(bench_regions.count, 5);
	assert_int_equal(bench_regions.core_clock_hz, 100u);
	assert_int_equal(bench_regions.counter, PFP_COUNTER_HOST);
	assert_int_equal(bench_regions.overhead, 0);
	for (unsigned id = 0; id < PFP_ID_COUNT; id++) {
		struct pfp_stats s = stats(id);
		assert_int_equal(s.flags & PFP_F_ENABLED, 0); /* all disabled after init (PFP) */
		assert_int_equal(s.count, 0);
		assert_int_equal(s.min, 0xffffffffu);
	}
	/* A disabled region measures nothing. */
	pfp_begin(ID_A);
	run(50);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).count, 0);
}

static void test_calibration_residual_zero(void **state)
{
	(void)state;
	assert_int_equal(bench_regions.overhead, COST);
	assert_int_equal(bench_regions.nest_overhead, COST);
	assert_true(bench_regions.flags & PFP_T_CALIBRATED);
	struct pfp_stats s0 = stats(PFP_ID_OVERHEAD), s1 = stats(PFP_ID_NESTED);
	assert_int_equal(s0.count, 8);
	assert_int_equal(s0.min, 0);
	assert_int_equal(s0.max, 0);
	assert_int_equal(s1.count, 8);
	assert_int_equal(s1.max, 0);
	/* An empty user region measures 0 too. */
	pfp_begin(ID_A);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).last, 0);
	assert_int_equal(stats(ID_A).count, 1);
}

static void test_simple(void **state)
{
	(void)state;
	uint32_t seq0 = bench_regions.seq;
	pfp_begin(ID_A);
	run(100);
	pfp_end(ID_A, 0);
	pfp_begin(ID_A);
	run(40);
	pfp_end(ID_A, 0);
	struct pfp_stats s = stats(ID_A);
	assert_int_equal(s.count, 2);
	assert_int_equal(s.total, 140);
	assert_int_equal(s.min, 40);
	assert_int_equal(s.max, 100);
	assert_int_equal(s.last, 40);
	assert_int_equal(s.errors, 0);
	assert_int_equal(bench_regions.seq, seq0 + 4); /* two records, each odd then even */
	assert_int_equal(bench_regions.seq % 2, 0);
	assert_int_equal(pfp_host_lock_depth, 0);
	assert_int_equal(pfp_host_lock_max, 1);
}

static void test_nested_exclusive(void **state)
{
	(void)state;
	pfp_begin(ID_A);
	run(50);
	pfp_begin(ID_B);
	run(30);
	pfp_end(ID_B, 0);
	run(20);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_B).total, 30);
	assert_int_equal(stats(ID_A).total, 70); /* work1 only: the inner work2 is left out */
}

static void test_latch(void **state)
{
	(void)state;
	pfp_begin(ID_A);
	run(40);
	pfp_end(ID_A, 1); /* latch: a partial measurement */
	assert_int_equal(stats(ID_A).count, 0);
	assert_true(stats(ID_A).flags & PFP_F_LATCHED);
	run(1000); /* not measured */
	pfp_begin(ID_A);
	run(25);
	pfp_end(ID_A, 1);
	pfp_begin(ID_A);
	run(35);
	pfp_end(ID_A, 0); /* completes one sample of work1 + work2 + work3 */
	struct pfp_stats s = stats(ID_A);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.last, 100);
	assert_int_equal(s.flags & PFP_F_LATCHED, 0);
}

static void test_end_before_begin_loop(void **state)
{
	(void)state;
	struct pfp_ctx task = {0}, other = {0};
	/* PFP "loop measurements with task blocking": End before Begin on the first pass. */
	for (int i = 0; i < 3; i++) {
		pfp_end(ID_B, 0);
		pfp_begin(ID_B);
		run(7);
		pfp_switch(&task, &other); /* Semaphore_pend blocks: another context runs */
		run(500);
		pfp_switch(&other, &task);
		run(4);
		pfp_begin(ID_A);
		run(100);
		pfp_end(ID_A, 0);
		run(9);
	}
	assert_int_equal(stats(ID_A).count, 3);
	assert_int_equal(stats(ID_A).total, 300);
	/* The first End found nothing open and did nothing: two complete loop passes. */
	struct pfp_stats b = stats(ID_B);
	assert_int_equal(b.count, 2);
	assert_int_equal(b.last, 9 + 7 + 4);
	assert_int_equal(b.errors, 0);
}

static void test_begin_begin_end_disables(void **state)
{
	(void)state;
	pfp_begin(ID_A);
	run(10);
	pfp_begin(ID_A);
	run(10);
	pfp_end(ID_A, 0);
	struct pfp_stats s = stats(ID_A);
	assert_int_equal(s.flags & PFP_F_ENABLED, 0);
	assert_int_equal(s.errors, PFP_E_DOUBLE_BEGIN);
	assert_int_equal(s.count, 0);
	/* Stays disabled; other regions keep working. */
	pfp_begin(ID_A);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).count, 0);
	pfp_begin(ID_B);
	run(33);
	pfp_end(ID_B, 0);
	assert_int_equal(stats(ID_B).last, 33);
}

static void test_end_not_innermost(void **state)
{
	(void)state;
	pfp_begin(ID_A);
	run(10);
	pfp_begin(ID_B);
	run(20);
	pfp_end(ID_A, 0); /* A is not the innermost open region */
	run(5);
	pfp_end(ID_B, 0);
	assert_int_equal(stats(ID_A).errors, PFP_E_NOT_INNERMOST);
	assert_int_equal(stats(ID_A).flags & PFP_F_ENABLED, 0);
	/* B's own time, 20 + 5, minus the bias A's End call left in it (charged like a nested pair's
	 * second half, which is not subtracted for an invalid call). */
	assert_int_equal(stats(ID_B).last, 25 + COST);
}

static void test_preemption_by_context_switch(void **state)
{
	(void)state;
	struct pfp_ctx t1 = {0}, t2 = {0};
	pfp_begin(ID_A);
	run(100);
	pfp_switch(&t1, &t2); /* pre-empted: A pauses */
	pfp_begin(ID_B);
	run(500);
	pfp_end(ID_B, 0);
	run(77);
	pfp_switch(&t2, &t1);
	run(50);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).last, 150);
	assert_int_equal(stats(ID_B).last, 500);
}

static void test_disable_while_parked(void **state)
{
	(void)state;
	struct pfp_ctx t1 = {0}, t2 = {0};
	pfp_begin(ID_A);
	run(10);
	pfp_begin(ID_B);
	run(10);
	pfp_switch(&t1, &t2);
	pfp_disable(ID_B); /* B is parked in t1: disabled there, not charged when t1 resumes */
	run(500);
	pfp_switch(&t2, &t1);
	run(7);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_B).count, 0);
	assert_int_equal(stats(ID_B).flags, 0);
	assert_int_equal(stats(ID_A).count, 1);
	/* A: its own 10 + 7; B's 10 were B's and went with it (exclusive time), the other task's 500 not */
	assert_int_equal(stats(ID_A).last, 17);
}

static void test_switch_out_in_null(void **state)
{
	(void)state;
	struct pfp_ctx t1 = {0};
	pfp_begin(ID_A);
	run(10);
	pfp_switch_out(&t1);
	run(999); /* the idle loop: no context */
	pfp_switch_in(&t1);
	run(10);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).last, 20);
}

static void isr_body(void)
{
	run(12); /* exception entry (Cortex-M4 TRM 3.3: 12 cycles) */
	pfp_isr_t s = pfp_isr_enter();
	pfp_begin(ID_ISR);
	run(300);
	pfp_end(ID_ISR, 0);
	pfp_isr_exit(s);
	run(10); /* exception return */
}

static void pend(void)
{
	run(2); /* the store to ICSR.PENDSVSET */
	if (pfp_host_lock_depth == 0)
		isr_body();
	else
		pfp_host_pending_irq = isr_body;
}

static void test_isr_excluded(void **state)
{
	(void)state;
	pfp_begin(ID_A);
	run(100);
	isr_body();
	run(20);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_ISR).last, 300);
	/* Without ISR calibration the entry, return and the helpers' bias stay: 12 + 10 + COST. */
	assert_int_equal(stats(ID_A).last, 120 + 22 + COST);
}

static void test_isr_calibrated(void **state)
{
	(void)state;
	pfp_calibrate_isr(pend, 4);
	assert_int_equal(bench_regions.isr_overhead, 22 + COST);
	assert_int_equal(pfp_host_lock_depth, 0);
	pfp_reset_stats(ID_A);
	pfp_begin(ID_A);
	run(100);
	isr_body();
	run(20);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).last, 120); /* interrupt time excluded exactly */
	/* The same with the ISR nested inside an inner region: only the inner one is interrupted. */
	pfp_begin(ID_A);
	run(10);
	pfp_begin(ID_B);
	run(5);
	isr_body();
	run(5);
	pfp_end(ID_B, 0);
	run(10);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_B).last, 10);
	assert_int_equal(stats(ID_A).last, 20);
}

static void test_ema_alpha_t_over_tau(void **state)
{
	(void)state;
	/* PFP: alpha = T / tau; a 100 ms period with a 500 ms time constant gives 0.2. */
	pfp_set_alpha(ID_A, 100.0f / 500.0f);
	static const uint32_t samples[] = {100, 200, 200, 50};
	static const double expect[] = {100.0, 120.0, 136.0, 118.8};
	for (int i = 0; i < 4; i++) {
		pfp_begin(ID_A);
		run(samples[i]);
		pfp_end(ID_A, 0);
		assert_float_equal(stats(ID_A).ema, expect[i], 1e-3);
	}
	/* alpha 0 (the default): no average kept. */
	pfp_begin(ID_B);
	run(10);
	pfp_end(ID_B, 0);
	assert_float_equal(stats(ID_B).ema, 0.0, 0.0);
}

static void test_reset_and_disable(void **state)
{
	(void)state;
	pfp_begin(ID_A);
	run(10);
	pfp_end(ID_A, 0);
	pfp_reset_stats(ID_A);
	assert_int_equal(stats(ID_A).count, 0);
	assert_int_equal(stats(ID_A).min, 0xffffffffu);
	pfp_begin(ID_A);
	run(10);
	pfp_begin(ID_B);
	run(10);
	pfp_disable(ID_B); /* closes B without a sample; A continues */
	run(10);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_B).count, 0);
	assert_int_equal(stats(ID_A).count, 1);
	assert_int_equal(stats(ID_A).errors, 0);
}

static void test_bad_id_and_wrap(void **state)
{
	(void)state;
	pfp_begin(99);
	pfp_end(99, 0);
	assert_int_equal(bench_regions.errors, PFP_TE_BAD_ID);
	pfp_begin(ID_A);
	run(0x80000000u);
	pfp_end(ID_A, 0);
	assert_int_equal(stats(ID_A).errors, PFP_E_WRAP);
}

static void test_region_events(void **state)
{
	(void)state;
	static const uint16_t set[] = {PAPI_TOT_INS, PAPI_CPI_CYC, PAPI_FOLD_INS};
	pfp_host_read_cost = 0; /* events are not calibrated: keep the bias out of this test */
	pfp_host_raw[1] = 250;  /* CPICNT close to its 8-bit wrap */
	assert_int_equal(pfp_set_events(set, 3), 0);
	assert_int_equal(bench_regions.n_events, 3);
	assert_true(bench_regions.flags & PFP_T_EVENTS);
	pfp_begin(ID_A);
	run(100);
	pfp_host_raw[1] = 5; /* CPICNT +11 across the wrap */
	pfp_host_raw[4] = 3; /* LSUCNT +3 */
	pfp_host_raw[5] = 2; /* FOLDCNT +2 */
	pfp_end(ID_A, 0);
	struct pfp_stats s = stats(ID_A);
	assert_int_equal(s.events[0], 100 - 11 - 3 + 2); /* instructions, Armv7-M C1.8.1 */
	assert_int_equal(s.events[1], 11);
	assert_int_equal(s.events[2], 2);
	assert_int_equal(s.errors, 0);
	/* 300 cycles between two reads: an 8-bit counter may have wrapped unseen. */
	pfp_begin(ID_B);
	run(300);
	pfp_end(ID_B, 0);
	assert_int_equal(stats(ID_B).errors, PFP_E_EVT_WRAP);
	/* An unknown event is refused. */
	static const uint16_t bad[] = {PAPI_L1_DCM};
	assert_int_equal(pfp_set_events(bad, 1), -1);
	assert_int_equal(bench_regions.flags & PFP_T_EVENTS, PFP_T_EVENTS);
}

static void test_papi_high_level(void **state)
{
	(void)state;
	static const uint16_t set[] = {PAPI_TOT_CYC, PAPI_TOT_INS};
	int64_t v[2] = {0, 0};
	pfp_host_read_cost = 0;
	assert_int_equal(pfp_papi_read(v, 2), PFP_PAPI_ENOTRUN);
	assert_int_equal(pfp_papi_start(set, 2), PFP_PAPI_OK);
	assert_int_equal(pfp_papi_start(set, 2), PFP_PAPI_EISRUN);
	run(200);
	pfp_host_raw[2] = 12; /* EXCCNT */
	assert_int_equal(pfp_papi_read(v, 2), PFP_PAPI_OK);
	assert_int_equal(v[0], 200);
	assert_int_equal(v[1], 188);
	run(50);
	assert_int_equal(pfp_papi_accum(v, 2), PFP_PAPI_OK);
	assert_int_equal(v[0], 250);
	assert_int_equal(v[1], 238);
	run(1000); /* long enough for the 8-bit counters to wrap */
	assert_int_equal(pfp_papi_stop(v, 2), PFP_PAPI_WRAPPED);
	assert_int_equal(v[0], 1000);
	assert_int_equal(pfp_papi_stop(v, 2), PFP_PAPI_ENOTRUN);
	assert_int_equal(pfp_papi_start(set, 5), PFP_PAPI_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_init_defaults, setup),
	    cmocka_unit_test_setup(test_calibration_residual_zero, setup),
	    cmocka_unit_test_setup(test_simple, setup),
	    cmocka_unit_test_setup(test_nested_exclusive, setup),
	    cmocka_unit_test_setup(test_latch, setup),
	    cmocka_unit_test_setup(test_end_before_begin_loop, setup),
	    cmocka_unit_test_setup(test_begin_begin_end_disables, setup),
	    cmocka_unit_test_setup(test_end_not_innermost, setup),
	    cmocka_unit_test_setup(test_preemption_by_context_switch, setup),
	    cmocka_unit_test_setup(test_switch_out_in_null, setup),
	    cmocka_unit_test_setup(test_disable_while_parked, setup),
	    cmocka_unit_test_setup(test_isr_excluded, setup),
	    cmocka_unit_test_setup(test_isr_calibrated, setup),
	    cmocka_unit_test_setup(test_ema_alpha_t_over_tau, setup),
	    cmocka_unit_test_setup(test_reset_and_disable, setup),
	    cmocka_unit_test_setup(test_bad_id_and_wrap, setup),
	    cmocka_unit_test_setup(test_region_events, setup),
	    cmocka_unit_test_setup(test_papi_high_level, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
