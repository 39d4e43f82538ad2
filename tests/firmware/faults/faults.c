/* Faults inside a measured stretch, one per input value (tests/faults): input 1 is a clean stretch
 * (8 NOPs) so samples exist before the fault; the others:
 *   2  SYSRESETREQ: the core resets itself (AIRCR, Armv7-M ARM B3.2.6), as a watchdog would;
 *   3  lockup: VTOR moved to unmapped memory, then SVC: the vector fetch faults, and so does the
 *      HardFault vector fetch, which is lockup (B1.5.15);
 *   4  the cycle counter switched off (DWT_CTRL.CYCCNTENA = 0, C1.8.7) mid-stretch;
 *   5  a stretch longer than 2^32 cycles: SysTick at its longest period (2^24 cycles) while the
 *      core sleeps in WFI, 300 periods (~5.0e9 cycles, 30 s at 168 MHz; bench-sim skips sleep).
 * Built for the virtual board with bench_firmware() (tests/firmware/faults/CMakeLists.txt). */
#include <stdint.h>

#include "bench.h"

volatile int input;
static volatile uint32_t ticks;

#define REG(a) (*(volatile uint32_t *)(a))
#define SCB_AIRCR 0xE000ED0Cu
#define SCB_VTOR 0xE000ED08u
#define DWT_CTRL 0xE0001000u
#define SYST_CSR 0xE000E010u
#define SYST_RVR 0xE000E014u
#define SYST_CVR 0xE000E018u

void SysTick_Handler(void);
void SysTick_Handler(void)
{
	ticks++;
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
	default:
		__asm__ volatile("nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop");
		break;
	}
	bench_clobber_memory();
}

int main(void)
{
	bench_init();
	while (bench_sync()) {
		int n = input;
		BENCH_BEGIN(stretch);
		stretch(n);
		BENCH_END(stretch);
	}
	bench_done();
	return 0;
}
