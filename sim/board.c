/* The STM32F4 board composed around the Cortex-M4F core (see board.h). */
#include "board.h"

#include <string.h>

#include "chip/stm32f4_art.h"

/* FLASH controller program/erase: the core drops translated code there (in either window). */
static void on_code_write(void *ctx, uint32_t addr, uint32_t size)
{
	core_invalidate_code(ctx, addr, size);
}

/* The chip's view of the core: its clock (cycles at the access being made) and the NVIC's lines. */
static uint64_t chip_clock(void *ctx, uint32_t addr)
{
	return core_cycles(ctx, addr);
}

static void chip_irq(void *ctx, unsigned irq)
{
	core_pend_irq(ctx, irq);
}

/* The chip's timers, run in the core's time (TIM2-TIM7 count core cycles). */
static uint64_t chip_next_event(void *ctx, uint64_t now)
{
	return stm32f4_next_event(ctx, now);
}

static void chip_advance(void *ctx, uint64_t now)
{
	stm32f4_advance(ctx, now);
}

/* The flash accelerator's timing (chip/stm32f4_art.h), which FLASH_ACR writes drive. */
static uint32_t flash_block_wait(void *ctx, uint32_t first_line, const uint16_t *line_start, unsigned n_lines,
                                 uint32_t cycles, bool branch)
{
	return art_run_block(ctx, first_line, line_start, n_lines, cycles, branch);
}

static uint32_t flash_literal_wait(void *ctx, uint32_t off)
{
	return art_literal(ctx, off);
}

static void flash_set_wait_states(void *ctx, int ws)
{
	art_override(ctx, ws);
}

/* AIRCR.SYSRESETREQ resets the whole chip but the debug logic (RM0090 6.1.2, Armv7-M ARM B3.2.6). */
static void on_system_reset(void *ctx)
{
	stm32f4_reset(ctx);
}

/* The data memories loads pipeline within (core_soc.mem_blocks): SRAM1, SRAM2 and the CCM. */
static const struct core_mem_block stm32f4_mem_blocks[] = {
    {STM32F4_SRAM_BASE, STM32F4_SRAM1_SIZE},
    {STM32F4_SRAM2_BASE, STM32F4_SRAM2_SIZE},
    {STM32F4_CCM_BASE, STM32F4_CCM_SIZE},
};

int board_init(struct board *b, const struct sim_config *cfg, char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	bus_init(&b->bus);
	const struct stm32f4_config chip_cfg = {.uart_echo = cfg->uart_echo};
	if (stm32f4_init(&b->bus, &b->chip, &chip_cfg, err, errlen) != 0)
		return -1;
	struct stm32f4_art *art = stm32f4_art(b->chip);
	const struct core_soc soc = {
	    .num_irq = STM32F4_NUM_IRQ,
	    .prio_bits = STM32F4_PRIO_BITS,
	    .system_reset = on_system_reset,
	    .next_event = chip_next_event,
	    .advance = chip_advance,
	    .ctx = b->chip,
	    .flash =
	        {
	            .base = STM32F4_FLASH_BASE,
	            .size = STM32F4_FLASH_SIZE,
	            .line_shift = ART_LINE_SHIFT,
	            .ws = &art->ws,
	            .block_wait = flash_block_wait,
	            .literal_wait = flash_literal_wait,
	            .set_wait_states = flash_set_wait_states,
	            .ctx = art,
	        },
	    .mem_blocks = stm32f4_mem_blocks,
	    .n_mem_blocks = sizeof(stm32f4_mem_blocks) / sizeof(stm32f4_mem_blocks[0]),
	};
	b->core = core_new(&b->bus, cfg, &soc, err, errlen);
	if (!b->core)
		return -1;
	stm32f4_on_code_write(b->chip, on_code_write, b->core);
	stm32f4_connect(b->chip, chip_clock, chip_irq, b->core);
	return 0;
}

void board_free(struct board *b)
{
	core_free(b->core); /* first: it may still flush ITM output */
	stm32f4_free(b->chip);
	b->core = NULL;
	b->chip = NULL;
}
