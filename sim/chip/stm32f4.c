/* The virtual STM32F405/407: memories and DBGMCU (see stm32f4.h for the map; RCC and PWR are
 * stm32f4_rcc.c, the peripheral
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

void stm32f4_connect(struct stm32f4 *st, stm32f4_clock_fn clock, stm32f4_irq_fn irq, void *ctx)
{
	st->clock = clock;
	st->irq = irq;
	st->core_ctx = ctx;
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
	stm32f4_rcc_reset(st);
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
	stm32f4_uart_init(st);
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
	stm32f4_uart_free(st);
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

void stm32f4_uart_flush(struct stm32f4 *st)
{
	stm32f4_uart_flush_all(st);
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
