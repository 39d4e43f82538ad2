/* The STM32F407 and Cortex-M4 registers this firmware uses, by address (RM0090 rev 19 section 2.3
 * memory map and each peripheral's register map; ARMv7-M ARM B3.2 for the SCS). Written for
 * probebench: a CubeMX project gets these from ST's CMSIS device header, which this tree does not
 * carry. Each macro is a volatile 32-bit register. */
#ifndef F407_REGS_H
#define F407_REGS_H

#include <stdint.h>

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* RCC (RM0090 7.3, base 0x40023800) */
#define RCC_CR        REG32(0x40023800u)
#define RCC_PLLCFGR   REG32(0x40023804u)
#define RCC_CFGR      REG32(0x40023808u)
#define RCC_AHB1ENR   REG32(0x40023830u)
#define RCC_APB1ENR   REG32(0x40023840u)
#define RCC_APB2ENR   REG32(0x40023844u)
#define RCC_CR_HSEON  (1u << 16)
#define RCC_CR_HSERDY (1u << 17)
#define RCC_CR_PLLON  (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
/* RCC_CR.PLLON through the peripheral bit-band alias (RM0090 2.3.3): 0x42000000 + (0x23800 * 32)
 * + (24 * 4): one word write turns the PLL on or off without a read-modify-write of RCC_CR. */
#define RCC_CR_PLLON_BB        REG32(0x42470060u)
#define RCC_PLLCFGR_PLLSRC_HSE (1u << 22)
#define RCC_CFGR_SW_Msk        0x3u
#define RCC_CFGR_SW_PLL        0x2u
#define RCC_CFGR_SWS_Pos       2u
#define RCC_CFGR_SWS_Msk       (0x3u << 2)
#define RCC_CFGR_HPRE_Msk      (0xFu << 4)
#define RCC_CFGR_PPRE1_Pos     10u
#define RCC_CFGR_PPRE1_Msk     (0x7u << 10)
#define RCC_CFGR_PPRE2_Pos     13u
#define RCC_CFGR_PPRE2_Msk     (0x7u << 13)

/* PWR (RM0090 5.4, base 0x40007000): CR.VOS (bit 14) 1 = scale 1, needed for 168 MHz */
#define PWR_CR     REG32(0x40007000u)
#define PWR_CR_VOS (1u << 14)

/* FLASH interface (RM0090 3.9.1, base 0x40023C00) */
#define FLASH_ACR             REG32(0x40023C00u)
#define FLASH_ACR_BYTE0       (*(volatile uint8_t *)(uintptr_t)0x40023C00u)
#define FLASH_ACR_LATENCY_Msk 0x7u
#define FLASH_ACR_PRFTEN      (1u << 8)
#define FLASH_ACR_ICEN        (1u << 9)
#define FLASH_ACR_DCEN        (1u << 10)

/* GPIO (RM0090 8.4): port A at 0x40020000, D at 0x40020C00 */
#define GPIOA_BASE      0x40020000u
#define GPIOD_BASE      0x40020C00u
#define GPIO_MODER(b)   REG32((b) + 0x00u)
#define GPIO_OSPEEDR(b) REG32((b) + 0x08u)
#define GPIO_PUPDR(b)   REG32((b) + 0x0Cu)
#define GPIO_BSRR(b)    REG32((b) + 0x18u)
#define GPIO_AFRL(b)    REG32((b) + 0x20u)

/* SYSCFG (RM0090 9.2, base 0x40013800) and EXTI (12.3, base 0x40013C00) */
#define SYSCFG_EXTICR1 REG32(0x40013808u)
#define EXTI_IMR       REG32(0x40013C00u)
#define EXTI_RTSR      REG32(0x40013C08u)
#define EXTI_FTSR      REG32(0x40013C0Cu)
#define EXTI_SWIER     REG32(0x40013C10u)
#define EXTI_PR        REG32(0x40013C14u)

/* CRC calculation unit (RM0090 4.4, base 0x40023000) */
#define CRC_DR       REG32(0x40023000u)
#define CRC_CR       REG32(0x40023008u)
#define CRC_CR_RESET 1u

/* TIM6 (RM0090 17.4, base 0x40001000) */
#define TIM6_CR1     REG32(0x40001000u)
#define TIM6_DIER    REG32(0x4000100Cu)
#define TIM6_SR      REG32(0x40001010u)
#define TIM6_EGR     REG32(0x40001014u)
#define TIM6_PSC     REG32(0x40001028u)
#define TIM6_ARR     REG32(0x4000102Cu)
#define TIM_CR1_CEN  1u
#define TIM_CR1_URS  (1u << 2)
#define TIM_DIER_UIE 1u
#define TIM_SR_UIF   1u
#define TIM_EGR_UG   1u

/* USART2 (RM0090 30.6, base 0x40004400) */
#define USART2_SR    REG32(0x40004400u)
#define USART2_DR    REG32(0x40004404u)
#define USART2_BRR   REG32(0x40004408u)
#define USART2_CR1   REG32(0x4000440Cu)
#define USART2_CR2   REG32(0x40004410u)
#define USART2_CR3   REG32(0x40004414u)
#define USART_SR_TC  (1u << 6)
#define USART_SR_TXE (1u << 7)
#define USART_CR1_RE (1u << 2)
#define USART_CR1_TE (1u << 3)
#define USART_CR1_UE (1u << 13)

/* DMA1 stream 6 (RM0090 10.5, base 0x40026000; stream x's registers at 0x10 + 0x18 * x) */
#define DMA1_BASE   0x40026000u
#define DMA1_S6CR   REG32(DMA1_BASE + 0x10u + 0x18u * 6u)
#define DMA1_S6NDTR REG32(DMA1_BASE + 0x14u + 0x18u * 6u)
#define DMA1_S6PAR  REG32(DMA1_BASE + 0x18u + 0x18u * 6u)
#define DMA1_S6FCR  REG32(DMA1_BASE + 0x24u + 0x18u * 6u)
#define DMA1_HIFCR  REG32(DMA1_BASE + 0x0Cu)
#define DMA_SxCR_EN (1u << 0)

/* Cortex-M4 system control space (ARMv7-M ARM B3.2, B3.3 SysTick, B3.4 NVIC) */
#define SCB_AIRCR          REG32(0xE000ED0Cu)
#define SCB_SHPR3          REG32(0xE000ED20u)
#define SCB_CPACR          REG32(0xE000ED88u)
#define SCB_VTOR           REG32(0xE000ED08u)
#define SYST_CSR           REG32(0xE000E010u)
#define SYST_RVR           REG32(0xE000E014u)
#define SYST_CVR           REG32(0xE000E018u)
#define SYST_CSR_ENABLE    1u
#define SYST_CSR_TICKINT   (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2)
#define NVIC_ISER(n)       REG32(0xE000E100u + 4u * (n))
#define NVIC_ICER(n)       REG32(0xE000E180u + 4u * (n))
#define NVIC_IPR8(irq)     (*(volatile uint8_t *)(uintptr_t)(0xE000E400u + (irq)))

/* IRQ numbers (RM0090 table 61) */
#define EXTI0_IRQn        6u
#define DMA1_Stream6_IRQn 17u
#define TIM6_DAC_IRQn     54u

static inline void nvic_enable(uint32_t irq, uint32_t prio)
{
	NVIC_IPR8(irq) = (uint8_t)(prio << 4); /* the F407 implements the top 4 priority bits */
	NVIC_ISER(irq >> 5) = 1u << (irq & 31u);
}

#endif
