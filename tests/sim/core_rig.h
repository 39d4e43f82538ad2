/* Test rig for the virtual Cortex-M4F: the STM32F4 board as bench-sim builds it (sim/board.h), the
 * firmware of tests/firmware/core loaded by the back door, and the debugger's view of the core: bus
 * accesses with BUS_DEBUG to DHCSR/DCRSR/DCRDR, the SCB and the DWT, as the MEM-AP makes them.
 * Header-only (each test file is one executable); needs CORE_FW_BUILD_DIR and <cmocka.h> first. */
#ifndef TESTS_SIM_CORE_RIG_H
#define TESTS_SIM_CORE_RIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "board.h"
#include "bus/bus.h"
#include "core/core.h"

#define DHCSR         0xE000EDF0u
#define DCRSR         0xE000EDF4u
#define DCRDR         0xE000EDF8u
#define DEMCR         0xE000EDFCu
#define DFSR          0xE000ED30u
#define CFSR          0xE000ED28u
#define HFSR          0xE000ED2Cu
#define BFAR          0xE000ED38u
#define AIRCR         0xE000ED0Cu
#define FPCCR         0xE000EF34u
#define FPCAR         0xE000EF38u
#define DWT_CTRL      0xE0001000u
#define DWT_CYCCNT    0xE0001004u
#define DWT_EXCCNT    0xE000100Cu
#define DWT_COMP0     0xE0001020u
#define DWT_FUNCTION0 0xE0001028u
#define FP_CTRL       0xE0002000u
#define FP_COMP0      0xE0002008u
#define KEY           0xA05F0000u
#define C_DEBUGEN     1u
#define C_HALT        2u
#define C_STEP        4u
#define S_HALT        (1u << 17)
#define S_LOCKUP      (1u << 19)
#define S_RETIRE_ST   (1u << 24)
#define S_RESET_ST    (1u << 25)
#define TEST_ID_ADDR  0x20000000u /* .noinit is the first SRAM section of core.ld */

struct rig {
	struct board board; /* the STM32F4 board around the core, as bench-sim builds it */
	struct sim_core *c; /* board.core */
};

static inline const char *fw(const char *name)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/tests/firmware/core/%s.elf", CORE_FW_BUILD_DIR, name);
	return path;
}

static inline uint32_t rd(struct rig *r, uint32_t addr)
{
	uint32_t v = 0;
	assert_int_equal(bus_read(&r->board.bus, addr, 4, BUS_DEBUG, &v), BUS_OK);
	return v;
}

static inline void wr(struct rig *r, uint32_t addr, uint32_t v)
{
	assert_int_equal(bus_write(&r->board.bus, addr, 4, BUS_DEBUG, v), BUS_OK);
}

static inline uint32_t reg(struct rig *r, unsigned sel)
{
	wr(r, DCRSR, sel);
	return rd(r, DCRDR);
}

static inline void set_reg(struct rig *r, unsigned sel, uint32_t v)
{
	wr(r, DCRDR, v);
	wr(r, DCRSR, sel | (1u << 16));
}

static inline struct rig *rig_new_cfg(const char *elf, uint32_t test_id, bool debug, const struct sim_config *cfgp)
{
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	char err[256];
	if (board_init(&r->board, cfgp, err, sizeof(err)) != 0)
		fail_msg("board_init: %s", err);
	r->c = r->board.core;
	if (core_load_elf(r->c, fw(elf), err, sizeof(err)) != 0)
		fail_msg("core_load_elf: %s", err);
	wr(r, TEST_ID_ADDR, test_id);
	if (debug)
		wr(r, DHCSR, KEY | C_DEBUGEN);
	return r;
}

static inline struct rig *rig_new(const char *elf, uint32_t test_id, bool debug)
{
	const struct sim_config cfg = {0};
	return rig_new_cfg(elf, test_id, debug, &cfg);
}

static inline void rig_free(struct rig *r)
{
	board_free(&r->board);
	free(r);
}

/* Runs until the core halts or locks up (or 10 M cycles pass). */
static inline enum core_state run(struct rig *r)
{
	for (int i = 0; i < 100 && core_state(r->c) != CORE_HALTED && core_state(r->c) != CORE_LOCKUP; i++)
		(void)core_run(r->c, 100000);
	return core_state(r->c);
}

static inline unsigned bkpt_imm(struct rig *r)
{
	uint32_t pc = reg(r, 15), hw = 0;
	assert_int_equal(bus_read(&r->board.bus, pc, 2, BUS_DEBUG, &hw), BUS_OK);
	assert_int_equal(hw & 0xFF00u, 0xBE00u);
	return hw & 0xFFu;
}

/* Halted at a BKPT: step over it and resume, as OpenOCD's resume does. */
static inline void resume_past_bkpt(struct rig *r)
{
	set_reg(r, 15, reg(r, 15) + 2);
	wr(r, DFSR, 0x1F);
	wr(r, DHCSR, KEY | C_DEBUGEN);
}

static inline uint32_t run_to_bkpt(struct rig *r)
{
	assert_int_equal(run(r), CORE_HALTED);
	return bkpt_imm(r);
}

static inline uint16_t hw_at(struct rig *r, uint32_t addr)
{
	uint32_t v = 0;
	assert_int_equal(bus_read(&r->board.bus, addr, 2, BUS_DEBUG, &v), BUS_OK);
	return (uint16_t)v;
}

static inline uint32_t stacked(struct rig *r, unsigned word)
{
	return rd(r, reg(r, 13) + 4 * word);
}

#endif /* TESTS_SIM_CORE_RIG_H */
