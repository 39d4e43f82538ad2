/* A firmware that resets itself through AIRCR.SYSRESETREQ (Armv7-M ARM B3.2.6) once, outside every
 * measured stretch, and has no bench_init(): no calibration markers show the restart, so only the
 * board's reset count does (tests/faults resets_*; docs/reliability.md). It turns the cycle counter
 * on itself (DEMCR.TRCENA C1.6.5, DWT_CTRL.CYCCNTENA C1.8.7), as bench_init() would.
 *   markers: a SYNC loop; after the END of iteration 2 it resets; its start-up code sets `input`
 *     back to 0, which runs 8 NOPs instead of input 1's 16: bench must write the input again;
 *   --start work --stop work_done: in its fourth boot (bench's second pass) it
 *     resets before reaching `work`: bench must fail the run and keep the first pass's sample.
 * "Once" is a flag in the STM32F4's CCM RAM (0x10000000, RM0090 2.3.1), which the start-up code
 * does not touch and a system reset does not clear; bench-sim starts it at 0. */
#include <stdint.h>

#include "bench.h"

volatile int input;

#define REG(a)     (*(volatile uint32_t *)(a))
#define SCB_AIRCR  0xE000ED0Cu
#define DEMCR      0xE000EDFCu
#define DWT_CTRL   0xE0001000u
#define CCM_FLAG   0x10000000u
#define CCM_BOOTS  (CCM_FLAG + 4u)
#define RESET_DONE 0x52455354u /* "REST" */

static void reset_once(void)
{
	if (REG(CCM_FLAG) == RESET_DONE)
		return;
	REG(CCM_FLAG) = RESET_DONE;
	__asm__ volatile("dsb");
	REG(SCB_AIRCR) = 0x05FA0004u; /* VECTKEY | SYSRESETREQ */
	__asm__ volatile("dsb");
	for (;;)
		;
}

__attribute__((noinline)) void work(int n)
{
	if (n == 1)
		__asm__ volatile(".rept 16\n\tnop\n\t.endr");
	else
		__asm__ volatile(".rept 8\n\tnop\n\t.endr");
	bench_clobber_memory();
}

__attribute__((noinline)) void work_done(void)
{
	__asm__ volatile("nop");
}

int main(void)
{
	REG(DEMCR) |= 1u << 24;
	REG(DWT_CTRL) |= 1u;
#ifdef RESETS_NO_MARKERS
	/* Boots: power-on (bench-sim runs the firmware before OpenOCD attaches), the start-up reset
	 * halt, bench's first pass, its second pass. No DHCSR read here (bench_debugger_attached()):
	 * reading DHCSR clears S_RESET_ST (C1.6.3), which OpenOCD must see (BENCH_RESETS=openocd-log). */
	if (++REG(CCM_BOOTS) == 4)
		reset_once(); /* bench's second pass: its first pass's sample is in the report */
	for (;;) {
		work(1);
		work_done();
	}
#else
	while (bench_sync()) {
		int n = input;
		BENCH_BEGIN(work);
		work(n);
		BENCH_END(work);
		if (bench_ctl.iteration == 2)
			reset_once();
	}
	bench_done();
	return 0;
#endif
}
