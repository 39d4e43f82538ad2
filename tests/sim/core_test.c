#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* The virtual Cortex-M4F (sim/core/core.h) driven as a debugger drives it: through the bus with
 * BUS_DEBUG, the way the MEM-AP reaches DHCSR/DCRSR/DCRDR, the SCB and the DWT. Firmware:
 * tests/firmware/core/{nops,cases}.S, built by the firmware project. Exact numbers come from the
 * Armv7-M ARM (status register bits) and docs/cycle-model.md (NOP 1, LDR 2, BX static 1,
 * exception entry 12, return 10). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core_rig.h"

static void test_nops_standalone(void **state)
{
	(void)state;
	struct rig *r = rig_new("nops", 0, false);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	struct core_end_info end;
	assert_int_equal(core_run_standalone(r->c, 1000000, out, NULL, NULL, &end), CORE_END_DONE);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(buf, "halt pc=0x08000040 imm=1 cyccnt=0 reason=bkpt\n"
	                         "halt pc=0x0800010a imm=2 cyccnt=100 reason=bkpt\n"
	                         "halt pc=0x0800010c imm=1 cyccnt=100 reason=bkpt\n"
	                         "halt pc=0x080008de imm=2 cyccnt=1100 reason=bkpt\n"
	                         "halt pc=0x080008e0 imm=1 cyccnt=1100 reason=bkpt\n"
	                         "halt pc=0x080008e2 imm=2 cyccnt=1100 reason=bkpt\n"
	                         "halt pc=0x080008e4 imm=4 cyccnt=1100 reason=bkpt\n");
	free(buf);
	rig_free(r);
}

static void test_bad_read_hardfault(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 1, true);
	assert_int_equal(run_to_bkpt(r), 0x20);
	assert_int_equal(rd(r, CFSR), 0x00008200u); /* BFARVALID | PRECISERR */
	assert_int_equal(rd(r, HFSR), 0x40000000u); /* FORCED */
	assert_int_equal(rd(r, BFAR), 0x30000000u);
	assert_int_equal(hw_at(r, stacked(r, 6)), 0x6801u); /* stacked PC: the ldr r1, [r0] */
	assert_int_equal(reg(r, 14), 0xFFFFFFF9u);          /* EXC_RETURN: thread, MSP, no FP */
	assert_int_equal(reg(r, 16) & 0x1FFu, 3u);          /* IPSR: HardFault */
	rig_free(r);
}

static void test_bad_read_busfault(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 2, true);
	assert_int_equal(run_to_bkpt(r), 0x22);
	assert_int_equal(rd(r, CFSR), 0x00008200u);
	assert_int_equal(rd(r, HFSR), 0u);
	assert_int_equal(rd(r, BFAR), 0x30000004u);
	assert_int_equal(reg(r, 16) & 0x1FFu, 5u);
	rig_free(r);
}

static void test_udf(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 3, true);
	assert_int_equal(run_to_bkpt(r), 0x20);
	assert_int_equal(rd(r, CFSR), 0x00010000u); /* UNDEFINSTR */
	assert_int_equal(rd(r, HFSR), 0x40000000u);
	assert_int_equal(hw_at(r, stacked(r, 6)), 0xDE07u);
	rig_free(r);

	r = rig_new("cases", 4, true);
	assert_int_equal(run_to_bkpt(r), 0x21);
	assert_int_equal(rd(r, CFSR), 0x00010000u);
	assert_int_equal(rd(r, HFSR), 0u);
	assert_int_equal(hw_at(r, stacked(r, 6)), 0xDE08u);
	rig_free(r);
}

static void test_fp_with_cpacr_off(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 5, true);
	assert_int_equal(run_to_bkpt(r), 0x20);
	assert_int_equal(rd(r, CFSR), 0x00080000u); /* NOCP */
	assert_int_equal(rd(r, HFSR), 0x40000000u);
	assert_int_equal(hw_at(r, stacked(r, 6)), 0xEE00u); /* vmov s0, r0 not executed */
	rig_free(r);
}

static void test_bkpt_without_debugger_locks_up(void **state)
{
	(void)state;
	/* No debugger: the BKPT escalates to HardFault (HFSR.DEBUGEVT, C1.7); the handler's own
	 * BKPT is a fault at priority -1: lockup (B1.5.15). */
	struct rig *r = rig_new("cases", 6, false);
	assert_int_equal(run(r), CORE_LOCKUP);
	assert_false(core_runnable(r->c));
	assert_int_equal(rd(r, HFSR), 0x80000000u);
	wr(r, DHCSR, KEY | C_DEBUGEN | C_HALT);
	uint32_t dhcsr = rd(r, DHCSR);
	assert_int_equal(dhcsr & (S_HALT | S_LOCKUP), S_HALT | S_LOCKUP);
	assert_int_equal(reg(r, 15), 0xEFFFFFFEu);
	rig_free(r);
}

static void test_fault_in_hardfault_locks_up(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 11, true);
	assert_int_equal(run(r), CORE_LOCKUP);
	assert_int_equal(rd(r, CFSR), 0x00010000u);
	assert_int_equal(rd(r, HFSR), 0x40000000u);
	assert_int_equal(rd(r, DHCSR) & S_LOCKUP, S_LOCKUP);
	rig_free(r);
}

static void test_systick_in_measured_stretch(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 7, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t c1 = rd(r, DWT_CYCCNT), e1 = rd(r, DWT_EXCCNT);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	uint32_t c2 = rd(r, DWT_CYCCNT), e2 = rd(r, DWT_EXCCNT);
	/* 1000 NOPs + entry 12 + the handler's BX LR 1 + return 10 */
	assert_int_equal(c2 - c1, 1023u);
	assert_int_equal((e2 - e1) & 0xFFu, 22u); /* one exception's entry and return overhead */
	rig_free(r);
}

static void test_wfi_sleeps_until_systick(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 12, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t v = rd(r, 0xE000E018u); /* SYST_CVR: ticks until the counter reaches 0 */
	assert_int_equal(v, 1999u);      /* SYST_RVR: the enable loaded it, no tick counted yet (B3.3.1) */
	uint32_t c1 = rd(r, DWT_CYCCNT), s1 = rd(r, 0xE0001010u), e1 = rd(r, DWT_EXCCNT);
	resume_past_bkpt(r);
	(void)core_run(r->c, 10); /* WFI (1 cycle), then asleep */
	assert_int_equal(core_state(r->c), CORE_SLEEPING);
	assert_int_equal(rd(r, DHCSR) & (1u << 18), 1u << 18); /* S_SLEEP */
	assert_true(core_runnable(r->c));                      /* SysTick is ahead */
	assert_int_equal(run_to_bkpt(r), 2);
	/* Sleep skips to the SysTick event (v cycles after bkpt #1), then entry 12, BX LR 1,
	 * return 10. SLEEPCNT counts the sleep: v minus the WFI's own cycle. */
	assert_int_equal(rd(r, DWT_CYCCNT) - c1, v + 23u);
	assert_int_equal((rd(r, 0xE0001010u) - s1) & 0xFFu, (v - 1u) & 0xFFu);
	assert_int_equal((rd(r, DWT_EXCCNT) - e1) & 0xFFu, 22u);
	rig_free(r);
}

/* The cycle ledger (core_set_ledger): every cycle CYCCNT counts between two BKPTs is charged with
 * a reason, here a WFI sleep until SysTick and its exception (test_wfi_sleeps_until_systick). */
struct ledger {
	uint64_t by[CORE_CHARGE_N];
	uint64_t issues; /* issue charges: one per instruction executed */
};

static void ledger_add(void *ctx, uint32_t pc, enum core_charge_why why, uint64_t cycles)
{
	struct ledger *l = ctx;
	(void)pc;
	assert_true(why < CORE_CHARGE_N);
	l->by[why] += cycles;
	l->issues += why == CORE_CHARGE_ISSUE;
}

static void test_ledger_sums_to_cyccnt(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 12, true);
	struct ledger l = {{0}, 0};
	core_set_ledger(r->c, ledger_add, &l);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t v = rd(r, 0xE000E018u); /* SYST_CVR */
	uint32_t c1 = rd(r, DWT_CYCCNT);
	l = (struct ledger){{0}, 0};
	struct core_stats s1, s2;
	core_get_stats(r->c, &s1);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	uint32_t c2 = rd(r, DWT_CYCCNT);
	core_get_stats(r->c, &s2);
	assert_int_equal(l.issues, s2.instructions - s1.instructions);
	uint64_t sum = 0;
	for (int w = 0; w < CORE_CHARGE_N; w++)
		sum += l.by[w];
	assert_int_equal(sum, c2 - c1);                    /* v + 23 */
	assert_int_equal(l.by[CORE_CHARGE_SLEEP], v - 1u); /* the WFI's own cycle is its block's */
	assert_int_equal(l.by[CORE_CHARGE_EXC_ENTRY], 12u);
	assert_int_equal(l.by[CORE_CHARGE_EXC_RETURN], 10u);
	core_set_ledger(r->c, NULL, NULL);
	rig_free(r);
}

static void test_tail_chain_after_cpsie(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 13, true);
	assert_int_equal(run_to_bkpt(r), 1);
	assert_int_equal(rd(r, 0xE000ED04u) & ((1u << 28) | (1u << 26)), (1u << 28) | (1u << 26)); /* both pending */
	uint32_t c1 = rd(r, DWT_CYCCNT), e1 = rd(r, DWT_EXCCNT);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	/* CPSIE 2, SysTick entry 12, BX LR 1, tail-chain to PendSV 6, BX LR 1, return 10. */
	assert_int_equal(rd(r, DWT_CYCCNT) - c1, 32u);
	assert_int_equal((rd(r, DWT_EXCCNT) - e1) & 0xFFu, 28u);
	assert_int_equal(rd(r, 0xE000ED04u) & ((1u << 28) | (1u << 26)), 0u);
	rig_free(r);
}

/* Cycles from bkpt #1 to bkpt #2 of case 14, running in slices of `slice` cycles. */
static uint32_t sliced_run(unsigned slice, uint32_t *count)
{
	struct rig *r = rig_new("cases", 14, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t c1 = rd(r, DWT_CYCCNT);
	resume_past_bkpt(r);
	for (int i = 0; i < 100000 && core_state(r->c) == CORE_RUNNING; i++)
		(void)core_run(r->c, slice);
	assert_int_equal(bkpt_imm(r), 2);
	uint32_t cycles = rd(r, DWT_CYCCNT) - c1;
	*count = rd(r, 0x20000004u); /* tick_count */
	assert_int_equal(reg(r, 4), 200u);
	rig_free(r);
	return cycles;
}

static void test_slicing_changes_nothing(void **state)
{
	(void)state;
	/* A slice ends at a block boundary; after a block with an MMIO read unicorn 2.0.1 reported
	 * the previous block's start as PC, which ran it twice. */
	uint32_t n_big, n_small, n_odd;
	uint32_t big = sliced_run(1000000, &n_big);
	uint32_t small = sliced_run(1, &n_small);
	uint32_t odd = sliced_run(7, &n_odd);
	assert_int_equal(n_big, 200u);
	assert_int_equal(n_small, 200u);
	assert_int_equal(n_odd, 200u);
	assert_int_equal(small, big);
	assert_int_equal(odd, big);
}

static void test_nested_preemption(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 15, true);
	assert_int_equal(run_to_bkpt(r), 0x2A);
	assert_int_equal(reg(r, 16) & 0x1FFu, 21u);                        /* IPSR: IRQ 5 */
	assert_int_equal(reg(r, 14), 0xFFFFFFF1u);                         /* returns to handler mode (PendSV), MSP */
	assert_int_equal(rd(r, 0xE000E300u), 1u << 5);                     /* NVIC_IABR0: IRQ 5 active */
	assert_int_equal(rd(r, 0xE000ED24u) & (1u << 10), 1u << 10);       /* SHCSR.PENDSVACT */
	assert_int_equal(rd(r, 0xE000ED04u) & (0x1FFu | (1u << 11)), 21u); /* VECTACTIVE, RETTOBASE 0 */
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 0x2B);
	assert_int_equal(reg(r, 16) & 0x1FFu, 14u); /* back in PendSV */
	assert_int_equal(rd(r, 0xE000E300u), 0u);
	assert_int_equal(rd(r, 0xE000ED04u) & (0x1FFu | (1u << 11)), 14u | (1u << 11));
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	assert_int_equal(reg(r, 16) & 0x1FFu, 0u);
	assert_int_equal(reg(r, 13), 0x20020000u); /* both frames popped */
	rig_free(r);
}

static void test_data_watchpoints(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 16, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t store_pc = reg(r, 15) + 4;            /* bkpt, nop, then the str */
	assert_int_equal(hw_at(r, store_pc), 0x602Bu); /* str r3, [r5] */
	wr(r, DWT_COMP0, 0x20000004u);                 /* tick_count */
	wr(r, 0xE0001024u, 0);                         /* MASK0: the word's address exactly */
	wr(r, DWT_FUNCTION0, 6u);                      /* write */
	resume_past_bkpt(r);
	assert_int_equal(run(r), CORE_HALTED);
	/* C1.8.17: the halt follows the access (here at the end of its block), not before it. */
	assert_int_equal(rd(r, DFSR), 0x4u); /* DWTTRAP */
	assert_int_equal(rd(r, DWT_FUNCTION0) >> 24, 1u);
	assert_int_equal(rd(r, 0x20000004u), 7u);
	uint32_t pc = reg(r, 15);
	assert_int_equal(pc, store_pc + 8); /* past the str, at its block's end */
	/* A read watchpoint: the store no longer matches, the load does. */
	wr(r, DWT_FUNCTION0, 5u);
	wr(r, DFSR, 0x1F);
	wr(r, DHCSR, KEY | C_DEBUGEN);
	assert_int_equal(run_to_bkpt(r), 0x2C);
	resume_past_bkpt(r);
	assert_int_equal(run(r), CORE_HALTED);
	assert_int_equal(rd(r, DFSR), 0x4u);
	assert_int_equal(reg(r, 4), 7u);
	assert_int_equal(bkpt_imm(r), 0x2D);
	/* FUNCTION 0 disables it: the core runs to the end. */
	wr(r, DWT_FUNCTION0, 0u);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 4);
	rig_free(r);
}

static void test_sleep_on_exit(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 17, true);
	(void)core_run(r->c, 100000);
	assert_int_equal(core_state(r->c), CORE_SLEEPING);
	assert_false(core_runnable(r->c)); /* nothing ahead to wake it */
	assert_int_equal(rd(r, DHCSR) & ((1u << 18) | S_HALT), 1u << 18);
	assert_int_equal(reg(r, 16) & 0x1FFu, 0u); /* slept in thread mode, the frame popped */
	/* An interrupt wakes it; after that handler it sleeps again: halting shows where. */
	wr(r, 0xE000ED04u, 1u << 28); /* PENDSVSET from the debugger */
	assert_true(core_runnable(r->c));
	(void)core_run(r->c, 100000);
	assert_int_equal(core_state(r->c), CORE_SLEEPING);
	wr(r, DHCSR, KEY | C_DEBUGEN | C_HALT);
	assert_int_equal(core_state(r->c), CORE_HALTED);
	assert_int_equal(hw_at(r, reg(r, 15)), 0xBE02u); /* parked before bkpt #2 */
	rig_free(r);
}

/* A software pend in the middle of a block (cases 18-20): the exception is taken once, after the
 * store (Armv7-M ARM B1.5.6: the return address is the next instruction), and the rest of the
 * block runs once. Guards the reported fault "the store re-executes after the handler returns, so
 * the handler is taken forever" (not reproduced on this core). The pend is taken at the block's end
 * (docs/core.md); with no DSB/ISB, Armv7-M allows that delay, so each case ends its block with a
 * branch before BKPT #2, which would otherwise halt first. */
static void pend_once(uint32_t test_id, uint32_t passes)
{
	struct rig *r = rig_new("cases", test_id, true);
	assert_int_equal(run_to_bkpt(r), 1);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	assert_int_equal(rd(r, 0x20000004u), passes);           /* tick_count: the handler ran once per store */
	assert_int_equal(reg(r, 4), passes == 1 ? 3u : passes); /* what follows the store ran once */
	assert_int_equal(rd(r, 0xE000ED04u) & ((1u << 28) | (1u << 26)), 0u);
	assert_int_equal(rd(r, 0xE000E200u), 0u); /* ISPR0: nothing left pending */
	rig_free(r);
}

static void test_pendstset_taken_once(void **state)
{
	(void)state;
	pend_once(18, 1);
}

static void test_pendsvset_taken_once(void **state)
{
	(void)state;
	pend_once(19, 1);
}

static void test_ispr_taken_once(void **state)
{
	(void)state;
	pend_once(20, 1);
}

static void test_pendstset_in_loop(void **state)
{
	(void)state;
	pend_once(21, 5);
}

/* Case 22: SysTick (reload 99, processor clock) expires inside a 400-NOP block. By default the
 * exception is taken at the instruction boundary where it expires (Armv7-M ARM B1.5.6); with
 * block_ticks, at the block's end, after BKPT #2 has halted (tick_pc still 0). */
static void test_systick_mid_block(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 22, true);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t sled = reg(r, 15) + 8; /* bkpt #1, mov, str, b: 8 bytes, then the aligned sled */
	sled = (sled + 1023u) & ~1023u;
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	uint32_t pc = rd(r, 0x20000008u); /* tick_pc */
	/* Enabled by the STR before the sled: 100 cycles = STR 1, B 1 + P 2 (docs/cycle-model.md), 96 NOPs. */
	assert_int_equal(pc, sled + 2u * 96u);
	rig_free(r);
	const struct sim_config cfg = {.block_ticks = true};
	r = rig_new_cfg("cases", 22, true, &cfg);
	assert_int_equal(run_to_bkpt(r), 1);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	assert_int_equal(rd(r, 0x20000008u), 0u);
	rig_free(r);
}

/* Case 23: PENDSTSET stored in a loop's block. The first pass's pend waits for the block's end
 * (unicorn cannot stop in the store's MMIO callback); from the second on it is taken right after
 * the store (docs/core.md), so the last stacked PC is the ADDS after it. With block_ticks, always
 * the block's end, the BKPT #2 after the loop. */
static void pend_exact(const struct sim_config *cfg, uint32_t want_off)
{
	struct rig *r = rig_new_cfg("cases", 23, true, cfg);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t bkpt1 = reg(r, 15);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	assert_int_equal(rd(r, 0x20000008u), bkpt1 + want_off); /* tick_pc */
	assert_int_equal(reg(r, 4), 2u);
	rig_free(r);
}

static void test_pend_taken_after_store(void **state)
{
	(void)state;
	const struct sim_config exact = {0}, late = {.block_ticks = true};
	pend_exact(&exact, 4);
	pend_exact(&late, 10);
}

static double mono_s(void)
{
	struct timespec ts;
	assert_int_equal(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The control port's `wait-states N` between two runs: cheap (it took ~9 s when it emptied
 * unicorn's whole code buffer), and the old translations stay correct to run. */
static void test_wait_states_cheap(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 14, true);
	assert_int_equal(run_to_bkpt(r), 1);
	double t0 = mono_s();
	core_set_wait_states(r->c, 5);
	core_set_wait_states(r->c, 0);
	double dt = mono_s() - t0;
	assert_true(dt < 0.05);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 2);
	assert_int_equal(reg(r, 4), 200u);
	assert_int_equal(rd(r, 0x20000004u), 200u);
	rig_free(r);
}

static void test_fp_lazy_stacking(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 8, true);
	assert_int_equal(run_to_bkpt(r), 0x24);
	assert_int_equal(reg(r, 14), 0xFFFFFFE9u); /* thread, MSP, extended frame */
	uint32_t sp = reg(r, 13);
	assert_int_equal(rd(r, FPCCR) & 1u, 1u); /* LSPACT */
	assert_int_equal(rd(r, FPCAR), sp + 0x20u);
	assert_int_equal((reg(r, 20) >> 24) & 4u, 0u); /* CONTROL.FPCA cleared in the handler */
	assert_int_equal(rd(r, sp + 0x20), 0u);        /* space reserved, nothing written yet */
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 0x25);
	assert_int_equal(rd(r, FPCCR) & 1u, 0u);
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(rd(r, sp + 0x20 + 4 * i), 0x100u);
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 0x26);
	assert_int_equal(reg(r, 0x40), 0x100u);        /* S0 restored by the return */
	assert_int_equal(reg(r, 16) & 0x1FFu, 0u);     /* thread mode */
	assert_int_equal((reg(r, 20) >> 24) & 4u, 4u); /* CONTROL.FPCA back */
	assert_int_equal(reg(r, 13), sp + 0x68u);
	rig_free(r);
}

static void test_svc(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 9, true);
	assert_int_equal(run_to_bkpt(r), 0x23);
	assert_int_equal(reg(r, 16) & 0x1FFu, 11u);
	uint32_t ret = stacked(r, 6);
	assert_int_equal(hw_at(r, ret - 2), 0xDF05u); /* returns after svc #5 */
	resume_past_bkpt(r);
	assert_int_equal(run_to_bkpt(r), 0x28);
	assert_int_equal(reg(r, 15), ret);
	assert_int_equal(reg(r, 16) & 0x1FFu, 0u);
	rig_free(r);
}

static void test_cyccnt_read_inside_block(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 10, true);
	assert_int_equal(run_to_bkpt(r), 0x27);
	assert_int_equal(reg(r, 4), 12u); /* LDR (2, not pipelined: uses r1 just loaded) + 10 NOPs */
	assert_int_equal(reg(r, 5), 22u); /* LDR 2 + 20 NOPs */
	rig_free(r);
}

static void test_vector_catch(void **state)
{
	(void)state;
	struct rig *r = rig_new("cases", 3, true);
	wr(r, DEMCR, (1u << 24) | (1u << 10)); /* TRCENA, VC_HARDERR */
	assert_int_equal(run(r), CORE_HALTED);
	assert_int_equal(rd(r, DFSR), 0x8u); /* VCATCH */
	assert_int_equal(reg(r, 15), rd(r, 0x0800000Cu) & ~1u);
	rig_free(r);

	/* VC_CORERESET with a VECTRESET: halted on the reset vector, S_RESET_ST sticky once. */
	r = rig_new("nops", 0, true);
	wr(r, DEMCR, 1u);
	(void)rd(r, DHCSR);
	wr(r, AIRCR, 0x05FA0001u);
	assert_int_equal(core_state(r->c), CORE_HALTED);
	uint32_t d1 = rd(r, DHCSR), d2 = rd(r, DHCSR);
	assert_int_equal(d1 & (S_RESET_ST | S_HALT | C_HALT), S_RESET_ST | S_HALT | C_HALT);
	assert_int_equal(d2 & S_RESET_ST, 0u);
	assert_int_equal(rd(r, DFSR), 0x8u);
	assert_int_equal(reg(r, 15), 0x08000040u);
	rig_free(r);
}

static void test_dhcsr_halt_step_retire(void **state)
{
	(void)state;
	struct rig *r = rig_new("nops", 0, true);
	wr(r, DEMCR, 1u << 24);
	wr(r, DWT_CTRL, 1u);
	assert_int_equal(run_to_bkpt(r), 1);
	uint32_t d = rd(r, DHCSR);
	assert_int_equal(d & (C_HALT | S_HALT | S_RETIRE_ST), C_HALT | S_HALT); /* the BKPT retired nothing */
	assert_int_equal(rd(r, DFSR), 0x2u);                                    /* BKPT */
	uint32_t c0 = rd(r, DWT_CYCCNT);
	set_reg(r, 15, 0x08000042u);
	wr(r, DFSR, 0x1F);
	wr(r, DHCSR, KEY | C_DEBUGEN | C_STEP); /* one instruction, then halted again */
	assert_int_equal(core_state(r->c), CORE_HALTED);
	assert_int_equal(reg(r, 15), 0x08000044u);
	assert_int_equal(rd(r, DFSR), 0x1u); /* HALTED */
	assert_int_equal(rd(r, DWT_CYCCNT) - c0, 1u);
	d = rd(r, DHCSR);
	assert_int_equal(d & (S_RETIRE_ST | C_HALT | C_STEP), S_RETIRE_ST | C_HALT | C_STEP);
	assert_int_equal(rd(r, DHCSR) & S_RETIRE_ST, 0u);
	/* C_HALT while running halts with DFSR.HALTED; nothing counts while halted. */
	wr(r, DHCSR, KEY | C_DEBUGEN);
	(void)core_run(r->c, 10);
	wr(r, DHCSR, KEY | C_DEBUGEN | C_HALT);
	uint32_t c1 = rd(r, DWT_CYCCNT);
	(void)core_run(r->c, 1000);
	assert_int_equal(rd(r, DWT_CYCCNT), c1);
	rig_free(r);
}

static void test_fpb_and_dwt_breakpoints(void **state)
{
	(void)state;
	struct rig *r = rig_new("nops", 0, true);
	wr(r, DEMCR, 1u << 24);
	wr(r, DWT_CTRL, 1u);
	assert_int_equal(run_to_bkpt(r), 1);
	wr(r, FP_CTRL, 3u);                             /* KEY | ENABLE */
	wr(r, FP_COMP0, 0x08000050u | (1u << 30) | 1u); /* lower halfword, enabled */
	uint32_t c0 = rd(r, DWT_CYCCNT);
	resume_past_bkpt(r);
	assert_int_equal(run(r), CORE_HALTED);
	assert_int_equal(reg(r, 15), 0x08000050u);
	assert_int_equal(rd(r, DFSR), 0x2u);
	assert_int_equal(rd(r, DWT_CYCCNT) - c0, 7u); /* 0x42..0x4E: 7 NOPs */
	/* A comparator at the resume address fires at once (cortex_m_step relies on it). */
	wr(r, DFSR, 0x1F);
	wr(r, DHCSR, KEY | C_DEBUGEN);
	assert_int_equal(run(r), CORE_HALTED);
	assert_int_equal(reg(r, 15), 0x08000050u);
	assert_int_equal(rd(r, DWT_CYCCNT) - c0, 7u);
	/* DWT instruction-address match (FUNCTION = 4) halts with DWTTRAP and sets MATCHED. */
	wr(r, FP_COMP0, 0);
	wr(r, DWT_COMP0, 0x08000060u);
	wr(r, DWT_FUNCTION0, 4u);
	wr(r, DFSR, 0x1F);
	wr(r, DHCSR, KEY | C_DEBUGEN);
	assert_int_equal(run(r), CORE_HALTED);
	assert_int_equal(reg(r, 15), 0x08000060u);
	assert_int_equal(rd(r, DFSR), 0x4u);
	assert_int_equal(rd(r, DWT_FUNCTION0) >> 24, 1u);
	assert_int_equal(rd(r, DWT_FUNCTION0) >> 24, 0u); /* MATCHED clears on read */
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nops_standalone),
	    cmocka_unit_test(test_bad_read_hardfault),
	    cmocka_unit_test(test_bad_read_busfault),
	    cmocka_unit_test(test_udf),
	    cmocka_unit_test(test_fp_with_cpacr_off),
	    cmocka_unit_test(test_bkpt_without_debugger_locks_up),
	    cmocka_unit_test(test_fault_in_hardfault_locks_up),
	    cmocka_unit_test(test_systick_in_measured_stretch),
	    cmocka_unit_test(test_wfi_sleeps_until_systick),
	    cmocka_unit_test(test_ledger_sums_to_cyccnt),
	    cmocka_unit_test(test_tail_chain_after_cpsie),
	    cmocka_unit_test(test_slicing_changes_nothing),
	    cmocka_unit_test(test_nested_preemption),
	    cmocka_unit_test(test_data_watchpoints),
	    cmocka_unit_test(test_sleep_on_exit),
	    cmocka_unit_test(test_pendstset_taken_once),
	    cmocka_unit_test(test_pendsvset_taken_once),
	    cmocka_unit_test(test_ispr_taken_once),
	    cmocka_unit_test(test_pendstset_in_loop),
	    cmocka_unit_test(test_systick_mid_block),
	    cmocka_unit_test(test_pend_taken_after_store),
	    cmocka_unit_test(test_wait_states_cheap),
	    cmocka_unit_test(test_fp_lazy_stacking),
	    cmocka_unit_test(test_svc),
	    cmocka_unit_test(test_cyccnt_read_inside_block),
	    cmocka_unit_test(test_vector_catch),
	    cmocka_unit_test(test_dhcsr_halt_step_retire),
	    cmocka_unit_test(test_fpb_and_dwt_breakpoints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
