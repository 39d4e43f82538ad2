/* The virtual board: the STM32F4 (chip/stm32f4.h) and its Cortex-M4F (core/core.h) on one system
 * bus (bus/bus.h). Neither part knows the other: this file composes them. The chip puts its memory
 * map on the bus first, so the core maps it into unicorn; the board tells the core how many
 * interrupt lines the chip wires to the NVIC and what a system reset resets (AIRCR.SYSRESETREQ:
 * the chip's peripherals, RM0090 6.1.2); the chip's flash controller tells the core which code it
 * rewrote. The debug port (dap/) and the wires in front of it are main.c's. */
#ifndef SIM_BOARD_H
#define SIM_BOARD_H

#include <stddef.h>

#include "bus/bus.h"
#include "chip/stm32f4.h"
#include "core/core.h"

struct board {
	struct sim_bus bus;
	struct stm32f4 *chip;
	struct sim_core *core;
};

/* Builds the board as after power-on: chip memory map, core, the core's PPB and ROM table. On
 * failure returns -1 with a message in err, and board_free() releases what was made. */
int board_init(struct board *b, const struct sim_config *cfg, char *err, size_t errlen);
void board_free(struct board *b);

#endif /* SIM_BOARD_H */
