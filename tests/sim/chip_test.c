/* Unit tests of the virtual STM32F407's peripheral map (sim/chip/stm32f4_map.c) and the peripherals modelled in
 * stm32f4_gpio.c, stm32f4_tim.c and stm32f4_misc.c, plus the bit-band aliases (sim/bus/bitband.c), on a bare bus
 * with a test clock and interrupt lines. Expected values: RM0090 rev 19 register descriptions, the Cortex-M4 TRM
 * 3.7 (bit-banding), and for the CRC unit the CRC-32/MPEG-2 check value and ST's published 0x12345678 result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bus/bitband.h"
#include "bus/bus.h"
#include "chip/stm32f4.h"

struct fixture {
	struct sim_bus bus;
	struct bitband bb[2];
	struct stm32f4 *st;
	uint64_t now;
	unsigned irq_count[96];
	char notes[8][200];
	unsigned n_notes;
};

static uint64_t test_clock(void *ctx, uint32_t addr)
{
	(void)addr;
	return ((struct fixture *)ctx)->now;
}

static void test_irq(void *ctx, unsigned irq)
{
	struct fixture *f = ctx;
	if (irq < 96)
		f->irq_count[irq]++;
}

static void test_note(void *ctx, const char *msg)
{
	struct fixture *f = ctx;
	if (f->n_notes < 8)
		snprintf(f->notes[f->n_notes], sizeof(f->notes[0]), "%s", msg);
	f->n_notes++;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct stm32f4_config cfg = {0};
	char err[160] = "";
	if (!f)
		return -1;
	bus_init(&f->bus);
	if (stm32f4_init(&f->bus, &f->st, &cfg, err, sizeof(err)) != 0 || bitband_add(&f->bus, f->bb) != 0) {
		fprintf(stderr, "set-up: %s\n", err);
		free(f);
		return -1;
	}
	stm32f4_connect(f->st, test_clock, test_irq, f);
	stm32f4_on_note(f->st, test_note, f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	stm32f4_free(f->st);
	free(f);
	return 0;
}

static uint32_t rdw(struct fixture *f, uint32_t addr, unsigned size, enum bus_initiator who)
{
	uint32_t v = 0xDEADBEEF;
	assert_int_equal(bus_read(&f->bus, addr, size, who, &v), BUS_OK);
	return v;
}

static uint32_t rd(struct fixture *f, uint32_t addr)
{
	return rdw(f, addr, 4, BUS_CORE);
}

static void wrw(struct fixture *f, uint32_t addr, unsigned size, enum bus_initiator who, uint32_t v)
{
	assert_int_equal(bus_write(&f->bus, addr, size, who, v), BUS_OK);
}

static void wr(struct fixture *f, uint32_t addr, uint32_t v)
{
	wrw(f, addr, 4, BUS_CORE, v);
}

#define BB_SRAM(byte, bit)   (0x22000000u + ((byte)-0x20000000u) * 32u + (bit)*4u)
#define BB_PERIPH(byte, bit) (0x42000000u + ((byte)-0x40000000u) * 32u + (bit)*4u)

/* Each alias, each access size, from the core and from the debugger (the AHB-AP is BUS_DEBUG on this bus). */
static void test_bitband(void **state)
{
	struct fixture *f = *state;
	static const enum bus_initiator who[2] = {BUS_CORE, BUS_DEBUG};
	for (int w = 0; w < 2; w++) {
		wr(f, 0x20000100u, 0);
		/* word: bit 5 of byte 0x20000100; halfword: byte 0x20000102 bit 1 (word bit 17); byte: 0x20000103 bit 7
		 */
		wrw(f, BB_SRAM(0x20000100u, 5), 4, who[w], 0xFF);
		wrw(f, BB_SRAM(0x20000102u, 1), 2, who[w], 0x3);
		wrw(f, BB_SRAM(0x20000103u, 7), 1, who[w], 0x1);
		assert_int_equal(rd(f, 0x20000100u), 0x80020020u);
		assert_int_equal(rdw(f, BB_SRAM(0x20000100u, 5), 4, who[w]), 1);
		assert_int_equal(rdw(f, BB_SRAM(0x20000102u, 1), 2, who[w]), 1);
		assert_int_equal(rdw(f, BB_SRAM(0x20000103u, 7), 1, who[w]), 1);
		assert_int_equal(rdw(f, BB_SRAM(0x20000100u, 4), 4, who[w]), 0);
		/* Bits [31:1] of the value do not matter: 0x0E writes 0 (TRM 3.7.1). */
		wrw(f, BB_SRAM(0x20000100u, 5), 4, who[w], 0x0E);
		assert_int_equal(rd(f, 0x20000100u), 0x80020000u);
		/* The last SRAM bit, and past SRAM: the same AHB error as a direct access. */
		wrw(f, BB_SRAM(0x2001FFFFu, 7), 4, who[w], 1);
		assert_int_equal(rdw(f, 0x2001FFFCu, 4, who[w]), 0x80000000u);
		uint32_t v;
		assert_int_equal(bus_read(&f->bus, BB_SRAM(0x20020000u, 0), 4, who[w], &v), BUS_ERROR);
		/* Peripheral alias: RCC_CR.PLLON at 0x42470060 as HAL_RCC_OscConfig writes it; PLLRDY follows. */
		wrw(f, BB_PERIPH(0x40023800u, 24), 4, who[w], 1);
		assert_int_equal(rd(f, 0x40023800u) & 0x03000000u, 0x03000000u);
		assert_int_equal(rdw(f, 0x42470064u, 4, who[w]), 1);
		wrw(f, 0x42470060u, 1, who[w], 0);
		assert_int_equal(rdw(f, 0x42470064u, 2, who[w]), 0);
		/* A reserved hole behind the alias faults too. */
		assert_int_equal(bus_read(&f->bus, BB_PERIPH(0x40002400u, 0), 4, who[w], &v), BUS_ERROR);
	}
	uint32_t addr;
	unsigned bit;
	bitband_target(0x20000000u, 0x1FFFFFCu, 4, &addr, &bit); /* the last alias word: 0x200FFFFF bit 7 */
	assert_int_equal(addr, 0x200FFFFCu);
	assert_int_equal(bit, 31);
}

/* Every block of the table answers; reserved holes fault; plain blocks read back and are noted once. */
static void test_map_and_plain_blocks(void **state)
{
	struct fixture *f = *state;
	uint32_t v;
	static const uint32_t holes[] = {0x40002400u, 0x40007800u, 0x40010800u, 0x40011800u, 0x40012400u, 0x40013400u,
	                                 0x40014C00u, 0x40022400u, 0x40023400u, 0x40025000u, 0x40026800u, 0x40029400u,
	                                 0x40030000u, 0x50040000u, 0x50050400u, 0x50060000u, 0x50060400u, 0xA0001000u};
	for (size_t i = 0; i < sizeof(holes) / sizeof(holes[0]); i++) {
		assert_int_equal(bus_read(&f->bus, holes[i], 4, BUS_CORE, &v), BUS_ERROR);
		assert_int_equal(bus_write(&f->bus, holes[i], 4, BUS_CORE, 0), BUS_ERROR);
	}
	/* DMA2_S0CR: plain; a debugger's look is not the firmware's use. */
	assert_int_equal(rdw(f, 0x40026410u, 4, BUS_DEBUG), 0);
	assert_int_equal(f->n_notes, 0);
	wr(f, 0x40026410u, 0x12345678u);
	wrw(f, 0x40026411u, 1, BUS_CORE, 0xAB);
	assert_int_equal(rd(f, 0x40026410u), 0x1234AB78u);
	wr(f, 0x40026414u, 7);
	assert_int_equal(f->n_notes, 1);
	assert_string_equal(f->notes[0],
	                    "the firmware used DMA2 (0x40026400), which the virtual board keeps as plain registers");
	/* RM0090 reset values where firmware polls them. */
	assert_int_equal(rd(f, 0x40013008u), 0x0002u);     /* SPI1_SR: TXE */
	assert_int_equal(rd(f, 0x40002C00u), 0x7Fu);       /* WWDG_CR */
	assert_int_equal(rd(f, 0x50000010u), 0x80000000u); /* OTG_FS_GRSTCTL: AHBIDL */
	wr(f, 0x50000010u, 0x80000001u);                   /* CSRST self-clears */
	assert_int_equal(rd(f, 0x50000010u), 0x80000000u);
	wr(f, 0x40006400u, 0x00010001u); /* CAN1_MCR: INRQ, SLEEP off: MSR.INAK follows */
	assert_int_equal(rd(f, 0x40006404u) & 1u, 1u);
	wr(f, 0x40006400u, 0x00010000u);
	assert_int_equal(rd(f, 0x40006404u) & 1u, 0u);
	assert_int_equal(f->n_notes, 5); /* DMA2, SPI1, WWDG, USB_OTG_FS, CAN1: once each */
	/* A reset brings plain registers back to their reset values. */
	stm32f4_reset(f->st);
	assert_int_equal(rd(f, 0x40026410u), 0);
	assert_int_equal(f->n_notes, 5);
	/* The whole 256 KiB of USB OTG HS and the FSMC registers exist. */
	wr(f, 0x4007FFFCu, 0xCAFEu);
	assert_int_equal(rd(f, 0x4007FFFCu), 0xCAFEu);
	wr(f, 0xA0000FFCu, 1);
	assert_int_equal(rd(f, 0xA0000FFCu), 1);
	/* BKPSRAM is memory. */
	wrw(f, 0x40024FFFu, 1, BUS_CORE, 0x5A);
	assert_int_equal(rdw(f, 0x40024FFFu, 1, BUS_CORE), 0x5A);
	char what[160];
	assert_string_equal(stm32f4_describe(0x40023000u, what, sizeof(what)), "CRC (0x40023000, modelled)");
	assert_string_equal(stm32f4_describe(0x40026404u, what, sizeof(what)), "DMA2 (0x40026400, plain registers)");
	assert_string_equal(stm32f4_describe(0x40023400u, what, sizeof(what)),
	                    "a reserved hole in the peripheral map (RM0090 table 1)");
	assert_string_equal(stm32f4_describe(0x42470060u, what, sizeof(what)), "the peripheral bit-band alias");
	assert_string_equal(stm32f4_describe(0x20020000u, what, sizeof(what)),
	                    "unmapped memory past the end of SRAM (0x20020000)");
}

#define GPIOD 0x40020C00u
#define GPIOA 0x40020000u

static void test_gpio(void **state)
{
	struct fixture *f = *state;
	wr(f, GPIOD + 0x00, 0x55000000u); /* PD12-15 outputs (the Discovery LEDs) */
	wr(f, GPIOD + 0x18, 0x0000F000u); /* BSRR set */
	assert_int_equal(rd(f, GPIOD + 0x14), 0xF000u);
	assert_int_equal(rd(f, GPIOD + 0x10), 0xF000u); /* IDR follows the outputs */
	wr(f, GPIOD + 0x18, 0x30001000u);               /* reset 12, 13; set 12: set wins (8.4.7) */
	assert_int_equal(rd(f, GPIOD + 0x14), 0xD000u);
	assert_int_equal(rd(f, GPIOD + 0x18), 0); /* BSRR reads 0 */
	wr(f, GPIOD + 0x0C, 0x00000001u);         /* PD0 input with pull-up: reads 1 */
	assert_int_equal(rd(f, GPIOD + 0x10), 0xD001u);
	wr(f, GPIOD + 0x00, 0xFF000000u); /* PD12-15 analog: read 0 */
	assert_int_equal(rd(f, GPIOD + 0x10), 0x0001u);
	/* LCKR (8.4.8): lock PD12 with the key sequence; its MODER bits then stay. */
	wr(f, GPIOD + 0x00, 0x01000000u);
	wr(f, GPIOD + 0x1C, 0x00011000u);
	wr(f, GPIOD + 0x1C, 0x00001000u);
	wr(f, GPIOD + 0x1C, 0x00011000u);
	assert_int_equal(rd(f, GPIOD + 0x1C), 0x00011000u);
	assert_int_equal(rd(f, GPIOD + 0x1C) & 0x10000u, 0x10000u); /* LCKK: locked */
	wr(f, GPIOD + 0x00, 0x00000005u);
	assert_int_equal(rd(f, GPIOD + 0x00), 0x01000005u); /* PD12 kept, PD0/PD1 changed */
	wr(f, GPIOD + 0x18, 1u << 12);                      /* the output itself stays free */
	assert_int_equal(rd(f, GPIOD + 0x14) & 0x1000u, 0x1000u);
	/* A wrong sequence on GPIOA does not lock. */
	wr(f, GPIOA + 0x1C, 0x00010001u);
	wr(f, GPIOA + 0x1C, 0x00010001u);
	wr(f, GPIOA + 0x1C, 0x00010001u);
	assert_int_equal(rd(f, GPIOA + 0x1C) & 0x10000u, 0);
	stm32f4_reset(f->st);
	assert_int_equal(rd(f, GPIOD + 0x1C), 0);
	assert_int_equal(rd(f, GPIOA + 0x00), 0xA8000000u); /* JTAG pins' reset value */
}

#define EXTI   0x40013C00u
#define SYSCFG 0x40013800u

static void test_exti_syscfg(void **state)
{
	struct fixture *f = *state;
	/* SWIER with the line masked: no pending bit, no interrupt. */
	wr(f, EXTI + 0x10, 1u << 0);
	assert_int_equal(rd(f, EXTI + 0x14), 0);
	assert_int_equal(f->irq_count[6], 0);
	wr(f, EXTI + 0x14, 1u << 0); /* clearing PR clears SWIER */
	assert_int_equal(rd(f, EXTI + 0x10), 0);
	wr(f, EXTI + 0x00, (1u << 0) | (1u << 7) | (1u << 13));
	wr(f, EXTI + 0x10, 1u << 0);
	assert_int_equal(rd(f, EXTI + 0x14), 1u << 0);
	assert_int_equal(f->irq_count[6], 1); /* EXTI0 is NVIC position 6 (RM0090 table 61) */
	wr(f, EXTI + 0x14, 1u << 0);
	assert_int_equal(rd(f, EXTI + 0x14), 0);
	wr(f, EXTI + 0x10, 1u << 7);
	assert_int_equal(f->irq_count[23], 1); /* EXTI9_5 */
	/* An output edge on PC13 routed by SYSCFG_EXTICR4 with a rising trigger: EXTI15_10 (40). */
	wr(f, SYSCFG + 0x14, 0x2u << 4); /* EXTI13 = port C */
	assert_int_equal(rd(f, SYSCFG + 0x14), 0x20u);
	wr(f, EXTI + 0x08, 1u << 13);
	wr(f, 0x40020800u + 0x00, 1u << 26); /* PC13 output */
	wr(f, 0x40020800u + 0x18, 1u << 13); /* high: rising edge */
	assert_int_equal(rd(f, EXTI + 0x14) & (1u << 13), 1u << 13);
	assert_int_equal(f->irq_count[40], 1);
	wr(f, 0x40020800u + 0x18, 1u << 29); /* low: no falling trigger */
	assert_int_equal(f->irq_count[40], 1);
	/* SYSCFG_CMPCR.READY follows CMP_PD (9.2.7). */
	wr(f, SYSCFG + 0x20, 1);
	assert_int_equal(rd(f, SYSCFG + 0x20), 0x101u);
}

#define CRC_DR 0x40023000u

static void test_crc(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(rd(f, CRC_DR), 0xFFFFFFFFu);
	wr(f, CRC_DR, 0x12345678u);
	assert_int_equal(rd(f, CRC_DR), 0xDF8A8A2Bu);
	/* The unit is CRC-32/MPEG-2 on big-endian words: "1234" "5678" then the check string's tail is not
	 * word-sized, so compare the 8-byte prefix against a reset-and-feed of the same words. */
	wr(f, CRC_DR + 8, 1); /* CR.RESET */
	assert_int_equal(rd(f, CRC_DR), 0xFFFFFFFFu);
	assert_int_equal(rd(f, CRC_DR + 8), 0);
	wr(f, CRC_DR, 0x12345678u);
	assert_int_equal(rd(f, CRC_DR), 0xDF8A8A2Bu);
	wr(f, CRC_DR + 4, 0x1A5); /* IDR keeps 8 bits */
	assert_int_equal(rd(f, CRC_DR + 4), 0xA5);
	assert_int_equal(f->n_notes, 0); /* modelled: no note */
}

static void test_rng(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(rd(f, 0x50060804u), 0); /* SR: DRDY off while disabled */
	wr(f, 0x50060800u, 1u << 2);
	assert_int_equal(rd(f, 0x50060804u), 1);
	uint32_t a = rd(f, 0x50060808u);
	uint32_t peek = rdw(f, 0x50060808u, 4, BUS_DEBUG); /* a debugger's look consumes nothing */
	uint32_t b = rd(f, 0x50060808u);
	assert_int_not_equal(a, b);
	assert_int_equal(peek, a);
	/* Deterministic: after a reset the same sequence again. */
	stm32f4_reset(f->st);
	wr(f, 0x50060800u, 1u << 2);
	assert_int_equal(rd(f, 0x50060808u), a);
	assert_int_equal(rd(f, 0x50060808u), b);
	assert_int_equal(f->n_notes, 1);
	assert_string_equal(f->notes[0], "the firmware used RNG (0x50060800), whose numbers are deterministic on the "
	                                 "virtual board (the same sequence every run), not random");
}

#define TIM6 0x40001000u
#define TIM2 0x40000000u

static void test_timers(void **state)
{
	struct fixture *f = *state;
	wr(f, 0x40023808u, 5u << 10); /* RCC_CFGR.PPRE1 = /4: APB1 timers at HCLK x 2 / 4 */
	wr(f, TIM6 + 0x28, 83);       /* PSC 83 */
	wr(f, TIM6 + 0x2C, 999);      /* ARR 999 */
	/* PSC is preloaded: EGR.UG loads it and sets UIF (18.4.6); clear UIF. */
	wr(f, TIM6 + 0x14, 1);
	assert_int_equal(rd(f, TIM6 + 0x10), 1);
	wr(f, TIM6 + 0x10, 0);
	wr(f, TIM6 + 0x0C, 1);                                           /* UIE */
	assert_int_equal(stm32f4_next_event(f->st, f->now), UINT64_MAX); /* not counting yet */
	f->now = 1000;
	wr(f, TIM6 + 0x00, 1); /* CEN */
	/* 1 ms at 168 MHz: (83 + 1) x (999 + 1) timer ticks, 2 core cycles each. */
	assert_int_equal(stm32f4_next_event(f->st, f->now), 168000u);
	f->now = 1000 + 2 * 84 * 10 + 1; /* 10 counts */
	assert_int_equal(rd(f, TIM6 + 0x24), 10);
	f->now = 1000 + 168000 - 1;
	stm32f4_advance(f->st, f->now);
	assert_int_equal(f->irq_count[54], 0);
	assert_int_equal(rd(f, TIM6 + 0x24), 999);
	f->now = 1000 + 168000;
	stm32f4_advance(f->st, f->now);
	assert_int_equal(f->irq_count[54], 1); /* TIM6_DAC */
	assert_int_equal(rd(f, TIM6 + 0x10), 1);
	assert_int_equal(rd(f, TIM6 + 0x24), 0);
	wr(f, TIM6 + 0x10, 0);
	/* Ten periods later (flag cleared in between by nobody): one more interrupt edge, counter in phase. */
	f->now = 1000 + 11 * 168000 + 2 * 84 * 5;
	stm32f4_advance(f->st, f->now);
	assert_int_equal(f->irq_count[54], 2);
	assert_int_equal(rd(f, TIM6 + 0x24), 5);
	/* TIM2 is 32 bits; APB1 prescaler 1: one count per core cycle; OPM stops at the update. */
	wr(f, 0x40023808u, 0);
	wr(f, TIM2 + 0x2C, 0x00100000u); /* ARR without ARPE: at once */
	wr(f, TIM2 + 0x00, 1u | (1u << 3));
	f->now += 0x100000;
	assert_int_equal(rd(f, TIM2 + 0x24), 0x100000u);
	f->now += 1;
	assert_int_equal(rd(f, TIM2 + 0x24), 0);
	assert_int_equal(rd(f, TIM2 + 0x00) & 1u, 0); /* OPM cleared CEN */
	assert_int_equal(f->irq_count[28], 0);        /* UIE off: no interrupt */
	assert_int_equal(rd(f, TIM2 + 0x10) & 1u, 1u);
	assert_int_equal(f->n_notes, 0);
}

static void test_usarts(void **state)
{
	struct fixture *f = *state;
	char buf[256] = "";
	FILE *out = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(out);
	stm32f4_set_uart_out(f->st, out);
	/* uart_echo is off in this fixture's config: nothing is printed, but TXE/TC and interrupts work. */
	wr(f, 0x40011000u + 0x0C, (1u << 13) | (1u << 3));
	assert_int_equal(rd(f, 0x40011000u) & 0xC0u, 0xC0u);
	wr(f, 0x40011000u + 0x0C, (1u << 13) | (1u << 3) | (1u << 7)); /* TXEIE: TXE is set, USART1 IRQ 37 */
	assert_int_equal(f->irq_count[37], 1);
	wr(f, 0x40011000u + 0x04, 'x');
	assert_int_equal(f->irq_count[37], 2);
	stm32f4_set_uart_out(f->st, NULL);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(buf, "");
}

static void test_usart_lines(void **state)
{
	(void)state;
	struct sim_bus bus;
	struct stm32f4 *st;
	struct stm32f4_config cfg = {.uart_echo = true};
	char err[128], buf[256] = "";
	bus_init(&bus);
	assert_int_equal(stm32f4_init(&bus, &st, &cfg, err, sizeof(err)), 0);
	FILE *out = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(out);
	stm32f4_set_uart_out(st, out);
	static const uint32_t base[4] = {0x40011000u, 0x40004400u, 0x40004800u, 0x40011400u}; /* USART1, 2, 3, 6 */
	for (int u = 0; u < 4; u++) {
		assert_int_equal(bus_write(&bus, base[u] + 0x0C, 4, BUS_CORE, (1u << 13) | (1u << 3)), BUS_OK);
		for (const char *p = "hi\r\n"; *p; p++)
			assert_int_equal(bus_write(&bus, base[u] + 0x04, 4, BUS_CORE, (uint32_t)*p), BUS_OK);
	}
	stm32f4_set_uart_out(st, NULL);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(buf, "uart: USART1: hi\nuart: hi\nuart: USART3: hi\nuart: USART6: hi\n");
	stm32f4_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_bitband, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_map_and_plain_blocks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gpio, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_exti_syscfg, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_crc, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rng, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_timers, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_usarts, setup, teardown),
	    cmocka_unit_test(test_usart_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
