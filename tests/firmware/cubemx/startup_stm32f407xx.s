/* Start-up code for the STM32F407 in the style of the GCC start-up file a STM32CubeMX Makefile
 * project carries. Written for probebench (not ST's file): it imitates that file's layout and
 * behaviour so tests/firmware/cubemx is shaped like a user's CubeMX project without shipping ST's
 * sources. Reset_Handler sets SP, copies .data from flash (_sidata) to RAM (_sdata.._edata), zeroes
 * .bss (_sbss.._ebss), calls SystemInit, newlib's __libc_init_array and main. The vector table is
 * the 16 Cortex-M4 entries and the STM32F407's 82 interrupts (RM0090 rev 19, section 12.2, table 61:
 * positions 0 to 81), each a weak alias of Default_Handler that the C code may override. */
  .syntax unified
  .cpu cortex-m4
  .fpu softvfp
  .thumb

  .global g_pfnVectors
  .global Default_Handler

  .section .text.Reset_Handler
  .weak Reset_Handler
  .type Reset_Handler, %function
Reset_Handler:
  ldr   r0, =_estack
  mov   sp, r0              /* the debugger may start here with any SP: set it as the vector does */
  /* .data: its initial values are at _sidata in flash */
  ldr   r0, =_sdata
  ldr   r1, =_edata
  ldr   r2, =_sidata
  b     2f
1:
  ldr   r3, [r2], #4
  str   r3, [r0], #4
2:
  cmp   r0, r1
  bcc   1b
  /* .bss: zero */
  ldr   r0, =_sbss
  ldr   r1, =_ebss
  movs  r3, #0
  b     4f
3:
  str   r3, [r0], #4
4:
  cmp   r0, r1
  bcc   3b
  bl    SystemInit
  bl    __libc_init_array   /* C++ constructors and .init_array functions */
  bl    main
5:
  b     5b                  /* main does not return; stay here if it does */
  .size Reset_Handler, .-Reset_Handler

/* Every interrupt nobody handles ends here, in a loop a debugger can see. */
  .section .text.Default_Handler,"ax",%progbits
  .type Default_Handler, %function
Default_Handler:
  b     Default_Handler
  .size Default_Handler, .-Default_Handler

/* One vector: a word with the handler's address, and the handler a weak alias of Default_Handler. */
  .macro vec name
  .word \name
  .weak \name
  .thumb_set \name, Default_Handler
  .endm

  .section .isr_vector,"a",%progbits
  .type g_pfnVectors, %object
g_pfnVectors:
  .word _estack
  .word Reset_Handler
  vec NMI_Handler
  vec HardFault_Handler
  vec MemManage_Handler
  vec BusFault_Handler
  vec UsageFault_Handler
  .word 0
  .word 0
  .word 0
  .word 0
  vec SVC_Handler
  vec DebugMon_Handler
  .word 0
  vec PendSV_Handler
  vec SysTick_Handler
  /* IRQ 0 to 81 */
  vec WWDG_IRQHandler               /* 0 */
  vec PVD_IRQHandler
  vec TAMP_STAMP_IRQHandler
  vec RTC_WKUP_IRQHandler
  vec FLASH_IRQHandler
  vec RCC_IRQHandler
  vec EXTI0_IRQHandler              /* 6 */
  vec EXTI1_IRQHandler
  vec EXTI2_IRQHandler
  vec EXTI3_IRQHandler
  vec EXTI4_IRQHandler
  vec DMA1_Stream0_IRQHandler       /* 11 */
  vec DMA1_Stream1_IRQHandler
  vec DMA1_Stream2_IRQHandler
  vec DMA1_Stream3_IRQHandler
  vec DMA1_Stream4_IRQHandler
  vec DMA1_Stream5_IRQHandler
  vec DMA1_Stream6_IRQHandler       /* 17 */
  vec ADC_IRQHandler
  vec CAN1_TX_IRQHandler
  vec CAN1_RX0_IRQHandler           /* 20 */
  vec CAN1_RX1_IRQHandler
  vec CAN1_SCE_IRQHandler
  vec EXTI9_5_IRQHandler
  vec TIM1_BRK_TIM9_IRQHandler
  vec TIM1_UP_TIM10_IRQHandler
  vec TIM1_TRG_COM_TIM11_IRQHandler
  vec TIM1_CC_IRQHandler
  vec TIM2_IRQHandler
  vec TIM3_IRQHandler
  vec TIM4_IRQHandler               /* 30 */
  vec I2C1_EV_IRQHandler
  vec I2C1_ER_IRQHandler
  vec I2C2_EV_IRQHandler
  vec I2C2_ER_IRQHandler
  vec SPI1_IRQHandler
  vec SPI2_IRQHandler
  vec USART1_IRQHandler
  vec USART2_IRQHandler             /* 38 */
  vec USART3_IRQHandler
  vec EXTI15_10_IRQHandler          /* 40 */
  vec RTC_Alarm_IRQHandler
  vec OTG_FS_WKUP_IRQHandler
  vec TIM8_BRK_TIM12_IRQHandler
  vec TIM8_UP_TIM13_IRQHandler
  vec TIM8_TRG_COM_TIM14_IRQHandler
  vec TIM8_CC_IRQHandler
  vec DMA1_Stream7_IRQHandler
  vec FSMC_IRQHandler
  vec SDIO_IRQHandler
  vec TIM5_IRQHandler               /* 50 */
  vec SPI3_IRQHandler
  vec UART4_IRQHandler
  vec UART5_IRQHandler
  vec TIM6_DAC_IRQHandler           /* 54 */
  vec TIM7_IRQHandler
  vec DMA2_Stream0_IRQHandler
  vec DMA2_Stream1_IRQHandler
  vec DMA2_Stream2_IRQHandler
  vec DMA2_Stream3_IRQHandler
  vec DMA2_Stream4_IRQHandler       /* 60 */
  vec ETH_IRQHandler
  vec ETH_WKUP_IRQHandler
  vec CAN2_TX_IRQHandler
  vec CAN2_RX0_IRQHandler
  vec CAN2_RX1_IRQHandler
  vec CAN2_SCE_IRQHandler
  vec OTG_FS_IRQHandler
  vec DMA2_Stream5_IRQHandler
  vec DMA2_Stream6_IRQHandler
  vec DMA2_Stream7_IRQHandler       /* 70 */
  vec USART6_IRQHandler
  vec I2C3_EV_IRQHandler
  vec I2C3_ER_IRQHandler
  vec OTG_HS_EP1_OUT_IRQHandler
  vec OTG_HS_EP1_IN_IRQHandler
  vec OTG_HS_WKUP_IRQHandler
  vec OTG_HS_IRQHandler
  vec DCMI_IRQHandler
  vec CRYP_IRQHandler               /* 79: the F415/F417 only, unused on the F407 */
  vec HASH_RNG_IRQHandler
  vec FPU_IRQHandler                /* 81 */
  .size g_pfnVectors, .-g_pfnVectors
