/* Exception handlers as STM32CubeMX writes them into Core/Src/stm32f4xx_it.c, with bench's entry
 * in their USER CODE sections (docs/integrate.md). Built at -O0, as a CubeMX Debug build is, so each
 * handler has a prologue that moves SP before the entry runs: BENCH_HANDLER_ENTRY must still find
 * the exception frame. They replace the port's weak handlers (target/port/cortex-m/startup.c) in
 * standalone-cubemx*.elf, which tests/target/qemu_standalone.py runs with no debugger. */
#include "bench.h"

/* clang-format off: the layout is CubeMX's */

void HardFault_Handler(void);
void DebugMon_Handler(void);

/**
  * @brief This function handles Hard fault interrupt.
  */
void HardFault_Handler(void)
{
  /* USER CODE BEGIN HardFault_IRQn 0 */
  BENCH_HANDLER_ENTRY();
  /* USER CODE END HardFault_IRQn 0 */
  while (1)
  {
    /* USER CODE BEGIN W1_HardFault_IRQn 0 */
    /* USER CODE END W1_HardFault_IRQn 0 */
  }
}

/**
  * @brief This function handles Debug monitor.
  */
void DebugMon_Handler(void)
{
  /* USER CODE BEGIN DebugMonitor_IRQn 0 */
  BENCH_HANDLER_ENTRY();
  /* USER CODE END DebugMonitor_IRQn 0 */
  /* USER CODE BEGIN DebugMonitor_IRQn 1 */

  /* USER CODE END DebugMonitor_IRQn 1 */
}
