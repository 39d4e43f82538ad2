/* Start-up for Cortex-M boards: vector table, reset handler, default handlers. Board specifics come
 * as data from the board's board_config.h (BOARD_IRQS, clock set-up macros) and memory.ld (memory
 * regions; sections.ld lays them out). Armv7-M ARM B1.5.3 (vector table), B1.5.6 (stack frame). */
#include <stdint.h>

#include "bench.h"
#include "board_config.h"
#include "bench_cm_regs.h"

/* From sections.ld */
extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
typedef void (*bench_init_fn)(void);
extern const bench_init_fn __preinit_array_start[], __preinit_array_end[];
extern const bench_init_fn __init_array_start[], __init_array_end[];

int main(void);
void Reset_Handler(void);
void Default_Handler(void);
void bench_board_clock_init(void);

/* Handlers a firmware may define; the defaults stop there (see Default_Handler). */
void NMI_Handler(void) __attribute__((weak, alias("Default_Handler")));
void MemManage_Handler(void) __attribute__((weak, alias("Default_Handler")));
void BusFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void UsageFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SysTick_Handler(void) __attribute__((weak, alias("Default_Handler")));
void IRQ_Handler(void) __attribute__((weak, alias("Default_Handler")));
void HardFault_Handler(void) __attribute__((weak));
void DebugMon_Handler(void) __attribute__((weak));

/* Boards without clock set-up code (board_config.h without BOARD_CLOCK_STM32F4) run on reset clocks. */
__attribute__((weak)) void bench_board_clock_init(void)
{
}

typedef void (*bench_vector_fn)(void);

/* IRQs all go to IRQ_Handler (it can read IPSR); a firmware that needs a table of its own points
 * VTOR at it. */
__attribute__((section(".isr_vector"), used)) const bench_vector_fn bench_vectors[16 + BOARD_IRQS] = {
    [0] = (bench_vector_fn)(uintptr_t)_estack,
    [1] = Reset_Handler,
    [2] = NMI_Handler,
    [3] = HardFault_Handler,
    [4] = MemManage_Handler,
    [5] = BusFault_Handler,
    [6] = UsageFault_Handler,
    [11] = SVC_Handler,
    [12] = DebugMon_Handler,
    [14] = PendSV_Handler,
    [15] = SysTick_Handler,
    [16 ... 16 + BOARD_IRQS - 1] = IRQ_Handler,
};

/* The loops stay loops: -O2 would turn them into memcpy/memset calls, and no C library is needed. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void Reset_Handler(void)
{
	for (uint32_t *src = _sidata, *dst = _sdata; dst < _edata;)
		*dst++ = *src++;
	for (uint32_t *dst = _sbss; dst < _ebss;)
		*dst++ = 0;
#if defined(__ARM_FP)
	/* Hard-float code uses the FPU from the first instruction of main: enable CP10/CP11 (B3.2.20)
	 * and make the change visible before any FP instruction (DSB, ISB). */
	CM_CPACR |= CM_CPACR_CP10_CP11_FULL;
	__asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
	bench_board_clock_init();
	/* C++ constructors of globals, as newlib's __libc_init_array would run them (it also calls
	 * _init, which -nostartfiles leaves out). */
	for (const bench_init_fn *f = __preinit_array_start; f < __preinit_array_end; f++)
		(*f)();
	for (const bench_init_fn *f = __init_array_start; f < __init_array_end; f++)
		(*f)();
	(void)main();
	for (;;)
		__asm__ volatile("wfi");
}

/* HardFault and DebugMonitor: a bench BKPT with no debugger lands here (C1.7) and is stepped over
 * through the same entry a firmware's own handlers use (BENCH_HANDLER_ENTRY, bench.h); anything
 * else stops in Default_Handler. */
void HardFault_Handler(void)
{
	BENCH_HANDLER_ENTRY();
	Default_Handler();
}

void DebugMon_Handler(void)
{
	BENCH_HANDLER_ENTRY();
	Default_Handler();
}

/* An exception nobody handles. With a debugger attached, halt here (BKPT #0x0F is no marker, so
 * the host reports a fault and decodes CFSR/HFSR and the stacked PC); without one, stop. */
void Default_Handler(void)
{
	if (CM_DHCSR & CM_DHCSR_C_DEBUGEN)
		__asm__ volatile("bkpt #0x0f");
	for (;;)
		__asm__ volatile("wfi");
}
