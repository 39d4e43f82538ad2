/* This firmware is written for probebench. It is NOT ST's code: it imitates the layout of what
 * STM32CubeMX generates for a Makefile project (Core/Src/main.c with HAL_Init, SystemClock_Config,
 * MX_*_Init and USER CODE sections; a GCC start-up file; a CubeMX-layout linker script; a plain
 * Makefile) and does at register level what such a HAL project does at start, in the HAL's order,
 * so bench is tested on a user's project shape without this tree carrying ST's sources:
 *   - flash prefetch and I/D caches, NVIC priority group 4, TIM6 as the 1 kHz time base (HAL_Init);
 *   - HSE 8 MHz, the PLL to 168 MHz (M 8, N 336, P 2, Q 7), voltage scale 1, flash latency 5,
 *     AHB 1, APB1 4, APB2 2 (SystemClock_Config, in HAL_RCC_OscConfig/ClockConfig's order);
 *   - SysTick at 1 kHz; PA0 as EXTI line 0 (rising edge), PD12 an output; the CRC unit; USART2 at
 *     115200 carrying printf through newlib's _write; DMA1 stream 6 set up for USART2 TX (DMA1 is
 *     kept as plain registers by the virtual board, so the run warns about it) though printf does
 *     not use it, as in many CubeMX projects.
 * Measured (bench.h markers in USER CODE): the CRC of `--arg words=...` words by the CRC unit and in
 * software (Core/Src/fut_crc.c). tests/e2e/integrate_e2e.py (cases cubemx, standalone) checks the
 * cycles and the lines. */
/* clang-format off: the layout is CubeMX's */
#include "main.h"

/* USER CODE BEGIN Includes */
#include <stdio.h>
#include "bench.h"
/* USER CODE END Includes */

/* USER CODE BEGIN PV */
volatile uint32_t words = 4;          /* bench run --arg words=1,4,16,64 writes it at every SYNC */
volatile uint32_t crc_hw_result, crc_sw_result;
volatile uint32_t exti_count;
volatile uint32_t systick_ms;
/* USER CODE END PV */

static void HAL_Init(void);
static void HAL_MspInit(void);
void SystemClock_Config(void);
static void MX_SysTick_Init(void);
static void MX_GPIO_Init(void);
static void MX_DMA_Init(void);
static void MX_CRC_Init(void);
static void MX_USART2_UART_Init(void);

/* USER CODE BEGIN 0 */
int _write(int file, char *ptr, int len);
int _write(int file, char *ptr, int len)
{
  (void)file;
  for (int i = 0; i < len; i++)
  {
    while (!(USART2_SR & USART_SR_TXE))
    {
    }
    USART2_DR = (uint8_t)ptr[i];
  }
  while (!(USART2_SR & USART_SR_TC)) /* the last frame has left, as HAL_UART_Transmit waits */
  {
  }
  return len;
}

static void HAL_Delay(uint32_t Delay)
{
  uint32_t tickstart = HAL_GetTick();
  uint32_t wait = Delay + 1u; /* at least Delay whole ticks, as the HAL's delay */
  while (HAL_GetTick() - tickstart < wait)
  {
  }
}

/* The system clock from the registers (RM0090 6.3.2, 6.3.3): HSI 16 MHz, HSE 8 MHz on the
 * Discovery board, or the PLL's VCO input / M * N / P. */
static uint32_t sysclk_from_registers(void)
{
  uint32_t sws = (RCC_CFGR & RCC_CFGR_SWS_Msk) >> RCC_CFGR_SWS_Pos;
  if (sws == 0u)
    return 16000000u;
  if (sws == 1u)
    return 8000000u;
  uint32_t cfg = RCC_PLLCFGR;
  uint32_t in = (cfg & RCC_PLLCFGR_PLLSRC_HSE) ? 8000000u : 16000000u;
  uint32_t m = cfg & 0x3Fu, n = (cfg >> 6) & 0x1FFu, p = (((cfg >> 16) & 3u) + 1u) * 2u;
  return in / m * n / p;
}
/* USER CODE END 0 */

int main(void)
{
  HAL_Init();
  SystemClock_Config();
  MX_SysTick_Init();
  MX_GPIO_Init();
  MX_DMA_Init();
  MX_CRC_Init();
  MX_USART2_UART_Init();

  /* USER CODE BEGIN 2 */
  for (uint32_t i = 0; i < CRC_DATA_WORDS; i++)
    crc_data[i] = 0x12345678u * (i + 1u) ^ (i << 24);
  printf("clock %lu sws %lu\r\n", (unsigned long)sysclk_from_registers(),
         (unsigned long)((RCC_CFGR & RCC_CFGR_SWS_Msk) >> RCC_CFGR_SWS_Pos));
  uint32_t t0 = HAL_GetTick(), s0 = systick_ms;
  HAL_Delay(3);
  printf("tick %s\r\n", HAL_GetTick() - t0 >= 3u && systick_ms - s0 >= 3u ? "ok" : "stuck");
  EXTI_SWIER = 1u; /* a software edge on line 0 (RM0090 12.3.5): EXTI0_IRQHandler */
  __asm volatile("dsb\n\tisb" ::: "memory"); /* the pended interrupt is taken before what follows */
  printf("exti %lu\r\n", (unsigned long)exti_count);

  bench_init();
  while (bench_sync())
  {
    uint32_t n = words;
    if (n > CRC_DATA_WORDS)
      n = CRC_DATA_WORDS;
    HAL_SuspendTick(); /* no tick interrupt inside a measured stretch */
    BENCH_CALL(crc_hw, crc_hw_result, crc_hw, n);
    BENCH_CALL(crc_sw, crc_sw_result, crc_sw, n);
    HAL_ResumeTick();
    printf("crc words %lu hw %08lx sw %08lx\r\n", (unsigned long)n, (unsigned long)crc_hw_result,
           (unsigned long)crc_sw_result);
  }
  bench_done();
  printf("done\r\n");
  /* nothing left to do: sleep for good (bench-sim --no-debugger ends there). SysTick stops too: a
   * running counter is a timed event even without TICKINT (COUNTFLAG, ARMv7-M B3.3.3). */
  HAL_SuspendTick();
  SYST_CSR = 0u;
  /* USER CODE END 2 */

  while (1)
  {
    /* USER CODE BEGIN 3 */
    __asm volatile("wfi");
  }
  /* USER CODE END 3 */
}

/* HAL_Init's work: flash instruction cache, data cache and prefetch on (RM0090 3.5.2, 3.9.1), all
 * 4 priority bits preemption (AIRCR.PRIGROUP 3, ARMv7-M B3.2.6), the tick at the reset clock,
 * then the MSP hook. */
static void HAL_Init(void)
{
  FLASH_ACR |= FLASH_ACR_ICEN;
  FLASH_ACR |= FLASH_ACR_DCEN;
  FLASH_ACR |= FLASH_ACR_PRFTEN;
  SCB_AIRCR = (0x05FAu << 16) | (3u << 8);
  if (HAL_InitTick(TICK_INT_PRIORITY) != 0)
    Error_Handler();
  HAL_MspInit();
}

/* stm32f4xx_hal_msp.c's HAL_MspInit: the SYSCFG and PWR clocks. */
static void HAL_MspInit(void)
{
  RCC_APB2ENR |= 1u << 14; /* SYSCFGEN */
  (void)RCC_APB2ENR;
  RCC_APB1ENR |= 1u << 28; /* PWREN */
  (void)RCC_APB1ENR;
}

/* Waits for (reg & mask) == want, for at most timeout_ms ticks of the time base, as the HAL's
 * clock functions do; 1 on time-out. */
static int wait_bits(volatile uint32_t *reg, uint32_t mask, uint32_t want, uint32_t timeout_ms)
{
  uint32_t tickstart = HAL_GetTick();
  while ((*reg & mask) != want)
  {
    if (HAL_GetTick() - tickstart > timeout_ms)
      return 1;
  }
  return 0;
}

void SystemClock_Config(void)
{
  /* __HAL_RCC_PWR_CLK_ENABLE, __HAL_PWR_VOLTAGESCALING_CONFIG(scale 1), each read back */
  RCC_APB1ENR |= 1u << 28;
  (void)RCC_APB1ENR;
  PWR_CR |= PWR_CR_VOS;
  (void)PWR_CR;

  /* HAL_RCC_OscConfig: HSE on, wait HSERDY (HSE_STARTUP_TIMEOUT 100 ms) */
  RCC_CR |= RCC_CR_HSEON;
  if (wait_bits(&RCC_CR, RCC_CR_HSERDY, RCC_CR_HSERDY, 100u))
    Error_Handler();
  /* PLL: off through the bit-band alias, wait PLLRDY clear (PLL_TIMEOUT_VALUE 2 ms), configure from
   * HSE (M 8: 1 MHz VCO input; N 336: 336 MHz VCO; P 2: 168 MHz; Q 7: 48 MHz), on, wait PLLRDY */
  RCC_CR_PLLON_BB = 0u;
  if (wait_bits(&RCC_CR, RCC_CR_PLLRDY, 0u, 2u))
    Error_Handler();
  RCC_PLLCFGR = RCC_PLLCFGR_PLLSRC_HSE | 8u | (336u << 6) | (((2u >> 1) - 1u) << 16) | (7u << 24);
  RCC_CR_PLLON_BB = 1u;
  if (wait_bits(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY, 2u))
    Error_Handler();

  /* HAL_RCC_ClockConfig(FLASH_LATENCY_5): more wait states first (5 at 168 MHz and 2.7-3.6 V,
   * RM0090 table 10), by a byte write as __HAL_FLASH_SET_LATENCY does, then read back */
  FLASH_ACR_BYTE0 = 5u;
  if ((FLASH_ACR & FLASH_ACR_LATENCY_Msk) != 5u)
    Error_Handler();
  /* APB prescalers to their largest while HCLK changes, then AHB / 1 */
  RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_PPRE1_Msk) | (7u << RCC_CFGR_PPRE1_Pos);
  RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_PPRE2_Msk) | (7u << RCC_CFGR_PPRE2_Pos);
  RCC_CFGR &= ~RCC_CFGR_HPRE_Msk;
  /* SYSCLK from the PLL (ready checked again), wait SWS (CLOCKSWITCH_TIMEOUT_VALUE 5 s) */
  if (!(RCC_CR & RCC_CR_PLLRDY))
    Error_Handler();
  RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_Msk) | RCC_CFGR_SW_PLL;
  if (wait_bits(&RCC_CFGR, RCC_CFGR_SWS_Msk, RCC_CFGR_SW_PLL << RCC_CFGR_SWS_Pos, 5000u))
    Error_Handler();
  /* APB1 = HCLK / 4 (42 MHz), APB2 = HCLK / 2 (84 MHz) */
  RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_PPRE1_Msk) | (5u << RCC_CFGR_PPRE1_Pos);
  RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_PPRE2_Msk) | (4u << RCC_CFGR_PPRE2_Pos);
  SystemCoreClock = sysclk_from_registers();
  if (HAL_InitTick(TICK_INT_PRIORITY) != 0)
    Error_Handler();
}

/* SysTick at 1 kHz from the core clock (ARMv7-M B3.3): 168000 cycles a tick; its handler counts. */
static void MX_SysTick_Init(void)
{
  SYST_RVR = SystemCoreClock / 1000u - 1u;
  SYST_CVR = 0u;
  SCB_SHPR3 = (SCB_SHPR3 & 0x00FFFFFFu) | (TICK_INT_PRIORITY << 28);
  SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

static void MX_CRC_Init(void)
{
  RCC_AHB1ENR |= 1u << 12; /* CRCEN */
  (void)RCC_AHB1ENR;
}

/* USART2 on PA2 (TX) / PA3 (RX), AF7 (RM0090 8.3.2; the F407 datasheet's alternate-function
 * table), 115200 8N1, TX and RX: USARTDIV = 42 MHz / (16 * 115200) = 22.79, BRR mantissa 22,
 * fraction 13 (RM0090 30.3.4). UE off while configuring, as the HAL's UART_SetConfig. */
static void MX_USART2_UART_Init(void)
{
  RCC_APB1ENR |= 1u << 17; /* USART2EN */
  (void)RCC_APB1ENR;
  GPIO_MODER(GPIOA_BASE) = (GPIO_MODER(GPIOA_BASE) & ~(0xFu << 4)) | (0xAu << 4);
  GPIO_OSPEEDR(GPIOA_BASE) |= 0xFu << 4;
  GPIO_PUPDR(GPIOA_BASE) = (GPIO_PUPDR(GPIOA_BASE) & ~(0xFu << 4)) | (0x5u << 4);
  GPIO_AFRL(GPIOA_BASE) = (GPIO_AFRL(GPIOA_BASE) & ~(0xFFu << 8)) | (0x77u << 8);

  /* the USART2 TX DMA stream, as HAL_UART_MspInit links one: DMA1 stream 6 channel 4 (RM0090
   * table 42), memory to peripheral, memory increment, direct mode; disabled first */
  DMA1_S6CR &= ~DMA_SxCR_EN;
  while (DMA1_S6CR & DMA_SxCR_EN)
  {
  }
  DMA1_S6CR = (4u << 25) | (1u << 10) | (1u << 6);
  DMA1_S6FCR = 0u;
  DMA1_S6PAR = (uint32_t)(uintptr_t)&USART2_DR;
  DMA1_HIFCR = 0x3Du << 16;

  USART2_CR1 &= ~USART_CR1_UE;
  USART2_CR2 = 0u;
  USART2_CR1 = USART_CR1_TE | USART_CR1_RE;
  USART2_CR3 = 0u;
  USART2_BRR = (22u << 4) | 13u;
  USART2_CR1 |= USART_CR1_UE;
}

static void MX_DMA_Init(void)
{
  /* DMA controller clock enable */
  RCC_AHB1ENR |= 1u << 21; /* DMA1EN */
  (void)RCC_AHB1ENR;

  /* DMA interrupt init */
  nvic_enable(DMA1_Stream6_IRQn, 0u);
}

static void MX_GPIO_Init(void)
{
  RCC_AHB1ENR |= (1u << 0) | (1u << 3); /* GPIOAEN, GPIODEN */
  (void)RCC_AHB1ENR;

  /* PD12 (the Discovery's green LED): low, then a push-pull output at low speed */
  GPIO_BSRR(GPIOD_BASE) = 1u << (12 + 16);
  GPIO_MODER(GPIOD_BASE) = (GPIO_MODER(GPIOD_BASE) & ~(3u << 24)) | (1u << 24);

  /* PA0 (the Discovery's user button): input, no pull, EXTI line 0 on port A, rising edge */
  GPIO_MODER(GPIOA_BASE) &= ~3u;
  GPIO_PUPDR(GPIOA_BASE) &= ~3u;
  SYSCFG_EXTICR1 &= ~0xFu;
  EXTI_IMR |= 1u;
  EXTI_RTSR |= 1u;
  EXTI_FTSR &= ~1u;

  /* EXTI interrupt init */
  nvic_enable(EXTI0_IRQn, 0u);
}

void Error_Handler(void)
{
  /* USER CODE BEGIN Error_Handler_Debug */
  printf("Error_Handler\r\n");
  __asm volatile("cpsid i");
  while (1)
  {
  }
  /* USER CODE END Error_Handler_Debug */
}
