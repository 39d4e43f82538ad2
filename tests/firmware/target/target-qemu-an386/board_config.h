/* Test-only board: QEMU mps2-an386. No clock set-up (QEMU runs at its fixed SYSCLK). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_IRQS 32

#endif /* BOARD_CONFIG_H */
