/* STM32F4 clock set-up from the board's data (board_config.h): HSE or HSI into the main PLL, the
 * regulator scale, over-drive where the board needs it, flash wait states, bus prescalers, then the
 * switch to the PLL. The sequence is RM0090 rev 19 section 7.2 / RM0390 section 6.2 (F446); each
 * wait is bounded so a board without its crystal keeps running on the 16 MHz HSI. */
#include <stdint.h>

#include "board_config.h"

#if defined(BOARD_CLOCK_STM32F4)

/* The board's numbers, checked at build time: VCO input 1-2 MHz, VCO output 100-432 MHz
 * (RM0090 7.3.2), and the result is the clock board.json promises the host. */
#define CLOCK_SRC_HZ     (BOARD_HSE_HZ ? BOARD_HSE_HZ : 16000000)
#define CLOCK_VCO_IN_HZ  (CLOCK_SRC_HZ / BOARD_PLL_M)
#define CLOCK_VCO_OUT_HZ (CLOCK_VCO_IN_HZ * BOARD_PLL_N)
#if CLOCK_VCO_IN_HZ < 1000000 || CLOCK_VCO_IN_HZ > 2000000
#error "board_config.h: PLL input (source / BOARD_PLL_M) must be 1-2 MHz"
#endif
#if CLOCK_VCO_OUT_HZ < 100000000 || CLOCK_VCO_OUT_HZ > 432000000
#error "board_config.h: VCO output (input * BOARD_PLL_N) must be 100-432 MHz"
#endif
#if CLOCK_VCO_OUT_HZ / BOARD_PLL_P != BOARD_CORE_CLOCK_HZ
#error "board_config.h: the PLL does not give BOARD_CORE_CLOCK_HZ"
#endif
#if defined(BOARD_JSON_CORE_CLOCK_HZ) && BOARD_JSON_CORE_CLOCK_HZ != BOARD_CORE_CLOCK_HZ
#error "board.json core_clock_hz differs from board_config.h BOARD_CORE_CLOCK_HZ"
#endif

#define REG(a)      (*(volatile uint32_t *)(a))
#define RCC_CR      REG(0x40023800u)
#define RCC_PLLCFGR REG(0x40023804u)
#define RCC_CFGR    REG(0x40023808u)
#define RCC_APB1ENR REG(0x40023840u)
#define PWR_CR      REG(0x40007000u)
#define PWR_CSR     REG(0x40007004u)
#define FLASH_ACR   REG(0x40023C00u)

#define RCC_CR_HSEON      (1u << 16)
#define RCC_CR_HSERDY     (1u << 17)
#define RCC_CR_HSEBYP     (1u << 18)
#define RCC_CR_PLLON      (1u << 24)
#define RCC_CR_PLLRDY     (1u << 25)
#define RCC_APB1ENR_PWREN (1u << 28)
#define PWR_CR_VOS_MASK   (3u << 14)
#define PWR_CR_ODEN       (1u << 16) /* F42x/F446 over-drive (RM0390 5.4.1) */
#define PWR_CR_ODSWEN     (1u << 17)
#define PWR_CSR_ODRDY     (1u << 16)
#define PWR_CSR_ODSWRDY   (1u << 17)
#define FLASH_ACR_PRFTEN  (1u << 8)
#define FLASH_ACR_ICEN    (1u << 9)
#define FLASH_ACR_DCEN    (1u << 10)

#define CLOCK_WAIT 100000u

static int wait_set(volatile uint32_t *reg, uint32_t mask, uint32_t want)
{
	for (uint32_t n = 0; n < CLOCK_WAIT; n++)
		if ((*reg & mask) == want)
			return 0;
	return -1;
}

void bench_board_clock_init(void)
{
	uint32_t src = 0; /* PLLSRC: 0 HSI, 1 HSE */
	/* Without a reset since the last set-up (or after OpenOCD's reset-init, which starts the PLL),
	 * the PLL may be the system clock: back to HSI and PLL off, since PLLCFGR only takes while the
	 * PLL is off (RM0090 7.3.2). */
	if ((RCC_CFGR & 0xCu) == (2u << 2)) {
		RCC_CFGR &= ~3u;
		if (wait_set(&RCC_CFGR, 0xCu, 0u) != 0)
			return;
	}
	RCC_CR &= ~RCC_CR_PLLON;
	if (wait_set(&RCC_CR, RCC_CR_PLLRDY, 0u) != 0)
		return;
#if BOARD_HSE_HZ
	RCC_CR |= RCC_CR_HSEON | (BOARD_HSE_BYPASS ? RCC_CR_HSEBYP : 0u);
	if (wait_set(&RCC_CR, RCC_CR_HSERDY, RCC_CR_HSERDY) != 0)
		return; /* no crystal: stay on HSI */
	src = 1;
#endif
	RCC_APB1ENR |= RCC_APB1ENR_PWREN;
	PWR_CR = (PWR_CR & ~PWR_CR_VOS_MASK) | BOARD_PWR_VOS;
	RCC_CFGR = (BOARD_AHB_HPRE << 4) | (BOARD_APB1_PPRE << 10) | (BOARD_APB2_PPRE << 13);
	RCC_PLLCFGR = BOARD_PLL_M | (BOARD_PLL_N << 6) | (((BOARD_PLL_P / 2u) - 1u) << 16) | (src << 22) |
	              (BOARD_PLL_Q << 24) | (BOARD_PLL_R << 28);
	RCC_CR |= RCC_CR_PLLON;
	if (wait_set(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY) != 0)
		return;
#if BOARD_OVERDRIVE
	PWR_CR |= PWR_CR_ODEN;
	if (wait_set(&PWR_CSR, PWR_CSR_ODRDY, PWR_CSR_ODRDY) != 0)
		return;
	PWR_CR |= PWR_CR_ODSWEN;
	if (wait_set(&PWR_CSR, PWR_CSR_ODSWRDY, PWR_CSR_ODSWRDY) != 0)
		return;
#endif
	/* Wait states before the faster clock (RM0090 3.5.1, table 10). */
	FLASH_ACR = FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN | BOARD_FLASH_LATENCY;
	if (wait_set(&FLASH_ACR, 0xFu, BOARD_FLASH_LATENCY) != 0)
		return;
	RCC_CFGR = (RCC_CFGR & ~3u) | 2u; /* SW = PLL */
	(void)wait_set(&RCC_CFGR, 0xCu, 2u << 2);
}

#endif /* BOARD_CLOCK_STM32F4 */
