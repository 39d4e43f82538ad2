/* Faults inside a measured stretch, one per input value (tests/faults): input 1 is a clean stretch
 * (8 NOPs) so samples exist before the fault; the others:
 *   2  SYSRESETREQ: the core resets itself (AIRCR, Armv7-M ARM B3.2.6), as a watchdog would;
 *   3  lockup: VTOR moved to unmapped memory, then SVC: the vector fetch faults, and so does the
 *      HardFault vector fetch, which is lockup (B1.5.15);
 *   4  the cycle counter switched off (DWT_CTRL.CYCCNTENA = 0, C1.8.7) mid-stretch;
 *   5  a stretch longer than 2^32 cycles: SysTick at its longest period (2^24 cycles) while the
 *      core sleeps in WFI, 300 periods (~5.0e9 cycles, 30 s at 168 MHz; bench-sim skips sleep);
 *   6  SysTick every 1000 cycles (started at the first such input, left running) around a stretch
 *      of 200 NOPs: some samples take the SysTick exception, as a CubeMX firmware's 1 ms tick does;
 *   7  DWT_CYCCNT written (set to 0) mid-stretch;
 *   8  the counter switched off and on again mid-stretch (DWT_CTRL.CYCCNTENA 0, then 1);
 *   9  16 NOPs, and a SYSRESETREQ *between* stretches once (after the END of iteration 6 mod 8):
 *      the firmware restarts with its inputs back at 0, which bench must write again;
 *  10  a SYSRESETREQ after the SYNC and before the BEGIN, every time: a watchdog that fires before
 *      this input's stretch, so no iteration of it ever finishes (bench must give up, issue 26).
 * Built for the virtual board with bench_firmware() (tests/firmware/faults/CMakeLists.txt). */
#include <stdint.h>

#include "bench.h"

volatile int input;
/* CMSIS's name for the core clock the firmware set up: bench computes times with it (docs/run.md). */
volatile uint32_t SystemCoreClock = 168000000u;
static volatile uint32_t ticks;

#define REG(a) (*(volatile uint32_t *)(a))
#define SCB_AIRCR 0xE000ED0Cu
#define SCB_VTOR 0xE000ED08u
#define DWT_CTRL 0xE0001000u
#define DWT_CYCCNT 0xE0001004u
#define SYST_CSR 0xE000E010u
#define SYST_RVR 0xE000E014u
#define SYST_CVR 0xE000E018u

void SysTick_Handler(void);
void SysTick_Handler(void)
{
	ticks++;
}

__attribute__((noreturn)) static void reset_core(void)
{
	__asm__ volatile("dsb");
	REG(SCB_AIRCR) = 0x05FA0004u; /* VECTKEY | SYSRESETREQ (Armv7-M ARM B3.2.6) */
	__asm__ volatile("dsb");
	for (;;)
		;
}

static void long_sleep(uint32_t periods)
{
	ticks = 0;
	REG(SYST_RVR) = 0x00FFFFFFu;
	REG(SYST_CVR) = 0;
	REG(SYST_CSR) = 7u; /* ENABLE | TICKINT | CLKSOURCE = core clock (B3.3.3) */
	while (ticks < periods)
		__asm__ volatile("wfi");
	REG(SYST_CSR) = 0;
}

/* Own functions: GCC sizes an asm statement by its lines, so a .rept inside the switch would
 * overflow its TBB jump table. */
__attribute__((noinline)) static void nops200(void)
{
	__asm__ volatile(".rept 200\n\tnop\n\t.endr");
}

__attribute__((noinline)) static void nops16(void)
{
	__asm__ volatile(".rept 16\n\tnop\n\t.endr");
}

__attribute__((noinline)) void stretch(int n)
{
	switch (n) {
	case 2:
		__asm__ volatile("dsb");
		REG(SCB_AIRCR) = 0x05FA0004u; /* VECTKEY | SYSRESETREQ */
		__asm__ volatile("dsb");
		for (;;)
			;
	case 3:
		REG(SCB_VTOR) = 0x3FF00000u; /* no memory there on the STM32F4 */
		__asm__ volatile("dsb\n\tisb\n\tsvc #0");
		break;
	case 4:
		REG(DWT_CTRL) &= ~1u;
		__asm__ volatile("nop\n\tnop\n\tnop\n\tnop");
		break;
	case 5:
		long_sleep(300);
		break;
	case 6:
		if (!(REG(SYST_CSR) & 1u)) {
			REG(SYST_RVR) = 999u; /* a period of 1000 cycles (B3.3.3) */
			REG(SYST_CVR) = 0;
			REG(SYST_CSR) = 7u;
		}
		nops200();
		break;
	case 7:
		REG(DWT_CYCCNT) = 0;
		__asm__ volatile("nop\n\tnop\n\tnop\n\tnop");
		break;
	case 8:
		REG(DWT_CTRL) &= ~1u;
		__asm__ volatile("nop\n\tnop\n\tnop\n\tnop");
		REG(DWT_CTRL) |= 1u;
		break;
	case 9:
		nops16();
		break;
	default:
		__asm__ volatile("nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop");
		break;
	}
	bench_clobber_memory();
}

int main(void)
{
	if (!SystemCoreClock) /* referenced, so --gc-sections keeps it, as a HAL's use does */
		return 1;
	bench_init();
	while (bench_sync()) {
		int n = input;
		if (n == 10)
			reset_core();
		BENCH_BEGIN(stretch);
		stretch(n);
		BENCH_END(stretch);
		if (n == 9 && bench_ctl.iteration % 8 == 6) { /* once: the next SYNC has another iteration */
			__asm__ volatile("dsb");
			REG(SCB_AIRCR) = 0x05FA0004u;
			__asm__ volatile("dsb");
			for (;;)
				;
		}
	}
	bench_done();
	return 0;
}
