/* The virtual STM32F405/407: memories, RCC, PWR and DBGMCU (see stm32f4.h for the map; the peripheral
 * block table is stm32f4_map.c, the FLASH controller stm32f4_flash.c, GPIO/SYSCFG/EXTI stm32f4_gpio.c,
 * TIM2-TIM7 stm32f4_tim.c, CRC/RNG/USART stm32f4_misc.c). Register layouts and reset values are RM0090
 * rev 19's; only what firmware start-up code and OpenOCD's stm32f2x driver rely on has behaviour,
 * the rest stores what is written. */
#include "chip/stm32f4.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chip/stm32f4_priv.h"

#define DBGMCU_BASE 0xE0042000u
#define DBGMCU_SIZE 0x1000u

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

void stm32f4_connect(struct stm32f4 *st, stm32f4_clock_fn clock, stm32f4_irq_fn irq, void *ctx)
{
	st->clock = clock;
	st->irq = irq;
	st->core_ctx = ctx;
}

void stm32f4_raise_irq(struct stm32f4 *st, unsigned irq)
{
	if (st->irq)
		st->irq(st->core_ctx, irq);
}

uint64_t stm32f4_now(struct stm32f4 *st, uint32_t addr)
{
	return st->clock ? st->clock(st->core_ctx, addr) : 0;
}

/* ---- DBGMCU (RM0090 38.16) ------------------------------------------------------------------ */

static enum bus_result dbgmcu_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *value)
{
	struct stm32f4 *st = ctx;
	uint32_t v;
	switch (off & ~3u) {
	case 0x00:
		v = STM32F4_DBGMCU_IDCODE;
		break;
	case 0x04:
		v = st->dbgmcu_cr;
		break;
	case 0x08:
		v = st->dbgmcu_apb1_fz;
		break;
	case 0x0C:
		v = st->dbgmcu_apb2_fz;
		break;
	default:
		return BUS_ERROR;
	}
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

static enum bus_result dbgmcu_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t value)
{
	struct stm32f4 *st = ctx;
	switch (off & ~3u) {
	case 0x00:
		return BUS_OK; /* IDCODE is read-only */
	case 0x04:
		st->dbgmcu_cr = bus_merge(st->dbgmcu_cr, off, size, value) & 0xE7u;
		return BUS_OK;
	case 0x08:
		st->dbgmcu_apb1_fz = bus_merge(st->dbgmcu_apb1_fz, off, size, value);
		return BUS_OK;
	case 0x0C:
		st->dbgmcu_apb2_fz = bus_merge(st->dbgmcu_apb2_fz, off, size, value);
		return BUS_OK;
	default:
		return BUS_ERROR;
	}
}

/* ---- memories ----------------------------------------------------------------------------- */

static enum bus_result flash_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t value)
{
	return stm32f4_flash_array_write(ctx, off, size, value);
}

static enum bus_result sysmem_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t value)
{
	return stm32f4_sysmem_write(ctx, off, size, value);
}

static void sysmem_init(struct stm32f4 *st)
{
	uint8_t *m = st->sysmem;
	memset(m, 0xFF, STM32F4_SYSMEM_SIZE); /* no ST bootloader: erased */
	/* Unique ID: a fixed, recognisable value ("BENCHSIM" + 4 bytes). */
	static const uint8_t uid[12] = {'B', 'E', 'N', 'C', 'H', 'S', 'I', 'M', 0x00, 0x00, 0x00, 0x01};
	memcpy(m + STM32F4_UID_OFF, uid, sizeof(uid));
	uint16_t kib = STM32F4_FLASH_SIZE / 1024;
	m[STM32F4_FSIZE_OFF] = (uint8_t)kib;
	m[STM32F4_FSIZE_OFF + 1] = (uint8_t)(kib >> 8);
	/* Option bytes as shipped: RDP level 0 (0xAA), USER 0xEF, nWRP all ones (RM0090 3.6.1). */
	static const uint8_t opt[] = {0xEF, 0xAA, 0x10, 0x55, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 0xF0};
	memcpy(m + STM32F4_OPTBYTES_OFF, opt, sizeof(opt));
}

static void errmsg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static void *page_alloc(size_t size, int fill)
{
	void *p = aligned_alloc(4096, size); /* unicorn maps host memory by 4 KiB pages */
	if (p)
		memset(p, fill, size);
	return p;
}

void stm32f4_reset(struct stm32f4 *st)
{
	memset(st->rcc, 0, sizeof(st->rcc));
	for (size_t i = 0; i < sizeof(rcc_reset) / sizeof(rcc_reset[0]); i++)
		st->rcc[rcc_reset[i].off / 4] = rcc_reset[i].value;
	st->pwr_cr = 0x00004000; /* VOS = 1: scale 1 (RM0090 5.4.1) */
	st->pwr_csr = 0;
	stm32f4_gpio_reset(st);
	stm32f4_tim_reset(st);
	stm32f4_misc_reset(st);
	stm32f4_map_reset(st);
	/* DBGMCU is reset by power-on only (RM0090 38.16.3): keep what the debugger set. */
	stm32f4_flash_reset(st);
}

int stm32f4_init(struct sim_bus *bus, struct stm32f4 **out, const struct stm32f4_config *cfg, char *err, size_t errlen)
{
	*out = NULL;
	struct stm32f4 *st = calloc(1, sizeof(*st));
	if (!st) {
		errmsg(err, errlen, "stm32f4: out of memory");
		return -1;
	}
	if (cfg)
		st->cfg = *cfg;
	st->flash = page_alloc(STM32F4_FLASH_SIZE, 0xFF);
	st->sram = page_alloc(STM32F4_SRAM_SIZE, 0);
	st->ccm = page_alloc(STM32F4_CCM_SIZE, 0);
	st->sysmem = page_alloc(STM32F4_SYSMEM_SIZE, 0xFF);
	st->bkpsram = page_alloc(0x1000, 0);
	if (!st->flash || !st->sram || !st->ccm || !st->sysmem || !st->bkpsram) {
		stm32f4_free(st);
		errmsg(err, errlen, "stm32f4: out of memory for %u KiB of flash and RAM",
		       (STM32F4_FLASH_SIZE + STM32F4_SRAM_SIZE + STM32F4_CCM_SIZE + STM32F4_SYSMEM_SIZE) / 1024);
		return -1;
	}
	if (art_init(&st->art) != 0) {
		stm32f4_free(st);
		errmsg(err, errlen, "stm32f4: out of memory for the flash accelerator's line table");
		return -1;
	}
	sysmem_init(st);
	st->dbgmcu_cr = 0;
	stm32f4_reset(st);

	const struct bus_region regions[] = {
	    {"flash-alias", STM32F4_FLASH_ALIAS, STM32F4_FLASH_SIZE, st->flash, NULL, flash_write, st},
	    {"flash", STM32F4_FLASH_BASE, STM32F4_FLASH_SIZE, st->flash, NULL, flash_write, st},
	    {"ccm", STM32F4_CCM_BASE, STM32F4_CCM_SIZE, st->ccm, NULL, NULL, NULL},
	    {"sysmem", STM32F4_SYSMEM_BASE, STM32F4_SYSMEM_SIZE, st->sysmem, NULL, sysmem_write, st},
	    {"sram", STM32F4_SRAM_BASE, STM32F4_SRAM_SIZE, st->sram, NULL, NULL, NULL},
	    {"dbgmcu", DBGMCU_BASE, DBGMCU_SIZE, NULL, dbgmcu_read, dbgmcu_write, st},
	};
	size_t n_before = bus->n_regions;
	if (stm32f4_map_init(st, bus) != 0) {
		errmsg(
		    err, errlen,
		    "stm32f4: cannot add the peripheral windows to the bus (map full, overlapping, or out of memory)");
		bus->n_regions = n_before;
		bus->last = NULL;
		stm32f4_free(st);
		return -1;
	}
	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		if (bus_add_region(bus, &regions[i]) != 0) {
			errmsg(err, errlen, "stm32f4: cannot add %s at 0x%08x to the bus (map full or overlapping)",
			       regions[i].name, regions[i].base);
			/* Take back what was added: those regions point into memory freed below. */
			bus->n_regions = n_before;
			bus->last = NULL;
			stm32f4_free(st);
			return -1;
		}
	}
	*out = st;
	return 0;
}

void stm32f4_free(struct stm32f4 *st)
{
	if (!st)
		return;
	stm32f4_uart_flush_all(st);
	stm32f4_map_free(st);
	free(st->bkpsram);
	free(st->flash);
	free(st->sram);
	free(st->ccm);
	free(st->sysmem);
	art_free(&st->art);
	free(st);
}

void stm32f4_on_code_write(struct stm32f4 *st, stm32f4_code_write_fn fn, void *ctx)
{
	st->on_code_write = fn;
	st->on_code_write_ctx = ctx;
}

int stm32f4_flash_load(struct stm32f4 *st, uint32_t addr, const void *data, size_t len)
{
	uint32_t off;
	if (addr >= STM32F4_FLASH_BASE && addr - STM32F4_FLASH_BASE < STM32F4_FLASH_SIZE)
		off = addr - STM32F4_FLASH_BASE;
	else if (addr < STM32F4_FLASH_SIZE)
		off = addr;
	else
		return -1;
	if (len > STM32F4_FLASH_SIZE - off)
		return -1;
	memcpy(st->flash + off, data, len);
	if (st->on_code_write && len) {
		st->on_code_write(st->on_code_write_ctx, STM32F4_FLASH_BASE + off, (uint32_t)len);
		st->on_code_write(st->on_code_write_ctx, STM32F4_FLASH_ALIAS + off, (uint32_t)len);
	}
	return 0;
}

void stm32f4_set_uart_out(struct stm32f4 *st, FILE *out)
{
	stm32f4_uart_flush_all(st);
	st->uart_out = out;
}

unsigned stm32f4_flash_latency(const struct stm32f4 *st)
{
	return st->fl.acr & 0x7u;
}

struct stm32f4_art *stm32f4_art(struct stm32f4 *st)
{
	return &st->art;
}
