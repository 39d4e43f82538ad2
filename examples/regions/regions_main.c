/* Profile-point regions on the virtual board (docs/regions.md): the same code measured twice, once
 * between BENCH markers (a halt per sample, the host reads DWT_CYCCNT) and once in a PFP region (the
 * firmware measures itself into the table `bench_regions`, the host reads it at DONE), so the tests
 * can compare the two; plus nesting, a latched region, a SysTick handler whose time the interrupted
 * region leaves out, and a burst of region samples per SYNC for the samples-per-second figure.
 *
 * Expected relations (tests/regions/regions_e2e.sh checks them on bench-sim):
 *   work.last       == marker work               (the same call, work(200))
 *   empty.max       == 0                         (an empty region after calibration)
 *   outer.last      == marker w100 + marker w30  (exclusive: the inner region is left out)
 *   inner.last      == marker w50
 *   latched.last    == marker w40 + marker w60   (two latched parts make one sample)
 *   victim.last     == marker w5000              (SysTick fires inside; its time is left out)
 *   marker victim_isr > marker w5000             (the markers see the interrupts)
 * Built a second time with -DREGIONS_EVENTS (regions-events.elf): every region also records the
 * event set PAPI_TOT_INS, PAPI_TOT_CYC, DWT_LSUCNT, and ev20 - ev10 (work(20) - work(10)) must be
 * exactly ten loop turns: 30 instructions.
 */
#include <stdint.h>

#include "bench.h"
#include "board_config.h"
#include "pfp.h"

#define APP_REGIONS(X)                                                                                                 \
	X(ID_WORK, "work")                                                                                             \
	X(ID_EMPTY, "empty")                                                                                           \
	X(ID_OUTER, "outer")                                                                                           \
	X(ID_INNER, "inner")                                                                                           \
	X(ID_LATCHED, "latched")                                                                                       \
	X(ID_VICTIM, "victim")                                                                                         \
	X(ID_TICK, "tick")                                                                                             \
	X(ID_PAIR, "pair")                                                                                             \
	X(ID_BURST, "burst")                                                                                           \
	X(ID_EV10, "ev10")                                                                                             \
	X(ID_EV20, "ev20")
PFP_DECLARE_IDS(APP_REGIONS);
PFP_DEFINE_TABLE(APP_REGIONS);

/* SysTick and the SCB's ICSR (Armv7-M ARM B3.3.2 SYST_CSR/RVR/CVR, B3.2.4 ICSR.PENDSTSET). */
#define SYST_CSR           (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR           (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR           (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_RUN       0x7u /* ENABLE | TICKINT | CLKSOURCE (core clock) */
#define SCB_ICSR           (*(volatile uint32_t *)0xE000ED04u)
#define SCB_ICSR_PENDSTCLR (1u << 25)

#define TICK_PERIOD                                                                                                    \
	3000u           /* cycles between SysTick interrupts while the victim runs: more than the                      \
	                 * handler takes even with the event set on */
#define TICK_WORK 50u   /* loop turns in the handler */
#define BURST     1000u /* region samples per SYNC in the burst */

/* Code under test: n turns of a loop the compiler cannot remove. The same function (same address,
 * same alignment) is measured both ways. */
__attribute__((noinline)) void work(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		__asm__ volatile("");
}

/* Calibration wants one interrupt per pend_systick(): the handler stops the timer again. Tested
 * between pfp_isr_enter() and pfp_isr_exit(), so both kinds of tick leave the same residue. */
static volatile uint32_t tick_oneshot;

void SysTick_Handler(void)
{
	pfp_isr_t s = pfp_isr_enter();
	if (tick_oneshot) {
		SYST_CSR = 0;
		SCB_ICSR = SCB_ICSR_PENDSTCLR;
	}
	pfp_begin(ID_TICK);
	work(TICK_WORK);
	pfp_end(ID_TICK, 0);
	pfp_isr_exit(s);
}

/* Makes SysTick fire within two cycles: reload 1, counter cleared, enabled (B3.3.1: the counter loads
 * RVR on the next clock and the interrupt pends when it reaches 0). The timer, not a write of
 * ICSR.PENDSTSET, raises it, as it does for the ticks the victim sees. */
static void pend_systick(void)
{
	SYST_RVR = 1;
	SYST_CVR = 0;
	SYST_CSR = SYST_CSR_RUN;
}

static void markers(void)
{
	BENCH_BEGIN(work);
	work(200);
	BENCH_END(work);
	BENCH_BEGIN(w100);
	work(100);
	BENCH_END(w100);
	BENCH_BEGIN(w50);
	work(50);
	BENCH_END(w50);
	BENCH_BEGIN(w30);
	work(30);
	BENCH_END(w30);
	BENCH_BEGIN(w40);
	work(40);
	BENCH_END(w40);
	BENCH_BEGIN(w60);
	work(60);
	BENCH_END(w60);
	BENCH_BEGIN(w5000);
	work(5000);
	BENCH_END(w5000);
	/* What an empty region costs the code around it: Begin and End with all their bookkeeping. */
	BENCH_BEGIN(pfp_pair);
	pfp_begin(ID_PAIR);
	pfp_end(ID_PAIR, 0);
	BENCH_END(pfp_pair);
}

static void regions(void)
{
	pfp_begin(ID_WORK);
	work(200);
	pfp_end(ID_WORK, 0);

	pfp_begin(ID_EMPTY);
	pfp_end(ID_EMPTY, 0);

	pfp_begin(ID_OUTER);
	work(100);
	pfp_begin(ID_INNER);
	work(50);
	pfp_end(ID_INNER, 0);
	work(30);
	pfp_end(ID_OUTER, 0);

	pfp_begin(ID_LATCHED);
	work(40);
	pfp_end(ID_LATCHED, 1);
	pfp_begin(ID_LATCHED);
	work(60);
	pfp_end(ID_LATCHED, 0);
}

static void interrupted(void)
{
	SYST_RVR = TICK_PERIOD - 1u;
	SYST_CVR = 0;
	SYST_CSR = SYST_CSR_RUN;
	pfp_begin(ID_VICTIM);
	work(5000);
	pfp_end(ID_VICTIM, 0);
	SYST_CSR = 0;

	SYST_CVR = 0;
	SYST_CSR = SYST_CSR_RUN;
	BENCH_BEGIN(victim_isr);
	work(5000);
	BENCH_END(victim_isr);
	SYST_CSR = 0;
}

/* Two regions that differ by ten turns of work()'s loop, short enough (< 256 cycles between two
 * counter reads) for the 8-bit DWT counters to be exact. */
static void events(void)
{
	pfp_begin(ID_EV10);
	work(10);
	pfp_end(ID_EV10, 0);
	pfp_begin(ID_EV20);
	work(20);
	pfp_end(ID_EV20, 0);
}

static void burst(void)
{
	for (uint32_t i = 0; i < BURST; i++) {
		pfp_begin(ID_BURST);
		work(10);
		pfp_end(ID_BURST, 0);
	}
}

int main(void)
{
	bench_init();
	pfp_init(BOARD_CORE_CLOCK_HZ);
	pfp_calibrate(16);
	for (unsigned id = PFP_ID_NESTED + 1; id < PFP_ID_COUNT; id++)
		pfp_enable(id);
	tick_oneshot = 1;
	pfp_calibrate_isr(pend_systick, 8);
	tick_oneshot = 0;
	pfp_reset_stats(ID_TICK);
	pfp_set_alpha(ID_WORK, 0.25f);
#if defined(REGIONS_EVENTS)
	static const uint16_t set[] = {PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_LSU_CYC};
	if (pfp_set_events(set, 3) != 0)
		bench_done(); /* the host reports the table's error flags */
#endif
	while (bench_sync()) {
		markers();
		regions();
		interrupted();
		burst();
		events();
	}
	bench_done();
	return 0;
}
