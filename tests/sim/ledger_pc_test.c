/* The ledger by address (core_set_ledger: a callback per charge, what bench-sim --record uses)
 * against the totals ledger (core_set_ledger_totals: a block's sums, what bench-sim --ledger
 * uses), on the cycle snippets of tests/firmware/cycles (whose breakdowns cycles_e2e.sh checks
 * against tests/sim/cycles_ledger/): between every two marker halts the two give the same cycles
 * under every reason, their sum is CYCCNT's difference, and the issue charges are the
 * instructions the core executed, one each: counted per address, they are its executions. */
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

#define MAX_HALTS 200
#define FLASH     0x08000000u
#define FLASH_HW  0x8000u /* halfwords of the first 64 KiB of flash: the snippets' code */

struct ledger_run {
	struct sim_core *core;
	uint64_t by[CORE_CHARGE_N];
	uint64_t issues;               /* CORE_CHARGE_ISSUE calls */
	uint64_t bad_pc;               /* charges of a block's cycles at address 0 */
	uint64_t start;                /* the core's cycles when the ledger started */
	unsigned n;                    /* halts */
	uint32_t execs[FLASH_HW];      /* issue charges per instruction address in flash */
	uint32_t flash_data[FLASH_HW]; /* flash-data cycles per address */
	uint32_t halt_pc[MAX_HALTS];
	struct board *board;
	uint64_t at[MAX_HALTS][CORE_CHARGE_N];
	uint64_t issues_at[MAX_HALTS], insns_at[MAX_HALTS], cycles_at[MAX_HALTS];
};

static void by_pc(void *ctx, uint32_t pc, enum core_charge_why why, uint64_t cycles)
{
	struct ledger_run *l = ctx;
	assert_true((unsigned)why < CORE_CHARGE_N);
	l->by[why] += cycles;
	l->issues += why == CORE_CHARGE_ISSUE;
	if (why == CORE_CHARGE_ISSUE && pc >= FLASH && (pc - FLASH) / 2u < FLASH_HW)
		l->execs[(pc - FLASH) / 2u]++;
	if (why == CORE_CHARGE_FLASH_DATA && pc >= FLASH && (pc - FLASH) / 2u < FLASH_HW)
		l->flash_data[(pc - FLASH) / 2u] += (uint32_t)cycles;
	l->bad_pc += pc == 0 && why != CORE_CHARGE_EXC_ENTRY && why != CORE_CHARGE_EXC_RETURN;
}

static void on_halt(void *ctx)
{
	struct ledger_run *l = ctx;
	assert_true(l->n < MAX_HALTS);
	struct core_stats st;
	core_get_stats(l->core, &st);
	memcpy(l->at[l->n], l->by, sizeof(l->by));
	l->issues_at[l->n] = l->issues;
	l->insns_at[l->n] = st.instructions;
	l->cycles_at[l->n] = st.cycles;
	/* The PC through DCRSR/DCRDR, as a debugger reads it (C1.6.3). */
	assert_int_equal(bus_write(&l->board->bus, 0xE000EDF4u, 4, BUS_DEBUG, 15u), BUS_OK);
	assert_int_equal(bus_read(&l->board->bus, 0xE000EDF8u, 4, BUS_DEBUG, &l->halt_pc[l->n]), BUS_OK);
	l->n++;
}

/* Runs ELF (tests/firmware/cycles) stand-alone with one kind of ledger into l. */
static void run(const char *elf, enum sim_memory_blocks mb, bool totals, struct ledger_run *l)
{
	char path[512], err[256];
	int len = snprintf(path, sizeof(path), "%s/tests/firmware/cycles/%s.elf", CYCLES_FW_BUILD_DIR, elf);
	assert_true(len > 0 && (size_t)len < sizeof(path));
	const struct sim_config cfg = {.memory_blocks = mb};
	struct board *b = calloc(1, sizeof(*b));
	assert_non_null(b);
	if (board_init(b, &cfg, err, sizeof(err)) != 0)
		fail_msg("board_init: %s", err);
	if (core_load_elf(b->core, path, err, sizeof(err)) != 0)
		fail_msg("core_load_elf: %s", err);
	memset(l, 0, sizeof(*l));
	l->core = b->core;
	l->board = b;
	if (totals)
		core_set_ledger_totals(b->core, l->by);
	else
		core_set_ledger(b->core, by_pc, l);
	struct core_stats st;
	core_get_stats(b->core, &st);
	l->start = st.cycles;
	FILE *out = fopen("/dev/null", "w");
	assert_non_null(out);
	struct core_end_info end;
	assert_int_equal(core_run_standalone(b->core, 50000000, out, on_halt, l, &end), CORE_END_DONE);
	assert_int_equal(fclose(out), 0);
	core_set_ledger(b->core, NULL, NULL);
	board_free(b);
	free(b);
}

/* Runs elf both ways and compares; returns the run by address (the caller frees it). */
static struct ledger_run *check(const char *elf, enum sim_memory_blocks mb)
{
	struct ledger_run *pc = calloc(1, sizeof(*pc)), *tot = calloc(1, sizeof(*tot));
	assert_non_null(pc);
	assert_non_null(tot);
	run(elf, mb, false, pc);
	run(elf, mb, true, tot);
	print_message("%s: %u halts\n", elf, pc->n);
	assert_true(pc->n > 10);
	assert_int_equal(pc->n, tot->n);
	assert_int_equal(pc->bad_pc, 0);
	for (unsigned h = 0; h < pc->n; h++) {
		uint64_t sum = 0;
		for (unsigned w = 0; w < CORE_CHARGE_N; w++) {
			if (pc->at[h][w] != tot->at[h][w])
				print_message("halt %u: %s %llu by address, %llu in the totals\n", h,
				              core_charge_name((enum core_charge_why)w),
				              (unsigned long long)pc->at[h][w], (unsigned long long)tot->at[h][w]);
			assert_int_equal(pc->at[h][w], tot->at[h][w]);
			sum += pc->at[h][w];
		}
		assert_int_equal(sum, pc->cycles_at[h] - pc->start); /* every cycle in the ledger */
		assert_int_equal(pc->issues_at[h], pc->insns_at[h]);
	}
	free(tot);
	return pc;
}

static void test_rules(void **state)
{
	(void)state;
	struct ledger_run *pc = check("rules", SIM_MB_ENTRY);
	/* Executions per address from the issue charges: rules.S's BEGIN(29) snippet is `1: subs r0,
	 * #1; bne 1b` with r0 = 10, its tenth BEGIN (halt 18): each instruction 10 times, the BEGIN's
	 * BKPT (halted, resumed past, not executed) never. */
	uint32_t at = pc->halt_pc[18];
	assert_true(at >= FLASH && (at - FLASH) / 2u + 2u < FLASH_HW);
	assert_int_equal(pc->execs[(at - FLASH) / 2u], 0);
	assert_int_equal(pc->execs[(at - FLASH) / 2u + 1u], 10);
	assert_int_equal(pc->execs[(at - FLASH) / 2u + 2u], 10);
	uint64_t all = 0;
	for (unsigned k = 0; k < FLASH_HW; k++)
		all += pc->execs[k];
	assert_int_equal(all, pc->issues); /* every instruction ran from flash */
	free(pc);
}

static void test_ws(void **state)
{
	(void)state;
	struct ledger_run *pc = check("ws", SIM_MB_ENTRY);
	/* ws.S's `nop; ldr r1, [r5]` snippet (its 13th BEGIN, halt 24) with 5 wait states and no data
	 * cache: the load's 5 wait cycles at the load, none at the nop that starts its block. */
	uint32_t at = pc->halt_pc[24];
	assert_true(at >= FLASH && (at - FLASH) / 2u + 2u < FLASH_HW);
	assert_int_equal(pc->flash_data[(at - FLASH) / 2u + 1u], 0);
	assert_int_equal(pc->flash_data[(at - FLASH) / 2u + 2u], 5);
	free(pc);
}

static void test_blocks_exact(void **state)
{
	(void)state;
	free(check("blocks", SIM_MB_EXACT));
}

static void test_blocks_entry(void **state)
{
	(void)state;
	free(check("blocks_entry", SIM_MB_ENTRY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rules),
	    cmocka_unit_test(test_ws),
	    cmocka_unit_test(test_blocks_exact),
	    cmocka_unit_test(test_blocks_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
