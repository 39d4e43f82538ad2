/* Unit tests of the virtual STM32F4 (sim/chip/stm32f4.c, sim/chip/stm32f4_flash.c) on a bare bus: the memory
 * map, the FLASH controller driven exactly as OpenOCD 0.12's src/flash/nor/stm32f2x.c drives it
 * (unlock, sector erase, half-word programming, error flags), and the RCC handshakes a 168 MHz
 * start-up waits for. Register values are RM0090 rev 19's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bus/bus.h"
#include "chip/stm32f4.h"
#include "chip/stm32f4_art.h"

#define FLASH_ACR     0x40023C00u
#define FLASH_KEYR    0x40023C04u
#define FLASH_OPTKEYR 0x40023C08u
#define FLASH_SR      0x40023C0Cu
#define FLASH_CR      0x40023C10u
#define FLASH_OPTCR   0x40023C14u
#define CR_PG         0x1u
#define CR_SER        0x2u
#define CR_MER        0x4u
#define CR_SNB(n)     ((uint32_t)(n) << 3)
#define CR_PSIZE_16   (1u << 8)
#define CR_PSIZE_32   (2u << 8)
#define CR_STRT       (1u << 16)
#define CR_EOPIE      (1u << 24)
#define CR_LOCK       (1u << 31)
#define SR_EOP        0x01u
#define SR_WRPERR     0x10u
#define SR_PGAERR     0x20u
#define SR_PGPERR     0x40u
#define SR_PGSERR     0x80u

struct fixture {
	struct sim_bus bus;
	struct stm32f4 *st;
	uint32_t cw_addr[8], cw_size[8];
	unsigned n_cw;
};

static void on_code_write(void *ctx, uint32_t addr, uint32_t size)
{
	struct fixture *f = ctx;
	if (f->n_cw < 8) {
		f->cw_addr[f->n_cw] = addr;
		f->cw_size[f->n_cw] = size;
	}
	f->n_cw++;
}

static int setup(void **state)
{
	static struct fixture f;
	memset(&f, 0, sizeof(f));
	bus_init(&f.bus);
	struct stm32f4_config cfg = {0};
	char err[128] = "";
	if (stm32f4_init(&f.bus, &f.st, &cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "stm32f4_init: %s\n", err);
		return -1;
	}
	stm32f4_on_code_write(f.st, on_code_write, &f);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	stm32f4_free(f->st);
	return 0;
}

static uint32_t rd(struct fixture *f, uint32_t addr, unsigned size)
{
	uint32_t v = 0xDEADBEEF;
	assert_int_equal(bus_read(&f->bus, addr, size, BUS_DEBUG, &v), BUS_OK);
	return v;
}

static void wr(struct fixture *f, uint32_t addr, unsigned size, uint32_t v)
{
	assert_int_equal(bus_write(&f->bus, addr, size, BUS_DEBUG, v), BUS_OK);
}

/* stm32x_unlock_reg(): KEY1, KEY2, then CR must read with LOCK clear. */
static void unlock(struct fixture *f)
{
	wr(f, FLASH_KEYR, 4, 0x45670123u);
	wr(f, FLASH_KEYR, 4, 0xCDEF89ABu);
	assert_int_equal(rd(f, FLASH_CR, 4), 0);
}

static void test_map(void **state)
{
	struct fixture *f = *state;
	uint8_t img[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	assert_int_equal(stm32f4_flash_load(f->st, 0x08000100u, img, sizeof(img)), 0);
	assert_int_equal(rd(f, 0x08000100u, 4), 0x04030201u);
	assert_int_equal(rd(f, 0x00000104u, 4), 0x08070605u);                 /* the alias at 0: same bytes */
	assert_int_equal(rd(f, 0x08000000u, 4), 0xFFFFFFFFu);                 /* erased */
	assert_int_equal(stm32f4_flash_load(f->st, 0x080FFFFCu, img, 8), -1); /* past the end of flash */
	wr(f, 0x2001FFFCu, 4, 0x12345678u);                                   /* last SRAM word */
	assert_int_equal(rd(f, 0x2001FFFCu, 4), 0x12345678u);
	wr(f, 0x1000FFFEu, 2, 0xBEEFu); /* last CCM half-word */
	assert_int_equal(rd(f, 0x1000FFFEu, 2), 0xBEEFu);
	uint32_t v;
	assert_int_equal(bus_read(&f->bus, 0x20020000u, 4, BUS_DEBUG, &v), BUS_ERROR); /* past SRAM */
	assert_int_equal(bus_read(&f->bus, 0x40002400u, 4, BUS_DEBUG, &v), BUS_ERROR); /* reserved hole */
	assert_int_equal(bus_write(&f->bus, 0x1FFF0000u, 4, BUS_CORE, 0), BUS_ERROR);  /* system memory is ROM */
	/* What OpenOCD's stm32x_probe reads: DBGMCU_IDCODE and the flash size in KiB. */
	assert_int_equal(rd(f, 0xE0042000u, 4), 0x10076413u);
	assert_int_equal(rd(f, 0x1FFF7A22u, 2), 1024);
	assert_int_equal(rd(f, FLASH_OPTCR, 4), 0x0FFFAAEDu);
	assert_int_equal(rd(f, FLASH_CR, 4), CR_LOCK);
	/* stm32f4x.cfg's examine-end: mmw DBGMCU_CR and APB1_FZ. */
	wr(f, 0xE0042004u, 4, 7);
	assert_int_equal(rd(f, 0xE0042004u, 4), 7);
}

static void test_plain_write_fails(void **state)
{
	struct fixture *f = *state;
	/* PG clear: the bytes stay, FLASH_SR.PGSERR says why, no bus error (RM0090 3.9.6). */
	assert_int_equal(bus_write(&f->bus, 0x08000000u, 4, BUS_CORE, 0), BUS_OK);
	assert_int_equal(rd(f, 0x08000000u, 4), 0xFFFFFFFFu);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_PGSERR);
	assert_int_equal(f->n_cw, 0);
	wr(f, FLASH_SR, 4, SR_PGSERR); /* write 1 to clear */
	assert_int_equal(rd(f, FLASH_SR, 4), 0);
	/* Locked: CR ignores writes, so PG cannot be set. */
	wr(f, FLASH_CR, 4, CR_PG | CR_PSIZE_16);
	assert_int_equal(rd(f, FLASH_CR, 4), CR_LOCK);
}

static void test_unlock_sequence(void **state)
{
	struct fixture *f = *state;
	uint32_t v;
	/* A wrong key is a bus error and locks FLASH_CR until reset (RM0090 3.5.1). */
	assert_int_equal(bus_write(&f->bus, FLASH_KEYR, 4, BUS_DEBUG, 0x45670123u), BUS_OK);
	assert_int_equal(bus_write(&f->bus, FLASH_KEYR, 4, BUS_DEBUG, 0x12345678u), BUS_ERROR);
	assert_int_equal(bus_write(&f->bus, FLASH_KEYR, 4, BUS_DEBUG, 0x45670123u), BUS_ERROR);
	assert_int_equal(bus_write(&f->bus, FLASH_KEYR, 4, BUS_DEBUG, 0xCDEF89ABu), BUS_ERROR);
	assert_int_equal(rd(f, FLASH_CR, 4), CR_LOCK);
	stm32f4_reset(f->st);
	unlock(f);
	/* Setting LOCK relocks; the keys work again. */
	wr(f, FLASH_CR, 4, CR_LOCK);
	assert_int_equal(rd(f, FLASH_CR, 4), CR_LOCK);
	unlock(f);
	assert_int_equal(bus_read(&f->bus, FLASH_KEYR, 4, BUS_DEBUG, &v), BUS_OK);
	assert_int_equal(v, 0); /* write-only */
}

static void test_sector_erase_and_program(void **state)
{
	struct fixture *f = *state;
	uint8_t img[0x8000];
	memset(img, 0x00, sizeof(img));
	assert_int_equal(stm32f4_flash_load(f->st, 0x08000000u, img, sizeof(img)), 0); /* sectors 0 and 1 */
	f->n_cw = 0;
	unlock(f);
	/* stm32x_erase(): CR = SER | SNB(1) | STRT, then poll SR for BSY and errors. */
	wr(f, FLASH_CR, 4, CR_SER | CR_SNB(1) | CR_STRT);
	assert_int_equal(rd(f, FLASH_SR, 4), 0); /* BSY clear at once, no error, no EOP without EOPIE */
	assert_int_equal(rd(f, FLASH_CR, 4) & CR_STRT, 0);
	assert_int_equal(rd(f, 0x08003FFCu, 4), 0x00000000u); /* sector 0 untouched */
	assert_int_equal(rd(f, 0x08004000u, 4), 0xFFFFFFFFu); /* sector 1: 0x4000-0x7FFF */
	assert_int_equal(rd(f, 0x08007FFCu, 4), 0xFFFFFFFFu);
	assert_int_equal(f->n_cw, 2);
	assert_int_equal(f->cw_addr[0], 0x08004000u);
	assert_int_equal(f->cw_size[0], 0x4000u);
	assert_int_equal(f->cw_addr[1], 0x00004000u);
	/* The loader's sequence: CR = PG | PSIZE_16 (STM32_PROG16 0x101), STRH from the core. */
	wr(f, FLASH_CR, 4, CR_PG | CR_PSIZE_16);
	assert_int_equal(bus_write(&f->bus, 0x08004000u, 2, BUS_CORE, 0xBF00u), BUS_OK);
	assert_int_equal(bus_write(&f->bus, 0x08004002u, 2, BUS_CORE, 0xBE01u), BUS_OK);
	assert_int_equal(rd(f, FLASH_SR, 4), 0);
	assert_int_equal(rd(f, 0x08004000u, 4), 0xBE01BF00u);
	assert_int_equal(rd(f, 0x00004000u, 4), 0xBE01BF00u);
	assert_int_equal(f->n_cw, 6);
	assert_int_equal(f->cw_addr[2], 0x08004000u);
	assert_int_equal(f->cw_size[2], 2);
	/* Programming only clears bits. */
	wr(f, 0x08004000u, 2, 0xFFF0u);
	assert_int_equal(rd(f, 0x08004000u, 2), 0xBF00u);
	/* Word write at PSIZE x16: parallelism error, nothing written. */
	wr(f, 0x08004004u, 4, 0);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_PGPERR);
	assert_int_equal(rd(f, 0x08004004u, 4), 0xFFFFFFFFu);
	wr(f, FLASH_SR, 4, 0xF3u);
	/* Misaligned half-word: alignment error. */
	wr(f, 0x08004005u, 2, 0);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_PGAERR);
	assert_int_equal(rd(f, 0x08004004u, 4), 0xFFFFFFFFu);
	wr(f, FLASH_SR, 4, SR_PGAERR);
	/* The trailing odd byte: PSIZE_8 and a byte write; EOP only with EOPIE. */
	wr(f, FLASH_CR, 4, CR_PG | CR_EOPIE);
	wr(f, 0x08004006u, 1, 0x5Au);
	assert_int_equal(rd(f, 0x08004006u, 1), 0x5Au);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_EOP);
	wr(f, FLASH_CR, 4, CR_LOCK); /* as stm32x_write() ends */
	assert_int_equal(rd(f, FLASH_CR, 4), CR_LOCK);
}

static void test_mass_erase_and_protection(void **state)
{
	struct fixture *f = *state;
	uint32_t word = 0;
	assert_int_equal(stm32f4_flash_load(f->st, 0x080E0000u, &word, 4), 0); /* sector 11 */
	unlock(f);
	/* Write-protect sector 2 through the option bytes (nWRP2 = 0). */
	wr(f, FLASH_OPTKEYR, 4, 0x08192A3Bu);
	wr(f, FLASH_OPTKEYR, 4, 0x4C5D6E7Fu);
	assert_int_equal(rd(f, FLASH_OPTCR, 4), 0x0FFFAAECu);
	wr(f, FLASH_OPTCR, 4, 0x0FFBAAECu | 2u); /* OPTSTRT */
	assert_int_equal(rd(f, FLASH_OPTCR, 4), 0x0FFBAAECu);
	wr(f, FLASH_CR, 4, CR_SER | CR_SNB(2) | CR_STRT);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_WRPERR);
	wr(f, FLASH_SR, 4, SR_WRPERR);
	wr(f, FLASH_CR, 4, CR_MER);
	wr(f, FLASH_CR, 4, CR_MER | CR_STRT);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_WRPERR); /* refused: a sector is protected */
	assert_int_equal(rd(f, 0x080E0000u, 4), 0);
	wr(f, FLASH_SR, 4, SR_WRPERR);
	wr(f, FLASH_OPTCR, 4, 0x0FFFAAECu | 2u);
	/* stm32x_mass_erase(): CR = MER, then MER | STRT. */
	wr(f, FLASH_CR, 4, CR_MER);
	wr(f, FLASH_CR, 4, CR_MER | CR_STRT);
	assert_int_equal(rd(f, FLASH_SR, 4), 0);
	assert_int_equal(rd(f, 0x080E0000u, 4), 0xFFFFFFFFu);
	/* SNB 12 does not exist on a 1 MiB part. */
	wr(f, FLASH_CR, 4, CR_SER | CR_SNB(12) | CR_STRT);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_PGSERR);
}

static void test_otp(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(rd(f, 0x1FFF7800u, 4), 0xFFFFFFFFu);
	unlock(f);
	wr(f, FLASH_CR, 4, CR_PG | CR_PSIZE_32);
	wr(f, 0x1FFF7800u, 4, 0x11223344u);
	assert_int_equal(rd(f, 0x1FFF7800u, 4), 0x11223344u);
	wr(f, 0x1FFF7A00u, 1 * 4, 0xFFFFFF00u); /* lock byte of block 0 */
	wr(f, 0x1FFF7804u, 4, 0);
	assert_int_equal(rd(f, FLASH_SR, 4), SR_WRPERR);
	assert_int_equal(rd(f, 0x1FFF7804u, 4), 0xFFFFFFFFu);
}

static void test_rcc_168mhz_handshake(void **state)
{
	struct fixture *f = *state;
	const uint32_t cr = 0x40023800u, cfgr = 0x40023808u, pllcfgr = 0x40023804u;
	assert_int_equal(rd(f, cr, 4), 0x00000083u);
	assert_int_equal(rd(f, pllcfgr, 4), 0x24003010u);
	wr(f, cr, 4, rd(f, cr, 4) | (1u << 16)); /* HSEON */
	assert_int_equal(rd(f, cr, 4) & (1u << 17), 1u << 17);
	wr(f, cfgr, 4, 2); /* SW = PLL while the PLL is off: stays on HSI */
	assert_int_equal(rd(f, cfgr, 4) & 0xCu, 0);
	wr(f, pllcfgr, 4, 8 | (336u << 6) | (1u << 22) | (7u << 24));
	wr(f, cr, 4, rd(f, cr, 4) | (1u << 24)); /* PLLON */
	assert_int_equal(rd(f, cr, 4) & (1u << 25), 1u << 25);
	assert_int_equal(rd(f, cfgr, 4) & 0xCu, 0x8u); /* SWS = PLL */
	wr(f, FLASH_ACR, 4, 0x705u);
	assert_int_equal(rd(f, FLASH_ACR, 4), 0x705u);
	assert_int_equal(stm32f4_flash_latency(f->st), 5);
	assert_int_equal(rd(f, 0x40007004u, 4) & (1u << 14), 1u << 14); /* PWR_CSR.VOSRDY */
	stm32f4_reset(f->st);
	assert_int_equal(rd(f, cr, 4), 0x00000083u);
	assert_int_equal(rd(f, cfgr, 4), 0);
}

static void test_gpio_and_byte_lanes(void **state)
{
	struct fixture *f = *state;
	const uint32_t gpiod = 0x40020C00u;
	assert_int_equal(rd(f, 0x40020000u, 4), 0xA8000000u); /* GPIOA_MODER: JTAG pins */
	wr(f, gpiod + 0x18, 4, (1u << 12) | (1u << 15));      /* BSRR: set PD12, PD15 */
	assert_int_equal(rd(f, gpiod + 0x14, 4), 0x9000u);
	wr(f, gpiod + 0x18, 4, 1u << (16 + 15)); /* reset PD15 */
	assert_int_equal(rd(f, gpiod + 0x14, 4), 0x1000u);
	wr(f, gpiod + 0x01, 1, 0x55u); /* byte write into MODER[15:8] */
	assert_int_equal(rd(f, gpiod, 4), 0x5500u);
	assert_int_equal(rd(f, gpiod + 0x01, 1), 0x55u);
}

static void test_usart_echo(void **state)
{
	(void)state;
	struct sim_bus bus;
	struct stm32f4 *st;
	struct stm32f4_config cfg = {.uart_echo = true};
	char err[128];
	bus_init(&bus);
	assert_int_equal(stm32f4_init(&bus, &st, &cfg, err, sizeof(err)), 0);
	FILE *out = tmpfile();
	assert_non_null(out);
	stm32f4_set_uart_out(st, out);
	const uint32_t usart2 = 0x40004400u;
	assert_int_equal(bus_write(&bus, usart2 + 4, 4, BUS_CORE, 'x'), BUS_OK); /* disabled: dropped */
	assert_int_equal(bus_write(&bus, usart2 + 0x0C, 4, BUS_CORE, (1u << 13) | (1u << 3)), BUS_OK);
	uint32_t sr;
	assert_int_equal(bus_read(&bus, usart2, 4, BUS_CORE, &sr), BUS_OK);
	assert_int_equal(sr & 0xC0u, 0xC0u); /* TXE, TC */
	for (const char *p = "hi\r\nbench"; *p; p++)
		assert_int_equal(bus_write(&bus, usart2 + 4, 4, BUS_CORE, (uint8_t)*p), BUS_OK);
	stm32f4_free(st); /* flushes the unfinished line */
	char buf[64] = "";
	rewind(out);
	size_t n = fread(buf, 1, sizeof(buf) - 1, out);
	buf[n] = 0;
	assert_string_equal(buf, "uart: hi\nuart: bench\n");
	fclose(out);
}

static void test_overlap_refused(void **state)
{
	(void)state;
	struct sim_bus bus;
	struct stm32f4 *st = (struct stm32f4 *)1;
	char err[160] = "";
	bus_init(&bus);
	struct bus_region r = {.name = "other", .base = 0x20000000u, .size = 0x1000u, .mem = (uint8_t[0x10]){0}};
	assert_int_equal(bus_add_region(&bus, &r), 0);
	assert_int_equal(stm32f4_init(&bus, &st, NULL, err, sizeof(err)), -1);
	assert_null(st);
	assert_string_equal(err, "stm32f4: cannot add sram at 0x20000000 to the bus (map full or overlapping)");
	/* Rolled back: only the region that was there before. */
	assert_int_equal(bus.n_regions, 1);
	assert_null(bus_find(&bus, 0x08000000u));
}

/* The flash accelerator (RM0090 3.4.2) as the core drives it: one block per call, lines of 16 bytes.
 * 5 wait states: a miss waits 5, the current line and cached lines nothing, a prefetched line what
 * the read (6 cycles) has left after the cycles spent in the line before; literals through the
 * data cache; ICRST empties the instruction cache, but only while it is off (3.9.1). */
static void test_art(void **state)
{
	(void)state;
	struct stm32f4_art a;
	static const uint16_t one[1] = {0}, two[2] = {0, 4};
	assert_int_equal(art_init(&a), 0);
	assert_int_equal(art_run_block(&a, 10, one, 1, 4, true), 0); /* reset: 0 wait states */
	art_write_acr(&a, 5, 5);                                     /* LATENCY 5, nothing else */
	assert_int_equal(a.ws, 5);
	assert_int_equal(art_run_block(&a, 10, one, 1, 4, true), 0);  /* the line the core runs from */
	assert_int_equal(art_run_block(&a, 20, two, 2, 8, true), 10); /* two misses, no prefetch */
	assert_int_equal(art_run_block(&a, 20, two, 2, 8, true), 10); /* one line buffer: both again */
	assert_int_equal(art_literal(&a, 0x400), 5);                  /* no data cache */
	art_write_acr(&a, 5 | (1u << 8) | (1u << 9) | (1u << 10), 5 | (1u << 8) | (1u << 9) | (1u << 10));
	assert_int_equal(art_run_block(&a, 30, two, 2, 8, true), 5 + 2); /* miss, prefetch after 4 cycles */
	assert_int_equal(art_run_block(&a, 30, two, 2, 8, true), 0);     /* both cached now */
	assert_int_equal(art_literal(&a, 0x400), 5);
	assert_int_equal(art_literal(&a, 0x404), 0); /* the same 128-bit row */
	uint32_t on = 5 | (1u << 8) | (1u << 9), off = 5 | (1u << 8);
	art_write_acr(&a, on | (1u << 11), on); /* ICRST while ICEN is on: ignored */
	assert_int_equal(art_run_block(&a, 30, two, 2, 8, true), 0);
	art_write_acr(&a, off, off);              /* ICEN off ... */
	art_write_acr(&a, off | (1u << 11), off); /* ... then ICRST: the cache is emptied */
	art_write_acr(&a, on, on);
	assert_int_equal(art_run_block(&a, 40, one, 1, 4, true), 5);
	assert_int_equal(art_run_block(&a, 30, two, 2, 8, true), 5 + 2);
	art_override(&a, 0); /* --wait-states 0 */
	assert_int_equal(art_literal(&a, 0x800), 0);
	art_override(&a, -1);
	assert_int_equal(a.ws, 5);
	art_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_map, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_plain_write_fails, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unlock_sequence, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sector_erase_and_program, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mass_erase_and_protection, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_otp, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rcc_168mhz_handshake, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gpio_and_byte_lanes, setup, teardown),
	    cmocka_unit_test(test_usart_echo),
	    cmocka_unit_test(test_overlap_refused),
	    cmocka_unit_test(test_art),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
