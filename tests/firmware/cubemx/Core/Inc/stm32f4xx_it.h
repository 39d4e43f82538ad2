/* The handlers Core/Src/stm32f4xx_it.c defines (they replace the start-up file's weak aliases). */
#ifndef STM32F4XX_IT_H
#define STM32F4XX_IT_H

void NMI_Handler(void);
void HardFault_Handler(void);
void MemManage_Handler(void);
void BusFault_Handler(void);
void UsageFault_Handler(void);
void SVC_Handler(void);
void DebugMon_Handler(void);
void PendSV_Handler(void);
void SysTick_Handler(void);
void EXTI0_IRQHandler(void);
void DMA1_Stream6_IRQHandler(void);
void TIM6_DAC_IRQHandler(void);

#endif
