/* The virtual STM32F407 driven from its core (firmware tests/firmware/core/chip.S), inspected as a debugger does
 * through the bus: bit-band accesses of every size and their cost (Cortex-M4 TRM 3.7: the processor does not stall
 * for a bit-band access, so an alias LDR/STR costs what a plain one does), the DebugMonitor exception on BKPT
 * (Armv7-M ARM C1.7) and escalation when it cannot preempt, and chip interrupts reaching the NVIC. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "bus/bus.h"
#include "core/core.h"

#define DHCSR      0xE000EDF0u
#define DCRSR      0xE000EDF4u
#define DCRDR      0xE000EDF8u
#define DFSR       0xE000ED30u
#define HFSR       0xE000ED2Cu
#define DWT_CYCCNT 0xE0001004u
#define KEY        0xA05F0000u
#define C_DEBUGEN  1u
#define TEST_ID    0x20000000u /* .noinit: test_id, count, dfsr_seen, after */
#define COUNT      0x20000004u
#define DFSR_SEEN  0x20000008u
#define AFTER      0x2000000Cu

struct rig {
	struct board board; /* the STM32F4 board around the core, as bench-sim builds it */
	struct sim_core *c; /* board.core */
};

static uint32_t rd(struct rig *r, uint32_t addr)
{
	uint32_t v = 0;
	assert_int_equal(bus_read(&r->board.bus, addr, 4, BUS_DEBUG, &v), BUS_OK);
	return v;
}

static void wr(struct rig *r, uint32_t addr, uint32_t v)
{
	assert_int_equal(bus_write(&r->board.bus, addr, 4, BUS_DEBUG, v), BUS_OK);
}

static uint32_t reg(struct rig *r, unsigned sel)
{
	wr(r, DCRSR, sel);
	return rd(r, DCRDR);
}

static struct rig *rig_new(uint32_t test_id, bool debug)
{
	struct rig *r = calloc(1, sizeof(*r));
	struct sim_config cfg = {0};
	char err[256], path[512];
	assert_non_null(r);
	if (board_init(&r->board, &cfg, err, sizeof(err)) != 0)
		fail_msg("board_init: %s", err);
	r->c = r->board.core;
	snprintf(path, sizeof(path), "%s/tests/firmware/core/chip.elf", CORE_FW_BUILD_DIR);
	if (core_load_elf(r->c, path, err, sizeof(err)) != 0)
		fail_msg("core_load_elf: %s", err);
	wr(r, TEST_ID, test_id);
	if (debug)
		wr(r, DHCSR, KEY | C_DEBUGEN);
	return r;
}

static void rig_free(struct rig *r)
{
	board_free(&r->board);
	free(r);
}

static unsigned run_to_bkpt(struct rig *r)
{
	for (int i = 0; i < 100 && core_state(r->c) != CORE_HALTED; i++)
		(void)core_run(r->c, 100000);
	assert_int_equal(core_state(r->c), CORE_HALTED);
	uint32_t pc = reg(r, 15), hw = 0;
	assert_int_equal(bus_read(&r->board.bus, pc, 2, BUS_DEBUG, &hw), BUS_OK);
	assert_int_equal(hw & 0xFF00u, 0xBE00u);
	return hw & 0xFFu;
}

static void resume_past_bkpt(struct rig *r)
{
	wr(r, DCRDR, reg(r, 15) + 2);
	wr(r, DCRSR, 15u | (1u << 16));
	wr(r, DFSR, 0x1F);
	wr(r, DHCSR, KEY | C_DEBUGEN);
}

static void test_bitband_from_core(void **state)
{
	(void)state;
	struct rig *r = rig_new(1, true);
	assert_int_equal(run_to_bkpt(r), 1);
	assert_int_equal(reg(r, 2), 1); /* LDR of the word alias */
	assert_int_equal(reg(r, 3), 1); /* LDRH */
	assert_int_equal(reg(r, 4), 1); /* LDRB */
	assert_int_equal(reg(r, 5), 0); /* a clear bit */
	assert_int_equal(reg(r, 6), 1); /* RCC_CR.PLLRDY through 0x42470064 after PLLON through 0x42470060 */
	/* STR 0xFF (bit 5), STRH (bit 17), STRB (bit 31), then STR 0x0E to bit 31's alias as a word: cleared. */
	assert_int_equal(rd(r, 0x20000100u), 0x00020020u);
	/* The debugger sees the same aliases (AHB-AP: BUS_DEBUG). */
	assert_int_equal(rd(r, 0x22000000u + 0x100u * 32u + 17u * 4u), 1);
	rig_free(r);
}

static void test_bitband_timing(void **state)
{
	(void)state;
	struct rig *r = rig_new(2, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t t0 = rd(r, DWT_CYCCNT);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	uint32_t t1 = rd(r, DWT_CYCCNT);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 3);
	uint32_t t2 = rd(r, DWT_CYCCNT);
	/* Ten STR+LDR pairs each way; the BKPT between them costs the same in both stretches. */
	assert_int_equal(t1 - t0, t2 - t1);
	assert_int_equal(t1 - t0, 40u); /* 4 cycles a pair */
	rig_free(r);
}

static void test_debugmon(void **state)
{
	(void)state;
	/* No debugger, DEMCR.MON_EN: DebugMonitor runs, sees DFSR.BKPT, steps over; no HardFault. */
	struct rig *r = rig_new(3, false);
	(void)core_run(r->c, 100000);
	assert_int_equal(core_state(r->c), CORE_RUNNING);
	assert_int_equal(rd(r, COUNT), 1);
	assert_int_equal(rd(r, DFSR_SEEN) & 0x2u, 0x2u);
	assert_int_equal(rd(r, AFTER), 1);
	assert_int_equal(rd(r, HFSR), 0);
	rig_free(r);
	/* Halting debug on: the BKPT halts, the monitor does not run (C1.7: halting debug wins). */
	r = rig_new(3, true);
	assert_int_equal(run_to_bkpt(r), 9);
	assert_int_equal(rd(r, COUNT), 0);
	rig_free(r);
}

static void test_debugmon_cannot_preempt(void **state)
{
	(void)state;
	/* PRIMASK raises the execution priority to 0, DebugMonitor's own: it cannot preempt, so the BKPT escalates
	 * to HardFault with HFSR.DEBUGEVT (B1.5.14, C1.7). */
	struct rig *r = rig_new(4, false);
	(void)core_run(r->c, 100000);
	assert_int_equal(rd(r, AFTER), 2);
	assert_int_equal(rd(r, COUNT), 0);
	assert_int_equal(rd(r, HFSR), 0x80000000u);
	rig_free(r);
}

static void test_tim6_interrupts(void **state)
{
	(void)state;
	struct rig *r = rig_new(5, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t t0 = rd(r, DWT_CYCCNT);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	uint32_t dt = rd(r, DWT_CYCCNT) - t0;
	assert_int_equal(rd(r, COUNT), 5);
	/* Five updates 2000 cycles apart from CEN; then the handler, the return and the loop to BKPT #2. */
	assert_int_equal(dt, 10038u);
	rig_free(r);
}

static void test_exti_swier_interrupt(void **state)
{
	(void)state;
	struct rig *r = rig_new(6, true);
	assert_int_equal(run_to_bkpt(r), 1);
	assert_int_equal(reg(r, 2), 1); /* the EXTI0 handler ran before the DSB/ISB completed */
	assert_int_equal(reg(r, 3), 0); /* and cleared EXTI_PR */
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bitband_from_core), cmocka_unit_test(test_bitband_timing),
	    cmocka_unit_test(test_debugmon),          cmocka_unit_test(test_debugmon_cannot_preempt),
	    cmocka_unit_test(test_tim6_interrupts),   cmocka_unit_test(test_exti_swier_interrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
