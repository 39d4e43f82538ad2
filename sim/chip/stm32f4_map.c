/* The STM32F407's peripheral map as data (RM0090 rev 19, 2.3 table 1 "register boundary addresses"; the block
 * list and bases of ST's stm32f407xx.h): each block's name, base, size and what the virtual board does with it.
 * Three bus regions (APB1+APB2+AHB1, AHB2, the FSMC registers) dispatch here; an address in no block is a
 * reserved hole and answers with an AHB error, as on silicon. Blocks kept as plain registers read back what was
 * written, start from RM0090's reset values, and are reported once each when the firmware first touches them. */
#include <stdlib.h>
#include <string.h>

#include "chip/stm32f4_priv.h"

#define M STM32F4_MODELLED
#define P STM32F4_PLAIN
#define F STM32F4_FLAGGED

static enum bus_result bkpsram_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                    enum bus_initiator who, uint32_t *value);
static enum bus_result bkpsram_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                     enum bus_initiator who, uint32_t value);

#define RCC  stm32f4_rcc_read, stm32f4_rcc_write
#define PWR  stm32f4_pwr_read, stm32f4_pwr_write
#define FLSH stm32f4_flash_blk_read, stm32f4_flash_blk_write
#define GPIO stm32f4_gpio_read, stm32f4_gpio_write
#define TIM  stm32f4_tim_read, stm32f4_tim_write
#define USRT stm32f4_usart_read, stm32f4_usart_write

/* Sorted by base. unit: GPIO port 0-8, timer 0-5 (TIM2-TIM7), USART 0-5 (USART1, 2, 3, UART4, 5, USART6). */
const struct stm32f4_block stm32f4_blocks[] = {
    /* APB1 */
    {"TIM2", 0x40000000, 0x400, M, 0, TIM},
    {"TIM3", 0x40000400, 0x400, M, 1, TIM},
    {"TIM4", 0x40000800, 0x400, M, 2, TIM},
    {"TIM5", 0x40000C00, 0x400, M, 3, TIM},
    {"TIM6", 0x40001000, 0x400, M, 4, TIM},
    {"TIM7", 0x40001400, 0x400, M, 5, TIM},
    {"TIM12", 0x40001800, 0x400, P, 0, NULL, NULL},
    {"TIM13", 0x40001C00, 0x400, P, 0, NULL, NULL},
    {"TIM14", 0x40002000, 0x400, P, 0, NULL, NULL},
    {"RTC", 0x40002800, 0x400, P, 0, NULL, NULL},
    {"WWDG", 0x40002C00, 0x400, P, 0, NULL, NULL},
    {"IWDG", 0x40003000, 0x400, P, 0, NULL, NULL},
    {"I2S2ext", 0x40003400, 0x400, P, 0, NULL, NULL},
    {"SPI2", 0x40003800, 0x400, P, 0, NULL, NULL},
    {"SPI3", 0x40003C00, 0x400, P, 0, NULL, NULL},
    {"I2S3ext", 0x40004000, 0x400, P, 0, NULL, NULL},
    {"USART2", 0x40004400, 0x400, M, 1, USRT},
    {"USART3", 0x40004800, 0x400, M, 2, USRT},
    {"UART4", 0x40004C00, 0x400, M, 3, USRT},
    {"UART5", 0x40005000, 0x400, M, 4, USRT},
    {"I2C1", 0x40005400, 0x400, P, 0, NULL, NULL},
    {"I2C2", 0x40005800, 0x400, P, 0, NULL, NULL},
    {"I2C3", 0x40005C00, 0x400, P, 0, NULL, NULL},
    {"CAN1", 0x40006400, 0x400, P, 0, NULL, NULL},
    {"CAN2", 0x40006800, 0x400, P, 0, NULL, NULL},
    {"PWR", 0x40007000, 0x400, M, 0, PWR},
    {"DAC", 0x40007400, 0x400, P, 0, NULL, NULL},
    /* APB2 */
    {"TIM1", 0x40010000, 0x400, P, 0, NULL, NULL},
    {"TIM8", 0x40010400, 0x400, P, 0, NULL, NULL},
    {"USART1", 0x40011000, 0x400, M, 0, USRT},
    {"USART6", 0x40011400, 0x400, M, 5, USRT},
    {"ADC1-3", 0x40012000, 0x400, P, 0, NULL, NULL},
    {"SDIO", 0x40012C00, 0x400, P, 0, NULL, NULL},
    {"SPI1", 0x40013000, 0x400, P, 0, NULL, NULL},
    {"SYSCFG", 0x40013800, 0x400, M, 0, stm32f4_syscfg_read, stm32f4_syscfg_write},
    {"EXTI", 0x40013C00, 0x400, M, 0, stm32f4_exti_read, stm32f4_exti_write},
    {"TIM9", 0x40014000, 0x400, P, 0, NULL, NULL},
    {"TIM10", 0x40014400, 0x400, P, 0, NULL, NULL},
    {"TIM11", 0x40014800, 0x400, P, 0, NULL, NULL},
    /* AHB1 */
    {"GPIOA", 0x40020000, 0x400, M, 0, GPIO},
    {"GPIOB", 0x40020400, 0x400, M, 1, GPIO},
    {"GPIOC", 0x40020800, 0x400, M, 2, GPIO},
    {"GPIOD", 0x40020C00, 0x400, M, 3, GPIO},
    {"GPIOE", 0x40021000, 0x400, M, 4, GPIO},
    {"GPIOF", 0x40021400, 0x400, M, 5, GPIO},
    {"GPIOG", 0x40021800, 0x400, M, 6, GPIO},
    {"GPIOH", 0x40021C00, 0x400, M, 7, GPIO},
    {"GPIOI", 0x40022000, 0x400, M, 8, GPIO},
    {"CRC", 0x40023000, 0x400, M, 0, stm32f4_crc_read, stm32f4_crc_write},
    {"RCC", 0x40023800, 0x400, M, 0, RCC},
    {"FLASH", 0x40023C00, 0x400, M, 0, FLSH},
    {"BKPSRAM", 0x40024000, 0x1000, M, 0, bkpsram_read, bkpsram_write},
    {"DMA1", 0x40026000, 0x400, P, 0, NULL, NULL},
    {"DMA2", 0x40026400, 0x400, P, 0, NULL, NULL},
    {"ETH", 0x40028000, 0x1400, P, 0, NULL, NULL},
    {"USB_OTG_HS", 0x40040000, 0x40000, P, 0, NULL, NULL},
    /* AHB2 (CRYP and HASH at 0x50060000/0x50060400 are STM32F415/417 only: reserved here) */
    {"USB_OTG_FS", 0x50000000, 0x40000, P, 0, NULL, NULL},
    {"DCMI", 0x50050000, 0x400, P, 0, NULL, NULL},
    {"RNG", 0x50060800, 0x400, F, 0, stm32f4_rng_read, stm32f4_rng_write},
    /* AHB3 */
    {"FSMC", 0xA0000000, 0x1000, P, 0, NULL, NULL},
};
const size_t stm32f4_n_blocks = sizeof(stm32f4_blocks) / sizeof(stm32f4_blocks[0]);

/* Registers of plain blocks whose RM0090 reset value is not 0, or that firmware polls (HAL init sequences):
 * `clear` bits read 0 once written (self-clearing triggers), `ready` bits read 1 while `src` bits are set at
 * src_addr (a request and its acknowledge), or always when src_mask is 0; `set` bits always read 1. */
static const struct plain_reg {
	uint32_t addr, reset, clear;
	uint32_t ready, src_addr, src_mask;
	uint32_t set;
} plain_regs[] = {
    {0x40002804, 0x00002101, 0, 0, 0, 0, 0},                   /* RTC_DR (RM0090 26.6.2) */
    {0x4000280C, 0x00000007, 0, 0x40, 0x4000280C, 0x80, 0x20}, /* RTC_ISR: INITF follows INIT, RSF (26.6.4) */
    {0x40002810, 0x007F00FF, 0, 0, 0, 0, 0},                   /* RTC_PRER */
    {0x40002814, 0x0000FFFF, 0, 0, 0, 0, 0},                   /* RTC_WUTR */
    {0x40002C00, 0x0000007F, 0, 0, 0, 0, 0},                   /* WWDG_CR (27.6.1) */
    {0x40002C04, 0x0000007F, 0, 0, 0, 0, 0},                   /* WWDG_CFR */
    {0x40003008, 0x00000FFF, 0, 0, 0, 0, 0},                   /* IWDG_RLR (21.4.3) */
    {0x40003408, 0x00000002, 0, 0, 0, 0, 0},                   /* I2S2ext_SR: TXE (28.5.3) */
    {0x40003808, 0x00000002, 0, 0x2, 0, 0, 0},                 /* SPI2_SR: TXE */
    {0x40003810, 0x00000007, 0, 0, 0, 0, 0},                   /* SPI2_CRCPR */
    {0x40003820, 0x00000002, 0, 0, 0, 0, 0},                   /* SPI2_I2SPR */
    {0x40003C08, 0x00000002, 0, 0x2, 0, 0, 0},                 /* SPI3_SR */
    {0x40003C10, 0x00000007, 0, 0, 0, 0, 0},                   /* SPI3_CRCPR */
    {0x40003C20, 0x00000002, 0, 0, 0, 0, 0},                   /* SPI3_I2SPR */
    {0x40004008, 0x00000002, 0, 0, 0, 0, 0},                   /* I2S3ext_SR */
    {0x40005420, 0x00000002, 0, 0, 0, 0, 0},                   /* I2C1_TRISE (27.6.9) */
    {0x40005820, 0x00000002, 0, 0, 0, 0, 0},                   /* I2C2_TRISE */
    {0x40005C20, 0x00000002, 0, 0, 0, 0, 0},                   /* I2C3_TRISE */
    {0x40006400, 0x00010002, 0x8000, 0, 0, 0, 0},              /* CAN1_MCR: RESET self-clears (32.9.2) */
    {0x40006404, 0x00000C02, 0, 0x1, 0x40006400, 0x1, 0},      /* CAN1_MSR: INAK follows INRQ */
    {0x40006408, 0x1C000000, 0, 0, 0, 0, 0},                   /* CAN1_TSR */
    {0x4000641C, 0x01230000, 0, 0, 0, 0, 0},                   /* CAN1_BTR */
    {0x40006600, 0x2A1C0E01, 0, 0, 0, 0, 0},                   /* CAN_FMR */
    {0x40006800, 0x00010002, 0x8000, 0, 0, 0, 0},              /* CAN2_MCR */
    {0x40006804, 0x00000C02, 0, 0x1, 0x40006800, 0x1, 0},      /* CAN2_MSR */
    {0x40006808, 0x1C000000, 0, 0, 0, 0, 0},                   /* CAN2_TSR */
    {0x4000681C, 0x01230000, 0, 0, 0, 0, 0},                   /* CAN2_BTR */
    {0x40013008, 0x00000002, 0, 0x2, 0, 0, 0},                 /* SPI1_SR */
    {0x40013010, 0x00000007, 0, 0, 0, 0, 0},                   /* SPI1_CRCPR */
    {0x40013020, 0x00000002, 0, 0, 0, 0, 0},                   /* SPI1_I2SPR */
    {0x40028000, 0x00008000, 0, 0, 0, 0, 0},                   /* ETH_MACCR (33.8.1) */
    {0x40028040, 0x8000FFFF, 0, 0, 0, 0, 0},                   /* ETH_MACA0HR */
    {0x40028044, 0xFFFFFFFF, 0, 0, 0, 0, 0},                   /* ETH_MACA0LR */
    {0x40029000, 0x00020101, 0x1, 0, 0, 0, 0},                 /* ETH_DMABMR: SR self-clears */
    {0x40040010, 0x80000000, 0x31, 0x80000000, 0, 0, 0},       /* OTG_HS_GRSTCTL: AHBIDL; CSRST, FIFO flushes */
    {0x50000010, 0x80000000, 0x31, 0x80000000, 0, 0, 0},       /* OTG_FS_GRSTCTL (34.16.2) */
};

static const struct plain_reg *plain_reg_at(uint32_t addr)
{
	for (size_t i = 0; i < sizeof(plain_regs) / sizeof(plain_regs[0]); i++)
		if (plain_regs[i].addr == addr)
			return &plain_regs[i];
	return NULL;
}

static const struct stm32f4_block *block_at(struct stm32f4 *st, uint32_t addr)
{
	const struct stm32f4_block *b = st->last_block;
	if (b && addr - b->base < b->size)
		return b;
	size_t lo = 0, hi = stm32f4_n_blocks;
	while (lo < hi) { /* the table is sorted by base */
		size_t mid = (lo + hi) / 2;
		b = &stm32f4_blocks[mid];
		if (addr < b->base)
			hi = mid;
		else if (addr - b->base >= b->size)
			lo = mid + 1;
		else {
			st->last_block = b;
			return b;
		}
	}
	return NULL;
}

static void note_use(struct stm32f4 *st, const struct stm32f4_block *b, enum bus_initiator who)
{
	size_t i = (size_t)(b - stm32f4_blocks);
	/* The firmware's use, not a debugger's look (OpenOCD, `mdw` by hand). */
	if (who != BUS_CORE || b->kind == STM32F4_MODELLED || st->used[i])
		return;
	st->used[i] = true;
	if (!st->on_note)
		return;
	char msg[200];
	if (b->kind == STM32F4_PLAIN)
		(void)snprintf(msg, sizeof(msg),
		               "the firmware used %s (0x%08x), which the virtual board keeps as plain registers",
		               b->name, b->base);
	else
		(void)snprintf(
		    msg, sizeof(msg),
		    "the firmware used %s (0x%08x), whose numbers are deterministic on the virtual board (the same "
		    "sequence every run), not random",
		    b->name, b->base);
	st->on_note(st->on_note_ctx, msg);
}

static uint32_t *plain_regs_of(struct stm32f4 *st, const struct stm32f4_block *b)
{
	size_t i = (size_t)(b - stm32f4_blocks);
	if (!st->plain[i]) {
		uint32_t *r = calloc(b->size / 4, sizeof(uint32_t));
		if (!r)
			return NULL;
		for (size_t k = 0; k < sizeof(plain_regs) / sizeof(plain_regs[0]); k++)
			if (plain_regs[k].addr - b->base < b->size)
				r[(plain_regs[k].addr - b->base) / 4] = plain_regs[k].reset;
		st->plain[i] = r;
	}
	return st->plain[i];
}

static uint32_t plain_word(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t w)
{
	size_t i = (size_t)(b - stm32f4_blocks);
	uint32_t addr = b->base + w;
	const struct plain_reg *pr = plain_reg_at(addr);
	uint32_t v = st->plain[i] ? st->plain[i][w / 4] : (pr ? pr->reset : 0);
	if (pr && pr->ready) {
		bool on = true;
		if (pr->src_mask) {
			const struct stm32f4_block *sb = block_at(st, pr->src_addr);
			on = sb && (plain_word(st, sb, pr->src_addr - sb->base) & pr->src_mask);
		}
		v = on ? v | pr->ready : v & ~pr->ready;
	}
	if (pr)
		v |= pr->set;
	return v;
}

static enum bus_result plain_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  uint32_t *value)
{
	*value = bus_extract(plain_word(st, b, off & ~3u), off, size);
	return BUS_OK;
}

static enum bus_result plain_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   uint32_t value)
{
	uint32_t *r = plain_regs_of(st, b);
	if (!r)
		return BUS_ERROR; /* out of memory: an error response rather than a lost write */
	uint32_t w = off & ~3u;
	uint32_t v = bus_merge(r[w / 4], off, size, value);
	const struct plain_reg *pr = plain_reg_at(b->base + w);
	if (pr)
		v &= ~pr->clear;
	r[w / 4] = v;
	return BUS_OK;
}

static enum bus_result bkpsram_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                    enum bus_initiator who, uint32_t *value)
{
	uint32_t v = 0;
	(void)b, (void)who;
	for (unsigned i = 0; i < size; i++)
		v |= (uint32_t)st->bkpsram[off + i] << (8 * i);
	*value = v;
	return BUS_OK;
}

static enum bus_result bkpsram_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                     enum bus_initiator who, uint32_t value)
{
	(void)b, (void)who;
	for (unsigned i = 0; i < size; i++)
		st->bkpsram[off + i] = (uint8_t)(value >> (8 * i));
	return BUS_OK;
}

/* ---- the windows -------------------------------------------------------------------------------- */

struct window {
	struct stm32f4 *st;
	uint32_t base;
};

static enum bus_result win_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *value)
{
	const struct window *w = ctx;
	uint32_t addr = w->base + off;
	const struct stm32f4_block *b = block_at(w->st, addr);
	if (!b)
		return BUS_ERROR; /* a reserved hole: AHB error (RM0090 2.3) */
	note_use(w->st, b, who);
	if (b->kind == STM32F4_PLAIN)
		return plain_read(w->st, b, addr - b->base, size, value);
	return b->read(w->st, b, addr - b->base, size, who, value);
}

static enum bus_result win_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t value)
{
	const struct window *w = ctx;
	uint32_t addr = w->base + off;
	const struct stm32f4_block *b = block_at(w->st, addr);
	if (!b)
		return BUS_ERROR;
	note_use(w->st, b, who);
	if (b->kind == STM32F4_PLAIN)
		return plain_write(w->st, b, addr - b->base, size, value);
	return b->write(w->st, b, addr - b->base, size, who, value);
}

/* Every region is 4 KiB aligned in base and size (unicorn maps whole pages). */
static const struct {
	const char *name;
	uint32_t base, size;
} windows[] = {
    {"apb-ahb1", 0x40000000u, 0x00080000u}, /* APB1, APB2, AHB1 up to the end of USB OTG HS */
    {"ahb2", 0x50000000u, 0x00061000u},     /* USB OTG FS .. RNG */
    {"fsmc-regs", 0xA0000000u, 0x00001000u},
};

#define N_WINDOWS (sizeof(windows) / sizeof(windows[0]))

int stm32f4_map_init(struct stm32f4 *st, struct sim_bus *bus)
{
	st->plain = calloc(stm32f4_n_blocks, sizeof(*st->plain));
	st->used = calloc(stm32f4_n_blocks, sizeof(*st->used));
	struct window *w = calloc(N_WINDOWS, sizeof(*w));
	st->windows = w;
	if (!st->plain || !st->used || !w)
		return -1;
	for (size_t i = 0; i < N_WINDOWS; i++) {
		w[i] = (struct window){st, windows[i].base};
		struct bus_region r = {
		    windows[i].name, windows[i].base, windows[i].size, NULL, win_read, win_write, &w[i]};
		if (bus_add_region(bus, &r) != 0)
			return -1;
	}
	return 0;
}

void stm32f4_map_reset(struct stm32f4 *st)
{
	/* Plain blocks return to their reset values; which blocks were reported stays (once per run). */
	for (size_t i = 0; st->plain && i < stm32f4_n_blocks; i++) {
		free(st->plain[i]);
		st->plain[i] = NULL;
	}
}

void stm32f4_map_free(struct stm32f4 *st)
{
	stm32f4_map_reset(st);
	free(st->plain);
	free(st->used);
	free(st->windows);
}

void stm32f4_on_note(struct stm32f4 *st, stm32f4_note_fn fn, void *ctx)
{
	st->on_note = fn;
	st->on_note_ctx = ctx;
}

static const struct {
	uint32_t base, size;
	const char *name;
} areas[] = {
    {0x00000000u, STM32F4_FLASH_SIZE, "the flash alias at 0 (BOOT0 = 0)"},
    {STM32F4_FLASH_BASE, STM32F4_FLASH_SIZE, "flash"},
    {STM32F4_CCM_BASE, STM32F4_CCM_SIZE, "CCM data RAM"},
    {STM32F4_SYSMEM_BASE, STM32F4_SYSMEM_SIZE, "system memory (bootloader, OTP, option bytes)"},
    {STM32F4_SRAM_BASE, STM32F4_SRAM_SIZE, "SRAM"},
    {0x22000000u, 0x02000000u, "the SRAM bit-band alias"},
    {0x42000000u, 0x02000000u, "the peripheral bit-band alias"},
    {0x60000000u, 0x40000000u, "the FSMC external memory banks (no memory fitted)"},
    {0xE0000000u, 0x00100000u, "the Cortex-M4 private peripheral bus"},
};

const char *stm32f4_describe(uint32_t addr, char *out, size_t len)
{
	/* No chip instance: the table alone answers (the last-hit cache is not used). */
	struct stm32f4 probe = {0};
	const struct stm32f4_block *b = NULL;
	if ((addr >= 0x40000000u && addr < 0x40080000u) || (addr >= 0x50000000u && addr < 0x50061000u) ||
	    (addr >= 0xA0000000u && addr < 0xA0001000u)) {
		b = block_at(&probe, addr);
		if (!b)
			(void)snprintf(out, len, "a reserved hole in the peripheral map (RM0090 table 1)");
		else
			(void)snprintf(out, len, "%s (0x%08x, %s)", b->name, b->base,
			               b->kind == STM32F4_PLAIN ? "plain registers" : "modelled");
		return out;
	}
	if (addr >= 0xE0042000u && addr < 0xE0043000u) {
		(void)snprintf(out, len, "DBGMCU (0xe0042000, modelled)");
		return out;
	}
	for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
		if (addr - areas[i].base < areas[i].size) {
			(void)snprintf(out, len, "%s", areas[i].name);
			return out;
		}
	}
	if (addr >= STM32F4_SRAM_BASE + STM32F4_SRAM_SIZE && addr < 0x40000000u)
		(void)snprintf(out, len, "unmapped memory past the end of SRAM (0x%08x)",
		               STM32F4_SRAM_BASE + STM32F4_SRAM_SIZE);
	else
		(void)snprintf(out, len, "unmapped memory");
	return out;
}
