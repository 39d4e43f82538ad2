/* DWT_PCSR while the core runs (Armv7-M ARM C1.8.8; sim/core/core_clock.c core_pcsr_sample): read
 * by the debugger between slices, as a profiler does, it answers instructions spread over the last
 * slice in proportion to their cycles, not the block boundary the slice stopped at. Firmware:
 * tests/firmware/core/pcsr.S. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core_rig.h"

#define DWT_PCSR  0xE000101Cu
#define N_SAMPLES 3000
#define SLICE     10000u /* cycles per core_run, as bench-sim runs while the probe talks */
#define MAX_INSN  128

enum { R_LOOP, R_FA, R_FB, N_REGIONS };

struct regions {
	uint32_t lo[N_REGIONS], hi[N_REGIONS];
	uint32_t insn[MAX_INSN]; /* every instruction address of the three regions */
	unsigned n_insn;
	uint64_t cycles[N_REGIONS + 1]; /* the ledger's charges by region; [N_REGIONS]: elsewhere */
};

static int region_of(const struct regions *g, uint32_t pc)
{
	for (int k = 0; k < N_REGIONS; k++)
		if (pc >= g->lo[k] && pc < g->hi[k])
			return k;
	return N_REGIONS;
}

static void ledger(void *ctx, uint32_t pc, enum core_charge_why why, uint64_t cycles)
{
	struct regions *g = ctx;
	(void)why;
	g->cycles[region_of(g, pc)] += cycles;
}

/* The instruction addresses of [lo, hi): a halfword 0b11101, 0b11110 or 0b11111 in its top bits
 * starts a 32-bit instruction (A5.1). */
static void walk(struct rig *r, struct regions *g, uint32_t lo, uint32_t hi)
{
	for (uint32_t a = lo; a < hi;) {
		assert_true(g->n_insn < MAX_INSN);
		g->insn[g->n_insn++] = a;
		a += (hw_at(r, a) & 0xF800u) >= 0xE800u ? 4u : 2u;
	}
}

static bool is_insn(const struct regions *g, uint32_t pc)
{
	for (unsigned i = 0; i < g->n_insn; i++)
		if (g->insn[i] == pc)
			return true;
	return false;
}

/* Halted at bkpt #1 with the bounds in R4-R9; resumed, with the ledger counting. */
static struct rig *start(struct regions *g)
{
	struct rig *r = rig_new("pcsr", 0, true);
	assert_int_equal(run_to_bkpt(r), 1);
	for (int k = 0; k < N_REGIONS; k++) {
		g->lo[k] = reg(r, 4u + 2u * (unsigned)k) & ~1u;
		g->hi[k] = reg(r, 5u + 2u * (unsigned)k) & ~1u;
		walk(r, g, g->lo[k], g->hi[k]);
	}
	assert_int_equal(rd(r, DWT_PCSR), 0xFFFFFFFFu); /* halted (C1.8.8) */
	resume_past_bkpt(r);
	core_set_ledger(r->c, ledger, g);
	return r;
}

static void test_pcsr_shares(void **state)
{
	(void)state;
	struct regions g = {0};
	struct rig *r = start(&g);
	unsigned seen[N_REGIONS] = {0}, inside = 0;
	(void)core_run(r->c, SLICE);
	(void)rd(r, DWT_PCSR); /* the first read starts the noting */
	memset(g.cycles, 0, sizeof(g.cycles));
	for (int n = 0; n < N_SAMPLES; n++) {
		(void)core_run(r->c, SLICE);
		assert_int_equal(core_state(r->c), CORE_RUNNING);
		uint32_t pc = rd(r, DWT_PCSR);
		if (!is_insn(&g, pc))
			fail_msg("sample %d: 0x%08x is not an instruction of the loop", n, pc);
		int k = region_of(&g, pc);
		seen[k]++;
		if (pc != g.lo[R_FA] && pc != g.lo[R_FB] && k != R_LOOP)
			inside++; /* fa and fb are one block each: not a block start */
	}
	assert_int_equal(g.cycles[N_REGIONS], 0);
	uint64_t total = g.cycles[R_LOOP] + g.cycles[R_FA] + g.cycles[R_FB];
	for (int k = 0; k < N_REGIONS; k++) {
		double p = (double)g.cycles[k] / (double)total;
		double share = (double)seen[k] / N_SAMPLES;
		double se = sqrt(p * (1.0 - p) / N_SAMPLES);
		printf("region %d: %.4f of the cycles, %.4f of %d samples (se %.4f)\n", k, p, share, N_SAMPLES, se);
		assert_true(seen[k] > 0);
		assert_true(fabs(share - p) <= 4.0 * se);
	}
	printf("%u samples inside fa or fb past their first instruction\n", inside);
	assert_true(inside > N_SAMPLES / 2);
	rig_free(r);
}

/* The same board state, the same samples: the sampling is seeded per board (xorshift). */
static void test_pcsr_reproducible(void **state)
{
	(void)state;
	uint32_t first[64];
	for (int pass = 0; pass < 2; pass++) {
		struct regions g = {0};
		struct rig *r = start(&g);
		(void)rd(r, DWT_PCSR);
		for (int n = 0; n < 64; n++) {
			(void)core_run(r->c, SLICE);
			uint32_t pc = rd(r, DWT_PCSR);
			if (pass == 0)
				first[n] = pc;
			else
				assert_int_equal(pc, first[n]);
		}
		rig_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pcsr_shares),
	    cmocka_unit_test(test_pcsr_reproducible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
