/* The STM32F4's reset and clock control and power controller (RM0090 chapters 7 and 5), and the
 * FLASH interface's row of the peripheral block table (its registers are stm32f4_flash.c's): what
 * the other parts of the chip ask of the clock tree (the APB1 timer clock), below them all. */
#include <stdbool.h>
#include <string.h>

#include "chip/stm32f4_priv.h"

/* RCC_CR bits (RM0090 7.3.1): each oscillator / PLL is ready as soon as it is switched on. */
#define RCC_CR_HSION     (1u << 0)
#define RCC_CR_HSIRDY    (1u << 1)
#define RCC_CR_HSEON     (1u << 16)
#define RCC_CR_HSERDY    (1u << 17)
#define RCC_CR_PLLON     (1u << 24)
#define RCC_CR_PLLRDY    (1u << 25)
#define RCC_CR_PLLI2SON  (1u << 26)
#define RCC_CR_PLLI2SRDY (1u << 27)
#define RCC_CR_RDY_MASK  (RCC_CR_HSIRDY | RCC_CR_HSERDY | RCC_CR_PLLRDY | RCC_CR_PLLI2SRDY)
/* RCC_CSR LSIRDY follows LSION (RM0090 7.3.21). */
#define RCC_CSR_LSION  (1u << 0)
#define RCC_CSR_LSIRDY (1u << 1)

/* PWR_CSR.VOSRDY (RM0090 5.4.2): the regulator scale is always ready. */
#define PWR_CSR_VOSRDY (1u << 14)

/* Reset values of RCC registers, by word index (RM0090 7.3.24 register map). */
static const struct {
	uint32_t off, value;
} rcc_reset[] = {
    {0x00, 0x00000083}, /* CR: HSION, HSIRDY, HSITRIM 16 */
    {0x04, 0x24003010}, /* PLLCFGR */
    {0x30, 0x00100000}, /* AHB1ENR: CCMDATARAMEN */
    {0x50, 0x7E6791FF}, /* AHB1LPENR */
    {0x54, 0x000000F1}, /* AHB2LPENR */
    {0x58, 0x00000001}, /* AHB3LPENR */
    {0x60, 0x36FEC9FF}, /* APB1LPENR */
    {0x64, 0x00075F33}, /* APB2LPENR */
    {0x74, 0x0E000000}, /* CSR: reset flags PORRSTF, PINRSTF, BORRSTF */
    {0x84, 0x20003000}, /* PLLI2SCFGR */
};

/* ---- RCC ---------------------------------------------------------------------------------- */

static bool rcc_source_ready(const struct stm32f4 *st, uint32_t sw)
{
	uint32_t cr = st->rcc[0];
	switch (sw) {
	case 0:
		return cr & RCC_CR_HSION;
	case 1:
		return cr & RCC_CR_HSEON;
	case 2:
		return cr & RCC_CR_PLLON;
	default:
		return false; /* SW = 3 is "not allowed" (RM0090 7.3.3) */
	}
}

enum bus_result stm32f4_rcc_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value)
{
	(void)b, (void)who;
	uint32_t w = off & ~3u;
	if (w >= sizeof(st->rcc)) {
		*value = 0; /* reserved to the end of the block */
		return BUS_OK;
	}
	uint32_t v = st->rcc[w / 4];
	if (w == 0x00) {
		/* RDY bits sit one above their ON bits. */
		v = (v & ~RCC_CR_RDY_MASK) |
		    ((v & (RCC_CR_HSION | RCC_CR_HSEON | RCC_CR_PLLON | RCC_CR_PLLI2SON)) << 1);
	} else if (w == 0x08) {
		/* CFGR.SWS: the clock switch completes at once when the requested source is ready
		 * (RM0090 7.3.3); otherwise the HSI stays the system clock. */
		uint32_t sw = v & 3u;
		uint32_t sws = rcc_source_ready(st, sw) ? sw : 0u;
		v = (v & ~0xCu) | (sws << 2);
	} else if (w == 0x74) {
		v = (v & ~RCC_CSR_LSIRDY) | ((v & RCC_CSR_LSION) << 1);
	}
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

enum bus_result stm32f4_rcc_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value)
{
	(void)b, (void)who;
	uint32_t w = off & ~3u;
	if (w >= sizeof(st->rcc))
		return BUS_OK;
	uint32_t v = bus_merge(st->rcc[w / 4], off, size, value);
	/* HSION cannot be cleared while the HSI is the system clock (RM0090 7.3.1). */
	if (w == 0x00 && (st->rcc[2] & 3u) == 0)
		v |= RCC_CR_HSION;
	if (w == 0x08)
		v &= ~0xCu; /* SWS is read-only */
	st->rcc[w / 4] = v;
	return BUS_OK;
}

/* ---- PWR ---------------------------------------------------------------------------------- */

enum bus_result stm32f4_pwr_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value)
{
	(void)b, (void)who;
	uint32_t w = off & ~3u;
	if (w == 0x00)
		*value = bus_extract(st->pwr_cr, off, size);
	else if (w == 0x04)
		*value = bus_extract(st->pwr_csr | PWR_CSR_VOSRDY, off, size);
	else
		*value = 0; /* reserved to the end of the block */
	return BUS_OK;
}

enum bus_result stm32f4_pwr_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value)
{
	(void)b, (void)who;
	uint32_t w = off & ~3u;
	if (w == 0x00)
		st->pwr_cr = bus_merge(st->pwr_cr, off, size, value);
	else if (w == 0x04)
		st->pwr_csr = bus_merge(st->pwr_csr, off, size, value) & 0x300u; /* EWUP, BRE writable */
	return BUS_OK;
}

enum bus_result stm32f4_flash_blk_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                       enum bus_initiator who, uint32_t *value)
{
	(void)b, (void)who;
	if (off >= 0x18u) {
		*value = 0; /* reserved to the end of the block: reads 0 */
		return BUS_OK;
	}
	return stm32f4_flash_reg_read(st, off, size, value);
}

enum bus_result stm32f4_flash_blk_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                        enum bus_initiator who, uint32_t value)
{
	(void)b, (void)who;
	if (off >= 0x18u)
		return BUS_OK;                                /* reserved to the end of the block */
	return stm32f4_flash_reg_write(st, off, size, value); /* a wrong key is an AHB error (RM0090 3.5.1) */
}

void stm32f4_apb1_timer_ratio(const struct stm32f4 *st, uint32_t *num, uint32_t *den)
{
	uint32_t ppre1 = (st->rcc[0x08 / 4] >> 10) & 7u; /* RCC_CFGR.PPRE1 (7.3.3) */
	if (ppre1 < 4) {
		*num = *den = 1;
		return;
	}
	*num = 2; /* APB1 timer clock = 2 x PCLK1 when the APB1 prescaler is not 1 (7.2) */
	*den = 2u << (ppre1 - 4);
}

void stm32f4_rcc_reset(struct stm32f4 *st)
{
	memset(st->rcc, 0, sizeof(st->rcc));
	for (size_t i = 0; i < sizeof(rcc_reset) / sizeof(rcc_reset[0]); i++)
		st->rcc[rcc_reset[i].off / 4] = rcc_reset[i].value;
	st->pwr_cr = 0x00004000; /* VOS = 1: scale 1 (RM0090 5.4.1) */
	st->pwr_csr = 0;
}
