/* Shared declarations of the CubeMX-shaped test firmware (tests/firmware/cubemx), in the place a
 * CubeMX project has Core/Inc/main.h. Written for probebench; see Core/Src/main.c. */
#ifndef MAIN_H
#define MAIN_H

#include <stdint.h>
#include "f407_regs.h"

#define CRC_DATA_WORDS    64u
#define TICK_INT_PRIORITY 15u /* the time base's priority, CubeMX's default: the lowest */

extern uint32_t crc_data[CRC_DATA_WORDS];
extern uint32_t SystemCoreClock;
extern volatile uint32_t uwTick;

uint32_t crc_hw(uint32_t n);
uint32_t crc_sw(uint32_t n);

void SystemInit(void);
int HAL_InitTick(uint32_t TickPriority);
uint32_t HAL_GetTick(void);
void HAL_SuspendTick(void);
void HAL_ResumeTick(void);
void Error_Handler(void);

#endif
