/* Peripherals on the virtual board (tests/e2e cases uart and plain_blocks): before bench_init() it prints a line
 * on USART2 and touches DMA2, a block the virtual board keeps as plain registers; then it measures the CRC unit
 * over `input` words and prints each result. Register addresses: RM0090 rev 19 (USART 30.6, CRC 4.4, DMA 10.5). */
#include <stdint.h>

#include "bench.h"

#define REG(a)      (*(volatile uint32_t *)(a))
#define RCC_AHB1ENR REG(0x40023830u)
#define RCC_APB1ENR REG(0x40023840u)
#define USART2_SR   REG(0x40004400u)
#define USART2_DR   REG(0x40004404u)
#define USART2_CR1  REG(0x4000440Cu)
#define CRC_DR      REG(0x40023000u)
#define CRC_CR      REG(0x40023008u)
#define DMA2_S0CR   REG(0x40026410u)

volatile int32_t input;

static void uart_puts(const char *s)
{
	for (; *s; s++) {
		while (!(USART2_SR & (1u << 7))) /* TXE */
			;
		USART2_DR = (uint8_t)*s;
	}
}

static void uart_hex(uint32_t v)
{
	char buf[11] = "0x";
	for (int i = 0; i < 8; i++)
		buf[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 0xFu];
	buf[10] = '\0';
	uart_puts(buf);
}

__attribute__((noinline)) uint32_t crc_words(int32_t n)
{
	CRC_CR = 1; /* RESET */
	for (int32_t i = 0; i < n; i++)
		CRC_DR = (uint32_t)i;
	return CRC_DR;
}

int main(void)
{
	RCC_AHB1ENR |= (1u << 12) | (1u << 22); /* CRCEN, DMA2EN */
	RCC_APB1ENR |= 1u << 17;                /* USART2EN */
	USART2_CR1 = (1u << 13) | (1u << 3);    /* UE, TE */
	DMA2_S0CR = 0;                          /* a plain block: noted once */
	uart_puts("hello from periph\r\n");
	bench_init();
	while (bench_sync()) {
		int32_t n = input;
		BENCH_BEGIN(crc);
		uint32_t r = crc_words(n);
		BENCH_END(crc);
		uart_puts("crc ");
		uart_hex(r);
		uart_puts("\r\n");
	}
	bench_done();
	return 0;
}
