/* TIM6 as the 1 kHz tick (uwTick), as a CubeMX project does when "Timebase Source" is TIM6.
 * Written for probebench at register level. TIM6 counts at the APB1 timer clock: PCLK1, times 2
 * when the APB1 prescaler is not 1 (RM0090 6.2, figure 21); the prescaler brings it to 1 MHz and
 * the auto-reload to 1 kHz (RM0090 17.3). */
#include "main.h"

volatile uint32_t uwTick;

static uint32_t apb1_timer_clock(void)
{
	static const uint8_t shift[8] = {0, 0, 0, 0, 1, 2, 3, 4}; /* PPRE1 -> divide by 2^shift */
	uint32_t ppre1 = (RCC_CFGR & RCC_CFGR_PPRE1_Msk) >> RCC_CFGR_PPRE1_Pos;
	uint32_t pclk1 = SystemCoreClock >> shift[ppre1];
	return ppre1 < 4u ? pclk1 : 2u * pclk1;
}

int HAL_InitTick(uint32_t TickPriority)
{
	RCC_APB1ENR |= 1u << 4; /* TIM6EN */
	(void)RCC_APB1ENR;      /* the clock is on before TIM6 is written (RM0090 7.3.13) */
	TIM6_CR1 = 0;
	TIM6_PSC = apb1_timer_clock() / 1000000u - 1u;
	TIM6_ARR = 1000u - 1u;
	TIM6_EGR = TIM_EGR_UG; /* load PSC now; UG sets UIF, which is not a tick */
	TIM6_SR = 0;
	TIM6_DIER = TIM_DIER_UIE;
	TIM6_CR1 = TIM_CR1_CEN;
	nvic_enable(TIM6_DAC_IRQn, TickPriority);
	return 0;
}

uint32_t HAL_GetTick(void)
{
	return uwTick;
}

/* The tick sources stop interrupting (TIM6 update, SysTick): nothing enters a measured stretch,
 * and WFI at the end sleeps for good. The counters keep counting. */
void HAL_SuspendTick(void)
{
	TIM6_DIER &= ~TIM_DIER_UIE;
	SYST_CSR &= ~SYST_CSR_TICKINT;
}

void HAL_ResumeTick(void)
{
	TIM6_DIER |= TIM_DIER_UIE;
	SYST_CSR |= SYST_CSR_TICKINT;
}
