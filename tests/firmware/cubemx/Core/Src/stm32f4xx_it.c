/* Interrupt and exception handlers in the place and layout of a CubeMX project's
 * Core/Src/stm32f4xx_it.c, with bench's entry in the USER CODE sections of HardFault_Handler and
 * DebugMon_Handler (docs/integrate.md): with no debugger a marker BKPT takes DebugMonitor and is
 * stepped over there, so the firmware also runs stand-alone. Written for probebench; the
 * peripheral handlers work at register level where a CubeMX project calls the HAL. */
/* clang-format off: the layout is CubeMX's */
#include "main.h"
#include "stm32f4xx_it.h"
/* USER CODE BEGIN Includes */
#include "bench.h"
/* USER CODE END Includes */

extern volatile uint32_t exti_count;
extern volatile uint32_t systick_ms;

/******************************************************************************/
/*           Cortex-M4 Processor Interruption and Exception Handlers          */
/******************************************************************************/
void NMI_Handler(void)
{
  while (1)
  {
  }
}

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

void MemManage_Handler(void)
{
  while (1)
  {
  }
}

void BusFault_Handler(void)
{
  while (1)
  {
  }
}

void UsageFault_Handler(void)
{
  while (1)
  {
  }
}

void SVC_Handler(void)
{
}

void DebugMon_Handler(void)
{
  /* USER CODE BEGIN DebugMonitor_IRQn 0 */
  BENCH_HANDLER_ENTRY();
  /* USER CODE END DebugMonitor_IRQn 0 */
  /* USER CODE BEGIN DebugMonitor_IRQn 1 */

  /* USER CODE END DebugMonitor_IRQn 1 */
}

void PendSV_Handler(void)
{
}

void SysTick_Handler(void)
{
  /* USER CODE BEGIN SysTick_IRQn 0 */
  systick_ms++;
  /* USER CODE END SysTick_IRQn 0 */
}

/******************************************************************************/
/* STM32F4xx Peripheral Interrupt Handlers                                    */
/******************************************************************************/
void EXTI0_IRQHandler(void)
{
  if (EXTI_PR & 1u)
  {
    EXTI_PR = 1u; /* rc_w1: the pending bit is cleared by writing 1 (RM0090 12.3.6) */
    exti_count++;
  }
}

void DMA1_Stream6_IRQHandler(void)
{
  DMA1_HIFCR = 0x3Du << 16; /* stream 6's flags (RM0090 10.5.4); no transfer is ever started */
}

void TIM6_DAC_IRQHandler(void)
{
  if ((TIM6_SR & TIM_SR_UIF) && (TIM6_DIER & TIM_DIER_UIE))
  {
    TIM6_SR = ~TIM_SR_UIF; /* rc_w0 */
    uwTick++;
  }
}
