/* For target.flash_from_core_on_sim: the core programs flash the way OpenOCD's stm32f2x loader does
 * (KEYR unlock, FLASH_CR = PG | PSIZE_16, STRH, poll FLASH_SR.BSY), then tries a plain store with PG
 * clear, which must leave flash as it was and set FLASH_SR.PGSERR (RM0090 3.6.4, 3.9.6). Prints the
 * results on USART2 and stops at DONE. */
#include <stdint.h>

#include "bench.h"

#define REG(a)      (*(volatile uint32_t *)(a))
#define FLASH_KEYR  REG(0x40023C04u)
#define FLASH_SR    REG(0x40023C0Cu)
#define FLASH_CR    REG(0x40023C10u)
#define USART2_SR   REG(0x40004400u)
#define USART2_DR   REG(0x40004404u)
#define USART2_CR1  REG(0x4000440Cu)
#define RCC_APB1ENR REG(0x40023840u)
#define TARGET      ((volatile uint16_t *)0x080E0000u) /* sector 11, erased */

static void putc_(char c)
{
	while (!(USART2_SR & (1u << 7)))
		;
	USART2_DR = (uint8_t)c;
}

static void puts_(const char *s)
{
	while (*s)
		putc_(*s++);
}

static void hex(uint32_t v, int digits)
{
	while (digits--)
		putc_("0123456789abcdef"[(v >> (4 * digits)) & 0xFu]);
}

int main(void)
{
	RCC_APB1ENR |= 1u << 17;
	USART2_CR1 = (1u << 13) | (1u << 3);
	FLASH_KEYR = 0x45670123u;
	FLASH_KEYR = 0xCDEF89ABu;
	FLASH_CR = 0x101u; /* PG | PSIZE_16 */
	TARGET[0] = 0x1234u;
	while (FLASH_SR & (1u << 16))
		;
	uint32_t sr1 = FLASH_SR;
	FLASH_CR = 1u << 31; /* LOCK, PG clear */
	TARGET[1] = 0x5678u;
	uint32_t sr2 = FLASH_SR;
	puts_("prog=");
	hex(TARGET[0], 4);
	puts_(" sr=");
	hex(sr1, 2);
	puts_(" plain=");
	hex(TARGET[1], 4);
	puts_(" sr=");
	hex(sr2, 2);
	puts_("\n");
	bench_done();
	return 0;
}
