/* For tests/target/sim_uart.py: after the start-up code's 168 MHz set-up, prints on USART2 what the
 * RCC and FLASH registers say (the clock switch completed: SWS = PLL, 5 wait states), then stops at
 * the DONE marker. USART2 as on silicon: clock enable, UE + TE, then DR. */
#include <stdint.h>

#include "bench.h"

#define REG(a)      (*(volatile uint32_t *)(a))
#define RCC_CFGR    REG(0x40023808u)
#define RCC_APB1ENR REG(0x40023840u)
#define FLASH_ACR   REG(0x40023C00u)
#define USART2_SR   REG(0x40004400u)
#define USART2_DR   REG(0x40004404u)
#define USART2_BRR  REG(0x40004408u)
#define USART2_CR1  REG(0x4000440Cu)

static void uart_putc(char c)
{
	while (!(USART2_SR & (1u << 7))) /* TXE */
		;
	USART2_DR = (uint8_t)c;
}

static void uart_puts(const char *s)
{
	while (*s)
		uart_putc(*s++);
}

int main(void)
{
	RCC_APB1ENR |= 1u << 17;             /* USART2EN */
	USART2_BRR = 42000000u / 115200u;    /* APB1 at 42 MHz */
	USART2_CR1 = (1u << 13) | (1u << 3); /* UE, TE */
	uart_puts("hello from the virtual board\r\n");
	uart_puts("sws=");
	uart_putc((char)('0' + ((RCC_CFGR >> 2) & 3u)));
	uart_puts(" latency=");
	uart_putc((char)('0' + (FLASH_ACR & 7u)));
	uart_puts("\r\n");
	bench_done();
	return 0;
}
