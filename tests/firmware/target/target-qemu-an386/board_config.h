/* Test-only board: QEMU mps2-an386 (Cortex-M4). No clock set-up (QEMU runs at its fixed SYSCLK). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_IRQS 32

/* The test firmware's UART: CMSDK APB UART0 (Arm DDI0479C 4.2: DATA 0x0, CTRL 0x8 bit 0 TX enable). */
#define TEST_UART_INIT()  (*(volatile unsigned *)0x40004008u = 1u)
#define TEST_UART_PUTC(c) (*(volatile unsigned *)0x40004000u = (unsigned)(c))

#endif /* BOARD_CONFIG_H */
