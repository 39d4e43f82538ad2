/* NUCLEO-F446RE (STM32F446RE; RM0390): start-up data for target/port/cortex-m (startup.c, stm32f4_clock.c).
 * SYSCLK = (16000000 Hz HSI / PLL_M) * PLL_N / PLL_P = 180000000 Hz;
 * VCO input 2 MHz, VCO output 360 MHz (RM0390 6.3.2: 100-432 MHz). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_IRQS 97                /* external interrupts in the vector table */
#define BOARD_CORE_CLOCK_HZ 180000000u

#define BOARD_CLOCK_STM32F4 1
#define BOARD_HSE_HZ 0              /* 0: the PLL runs from the 16 MHz HSI */
#define BOARD_HSE_BYPASS 0          /* 1: HSE from an external clock (ST-LINK MCO) */
#define BOARD_PLL_M 8u
#define BOARD_PLL_N 180u
#define BOARD_PLL_P 2u
#define BOARD_PLL_Q 7u
#define BOARD_PLL_R 2u              /* PLLCFGR[30:28]; reserved (0) where the part has no PLLR */
#define BOARD_PWR_VOS (3u << 14)          /* PWR_CR.VOS bits [15:14] */
#define BOARD_AHB_HPRE 0u        /* RCC_CFGR.HPRE code */
#define BOARD_APB1_PPRE 5u       /* RCC_CFGR.PPRE1 code: 4 = /2, 5 = /4 */
#define BOARD_APB2_PPRE 4u       /* RCC_CFGR.PPRE2 code */
#define BOARD_FLASH_LATENCY 5u   /* FLASH_ACR.LATENCY wait states at this clock and 3.3 V */
#define BOARD_OVERDRIVE 1         /* 1: over-drive mode (needed above 168 MHz on F446) */

#endif /* BOARD_CONFIG_H */
