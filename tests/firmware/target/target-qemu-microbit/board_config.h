/* Test-only board: QEMU microbit (nRF51822, Cortex-M0). No clock set-up. The test firmware's UART:
 * the nRF51 UART0 (nRF51 Series Reference Manual v3.0, 29.10: ENABLE 0x500 = 4, STARTTX 0x008,
 * TXD 0x51C). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_IRQS 32

#define TEST_UART_INIT()                                                                                               \
	do {                                                                                                           \
		*(volatile unsigned *)0x40002500u = 4u;                                                                \
		*(volatile unsigned *)0x40002008u = 1u;                                                                \
	} while (0)
#define TEST_UART_PUTC(c) (*(volatile unsigned *)0x4000251Cu = (unsigned)(c))

#endif /* BOARD_CONFIG_H */
