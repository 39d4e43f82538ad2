/* SystemInit, which the start-up file calls before .data and .bss are used by C code, in the place
 * a CubeMX project has system_stm32f4xx.c. Written for probebench (not ST's file): it grants the
 * FPU (CPACR CP10/CP11 full access, ARMv7-M ARM B3.2.20) because the code is built with
 * -mfloat-abi=hard, and points VTOR at the flash vector table; the clock stays HSI 16 MHz until
 * SystemClock_Config. */
#include "main.h"

uint32_t SystemCoreClock = 16000000u; /* HSI after reset (RM0090 6.2.2) */

void SystemInit(void)
{
	SCB_CPACR |= (3u << 20) | (3u << 22);
	SCB_VTOR = 0x08000000u;
}
