/* QEMU mps2-an386 (Cortex-M4 with FPU, AN386): start-up data for target/port/cortex-m. The CMSDK
 * subsystem has 32 external interrupts (QEMU hw/arm/mps2.c, "num-irq" 32); no clock set-up: the
 * core runs at QEMU's fixed SYSCLK, 25 MHz. */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_IRQS 32
#define BOARD_CORE_CLOCK_HZ 25000000u

#endif /* BOARD_CONFIG_H */
