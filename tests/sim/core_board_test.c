/* The board seam of the virtual Cortex-M4F (sim/core/core.h struct core_soc, sim/board.c) and the SCS
 * register table (sim/scs/scs.c), driven as core_test.c drives the core (core_rig.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chip/stm32f4.h"
#include "scs/scs.h"
#include "core_rig.h"

static void wr_n(struct rig *r, uint32_t addr, unsigned size, uint32_t v)
{
	assert_int_equal(bus_write(&r->board.bus, addr, size, BUS_DEBUG, v), BUS_OK);
}

/* The SCS register table (sim/scs/scs.c): names, sub-word writes by row kind, the board's IRQ count. Values
 * from the Armv7-M ARM: SHPR3 byte 3 is SysTick's priority (B3.2.10), 4 implemented bits (PM0214 4.3.7);
 * VTOR[31:7] (B3.2.5); ICTR.INTLINESNUM 2 for 82 lines (RM0090 table 61); STIR ignores lines past the last. */
static void test_scs_table(void **state)
{
	(void)state;
	char err[160];
	assert_int_equal(scs_check(err, sizeof(err)), 0);
	assert_string_equal(scs_name(0xD08), "VTOR");
	assert_string_equal(scs_name(0x10B), "NVIC_ISER0");
	assert_string_equal(scs_name(0xDF0), "DHCSR");
	assert_null(scs_name(0xC00)); /* reserved */
	struct rig *r = rig_new("nops", 0, true);
	assert_int_equal(rd(r, 0xE000E004u), 2u);
	wr_n(r, 0xE000ED23u, 1, 0xA5u); /* byte-accessible row: only that lane */
	assert_int_equal(rd(r, 0xE000ED20u), 0xA0000000u);
	wr_n(r, 0xE000E405u, 1, 0xFFu); /* NVIC_IPR1 byte 1: IRQ 5 */
	assert_int_equal(rd(r, 0xE000E404u), 0x0000F000u);
	wr_n(r, 0xE000ED0Au, 2, 0x0800u); /* stored row: read, merge, write */
	assert_int_equal(rd(r, 0xE000ED08u), 0x08000000u);
	wr(r, 0xE000EF00u, 81u);
	wr(r, 0xE000EF00u, 82u);
	assert_int_equal(rd(r, 0xE000E208u), 1u << 17);
	core_pend_irq(r->c, 3);
	core_pend_irq(r->c, 82);
	assert_int_equal(rd(r, 0xE000E200u), 1u << 3);
	rig_free(r);
}

/* A chip timer behind struct core_soc's next_event/advance (the seam the STM32F4's timers use): a
 * period of 250 cycles raising interrupt line 0. At every halt the timer has been brought to the
 * core's cycle count, each expiry was seen within one translated block (a slice ends at the next
 * event, as for SysTick; unicorn blocks are at most 512 instructions), and the line reached the NVIC. */
struct fake_timer {
	struct sim_core *core;
	uint64_t due, latest, now;
	unsigned fired;
};

static uint64_t fake_next_event(void *ctx, uint64_t now)
{
	struct fake_timer *t = ctx;
	return t->due > now ? t->due - now : 0;
}

static void fake_advance(void *ctx, uint64_t now)
{
	struct fake_timer *t = ctx;
	for (; t->due <= now; t->due += 250) {
		t->fired++;
		if (now - t->due > t->latest)
			t->latest = now - t->due;
		core_pend_irq(t->core, 0);
	}
	t->now = now;
}

static void test_soc_timer(void **state)
{
	(void)state;
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	static struct fake_timer t;
	t = (struct fake_timer){.due = 250};
	bus_init(&r->board.bus);
	char err[160];
	const struct stm32f4_config chip_cfg = {0};
	assert_int_equal(stm32f4_init(&r->board.bus, &r->board.chip, &chip_cfg, err, sizeof(err)), 0);
	const struct sim_config cfg = {0};
	const struct core_soc soc = {
	    .num_irq = 82, .prio_bits = 4, .next_event = fake_next_event, .advance = fake_advance, .ctx = &t};
	r->c = r->board.core = core_new(&r->board.bus, &cfg, &soc, err, sizeof(err));
	assert_non_null(r->c);
	t.core = r->c;
	assert_int_equal(core_load_elf(r->c, fw("nops"), err, sizeof(err)), 0);
	wr(r, DHCSR, KEY | C_DEBUGEN);
	for (int halt = 0; halt < 4; halt++) {
		(void)run_to_bkpt(r);
		struct core_stats st;
		core_get_stats(r->c, &st);
		assert_int_equal(t.now, st.cycles);
		assert_int_equal(t.fired, st.cycles / 250);
		resume_past_bkpt(r);
	}
	assert_int_equal(t.fired, 4);
	assert_int_equal(t.latest, 489); /* cycles late at worst, the same every run: within a 512-insn block */
	assert_int_equal(rd(r, 0xE000E200u) & 1u, 1u); /* NVIC_ISPR0: line 0 pending */
	rig_free(r);
}

/* core_new refuses what no Cortex-M4 has: 0 or 241 interrupt lines (TRM: 1 to 240), 2 priority bits
 * (Armv7-M ARM B1.5.4: at least 3), with a message naming the limit. */
static void test_soc_limits(void **state)
{
	(void)state;
	static const struct {
		unsigned irq, bits;
		const char *msg;
	} bad[] = {
	    {0, 4, "core: 0 interrupt lines: a Cortex-M4 has 1 to 240"},
	    {241, 4, "core: 241 interrupt lines: a Cortex-M4 has 1 to 240"},
	    {82, 2, "core: 2 priority bits: Armv7-M implements 3 to 8 (B1.5.4)"},
	    {82, 9, "core: 9 priority bits: Armv7-M implements 3 to 8 (B1.5.4)"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sim_bus bus;
		bus_init(&bus);
		char err[160] = "";
		const struct sim_config cfg = {0};
		const struct core_soc soc = {.num_irq = bad[i].irq, .prio_bits = bad[i].bits};
		assert_null(core_new(&bus, &cfg, &soc, err, sizeof(err)));
		assert_string_equal(err, bad[i].msg);
		assert_int_equal(bus.n_regions, 0); /* refused before touching the bus */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scs_table),
	    cmocka_unit_test(test_soc_timer),
	    cmocka_unit_test(test_soc_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
