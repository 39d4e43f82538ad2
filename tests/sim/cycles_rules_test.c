/* Unit tests of the Cortex-M4 cycle model (sim/timing/cycles.c, sim/timing/cycles_rules.c): every TRM rule on
 * machine code assembled from the snippets in cycles_gen_table.py (fixture cycles_table.inc), the
 * divide formula, exception costs, conditions, and the block cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "timing/cycles.h"

struct snippet {
	const char *title;
	uint32_t addr;
	uint32_t size;
	uint8_t code[64];
	unsigned n_insn;
	uint32_t cycles[20];
	uint32_t taken_extra, folds, lsu, cpi;
};

static const struct snippet snippets[] = {
#include "cycles_table.inc"
};

static void test_every_rule(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(snippets) / sizeof(snippets[0]); s++) {
		const struct snippet *sn = &snippets[s];
		struct cyc_model *m = cyc_new();
		assert_non_null(m);
		const struct cyc_block *b = cyc_lookup(m, sn->addr, sn->code, sn->size);
		assert_non_null(b);
		print_message("%s\n", sn->title);
		assert_int_equal(b->n_insn, sn->n_insn);
		uint32_t total = 0;
		for (unsigned i = 0; i < sn->n_insn; i++) {
			uint32_t got = b->cost_before[i + 1] - b->cost_before[i];
			if (got != sn->cycles[i])
				print_message("  instruction %u: %u cycles, expected %u\n", i, got, sn->cycles[i]);
			assert_int_equal(got, sn->cycles[i]);
			total += sn->cycles[i];
		}
		assert_int_equal(b->total, total);
		assert_int_equal(b->branch_taken_extra, sn->taken_extra);
		assert_int_equal(b->fold_count, sn->folds);
		assert_int_equal(b->lsu_extra, sn->lsu);
		assert_int_equal(b->cpi_extra, sn->cpi);
		/* DWT identity (Armv7-M ARM C1.8.x): cycles = instructions + CPI + LSU - FOLD (no
		 * exceptions or sleep inside a block). */
		assert_int_equal(b->total, b->n_insn + b->cpi_extra + b->lsu_extra - b->fold_count);
		assert_int_equal(b->fallthrough, sn->addr + sn->size);
		assert_int_equal(b->addr, sn->addr);
		/* The ledger's view: each instruction's charges, ISSUE first, sum to its cost; the
		 * block's sums by reason to its total (cycles_why_test.c checks which reason). */
		uint32_t by_total = 0;
		for (unsigned w = 0; w < CYC_WHY_N; w++)
			by_total += b->by_why[w];
		assert_int_equal(by_total, b->total);
		for (unsigned i = 0; i < sn->n_insn; i++) {
			uint32_t t = 0;
			assert_int_equal(b->charges[b->charge_first[i]].why, CYC_WHY_ISSUE);
			for (uint32_t k = b->charge_first[i]; k < b->charge_first[i + 1u]; k++)
				t += b->charges[k].cycles;
			assert_int_equal(t, sn->cycles[i]);
		}
		cyc_free(m);
	}
}

/* A block's per-instruction tables: offsets, flags, conditions, divide registers. */
static void test_block_tables(void **state)
{
	(void)state;
	/* cmp r0, #0 ; it ne ; udivne r0, r1, r2 ; bx lr  (arm-none-eabi-as) */
	static const uint8_t code[] = {0x00, 0x28, 0x18, 0xbf, 0xb1, 0xfb, 0xf2, 0xf0, 0x70, 0x47};
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *b = cyc_lookup(m, 0x20000101u, code, sizeof(code)); /* Thumb bit ignored */
	assert_non_null(b);
	assert_int_equal(b->addr, 0x20000100u);
	assert_int_equal(b->n_insn, 4);
	assert_int_equal(b->insn_offset[0], 0);
	assert_int_equal(b->insn_offset[1], 2);
	assert_int_equal(b->insn_offset[2], 4);
	assert_int_equal(b->insn_offset[3], 8);
	assert_int_equal(b->cost_before[0], 0);
	assert_int_equal(b->cost_before[1], 1);
	assert_int_equal(b->cost_before[2], 1); /* IT folded */
	assert_int_equal(b->cost_before[3], 3); /* UDIV minimum 2 */
	assert_int_equal(b->cost_before[4], 4);
	assert_int_equal(b->dyn[0], CYC_DYN_NONE);
	assert_int_equal(b->dyn[2], CYC_DYN_DIVIDE | CYC_DYN_CONDITIONAL);
	assert_int_equal(b->dyn[3], CYC_DYN_BRANCH);
	assert_int_equal(b->cond[0], 14);
	assert_int_equal(b->cond[2], 1); /* NE */
	assert_int_equal(b->aux[2], 0x12);
	assert_int_equal(cyc_skip_saving(b, 2), 1);
	assert_int_equal(cyc_skip_saving(b, 0), 0);
	assert_int_equal(b->fallthrough, 0x2000010au);
	cyc_free(m);
}

static void test_divide_extra(void **state)
{
	(void)state;
	/* 2 + ceil(q / 3), q = quotient bits, at most 12; the static block cost has the 2. */
	assert_int_equal(cyc_divide_extra(5, 7, false), 0);              /* quotient 0 */
	assert_int_equal(cyc_divide_extra(5, 0, false), 0);              /* divide by zero */
	assert_int_equal(cyc_divide_extra(7, 7, false), 1);              /* q = 1 */
	assert_int_equal(cyc_divide_extra(100, 10, false), 2);           /* q = 28 - 25 + 1 = 4 */
	assert_int_equal(cyc_divide_extra(0xffffffffu, 1, false), 10);   /* q = 32: 12 cycles */
	assert_int_equal(cyc_divide_extra(0xffffffffu, 3, false), 10);   /* q = 31: 2 + 11 = 13 -> 12 */
	assert_int_equal(cyc_divide_extra(0x0000ffffu, 1, false), 6);    /* q = 16: 2 + 6 */
	assert_int_equal(cyc_divide_extra((uint32_t)-100, 10, true), 2); /* magnitudes: q = 4 */
	assert_int_equal(cyc_divide_extra(0x80000000u, 1, true), 10);    /* INT_MIN: magnitude 2^31, q = 32 */
	assert_int_equal(cyc_divide_extra(0x80000000u, 1, false), 10);
	assert_int_equal(cyc_divide_extra(1000, (uint32_t)-3, true), 3); /* q = 10 - 2 + 1 = 9 */
}

static void test_exceptions(void **state)
{
	(void)state;
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	assert_int_equal(cyc_exception_entry(m, false), 12);
	assert_int_equal(cyc_exception_entry(m, true), 29);
	assert_int_equal(cyc_exception_return(m, false), 10);
	assert_int_equal(cyc_exception_return(m, true), 27);
	assert_int_equal(cyc_tail_chain(m), 6);
	cyc_free(m);
}

static void test_conditions(void **state)
{
	(void)state;
	const uint32_t N = 1u << 31, Z = 1u << 30, C = 1u << 29, V = 1u << 28;
	assert_true(cyc_cond_passed(0, Z)); /* EQ */
	assert_false(cyc_cond_passed(0, 0));
	assert_true(cyc_cond_passed(1, 0)); /* NE */
	assert_true(cyc_cond_passed(2, C)); /* CS */
	assert_true(cyc_cond_passed(3, 0)); /* CC */
	assert_true(cyc_cond_passed(4, N)); /* MI */
	assert_true(cyc_cond_passed(5, 0)); /* PL */
	assert_true(cyc_cond_passed(6, V)); /* VS */
	assert_true(cyc_cond_passed(7, 0)); /* VC */
	assert_true(cyc_cond_passed(8, C)); /* HI */
	assert_false(cyc_cond_passed(8, C | Z));
	assert_true(cyc_cond_passed(9, Z));      /* LS */
	assert_true(cyc_cond_passed(10, N | V)); /* GE */
	assert_true(cyc_cond_passed(11, N));     /* LT */
	assert_true(cyc_cond_passed(12, 0));     /* GT */
	assert_false(cyc_cond_passed(12, Z));
	assert_true(cyc_cond_passed(13, Z)); /* LE */
	assert_true(cyc_cond_passed(14, 0)); /* AL */
}

static void test_cache(void **state)
{
	(void)state;
	static const uint8_t nops[8] = {0x00, 0xbf, 0x00, 0xbf, 0x00, 0xbf, 0x00, 0xbf};
	/* ldr r0,[r1] ; ldr r2,[r3] ; nop ; nop: 2 + 1 + 1 + 1 */
	static const uint8_t ldr2[8] = {0x08, 0x68, 0x1a, 0x68, 0x00, 0xbf, 0x00, 0xbf};
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *a = cyc_lookup(m, 0x08000000u, nops, sizeof(nops));
	assert_non_null(a);
	/* Cached: the same block, not decoded again (the bytes are not looked at on a hit). */
	assert_ptr_equal(cyc_lookup(m, 0x08000000u, ldr2, sizeof(nops)), a);
	assert_int_equal(a->total, 4);
	/* Same address, another length (single-stepping): its own block. */
	const struct cyc_block *one = cyc_lookup(m, 0x08000000u, nops, 2);
	assert_non_null(one);
	assert_ptr_not_equal(one, a);
	assert_int_equal(one->total, 1);
	/* Thousands of blocks: the table grows and every one is still found. */
	for (uint32_t i = 0; i < 5000; i++)
		assert_non_null(cyc_lookup(m, 0x20000000u + 16u * i, nops, sizeof(nops)));
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(cyc_lookup(m, 0x20000000u + 16u * i, ldr2, sizeof(nops))->total, 4);
	/* Rewritten code: invalidate the range, the next lookup decodes the new bytes. */
	cyc_invalidate(m, 0x20000010u, 4);
	const struct cyc_block *b = cyc_lookup(m, 0x20000010u, ldr2, sizeof(ldr2));
	assert_int_equal(b->total, 5);
	/* Blocks outside the range survive. */
	assert_int_equal(cyc_lookup(m, 0x20000020u, ldr2, sizeof(nops))->total, 4);
	assert_int_equal(cyc_lookup(m, 0x08000000u, ldr2, sizeof(nops))->total, 4);
	/* A range that ends where a block begins leaves it alone; one byte into it drops it. */
	cyc_invalidate(m, 0x20000000u + 16u * 9u - 4u, 4);
	assert_int_equal(cyc_lookup(m, 0x20000000u + 16u * 9u, ldr2, sizeof(nops))->total, 4);
	cyc_invalidate(m, 0x20000000u + 16u * 9u + 7u, 1);
	assert_int_equal(cyc_lookup(m, 0x20000000u + 16u * 9u, ldr2, sizeof(ldr2))->total, 5);
	cyc_free(m);
}

/* The fetch model (cycles.c): entered by a branch, a 32-bit first instruction that is not word
 * aligned waits a cycle for its second word (entry_extra, charged by the core); run into, it does
 * not. A 16-bit or aligned first instruction costs nothing more either way. */
static void test_fetch_entry(void **state)
{
	(void)state;
	static const uint8_t addw_nop[6] = {0x00, 0xf1, 0x01, 0x00, 0x00, 0xbf}; /* add.w r0, r0, #1 ; nop */
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *b = cyc_lookup(m, 0x08000102u, addw_nop, sizeof(addw_nop));
	assert_non_null(b);
	assert_int_equal(b->total, 2);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY], 1);
	assert_int_equal(b->entry_extra[CYC_FETCH_FULL], 0);
	b = cyc_lookup(m, 0x08000100u, addw_nop, sizeof(addw_nop));
	assert_non_null(b);
	assert_int_equal(b->total, 2);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY], 0);
	cyc_free(m);
}

/* A group of unaligned 32-bit instructions at a branch target (issue 25): entered with the buffer
 * empty, the words come one a cycle, one ahead of decode, so the group waits once, for its first
 * instruction's second word (compendium "Branch timing": 3 cycles to an unaligned 32-bit target),
 * and that is its one cycle ("Alignment rules"); b464ad4 counted both (entry_extra 2). Run into
 * with the buffer full, the group keeps its own wait (the compendium's "Groups of three or more
 * unaligned wide instructions will take one extra cycle"). */
static void test_fetch_group_at_target(void **state)
{
	(void)state;
	static const uint8_t addw6[24] = {
	    0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00,
	    0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00}; /* add.w r0, r0, #1 x6 */
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *b = cyc_lookup(m, 0x08000102u, addw6, sizeof(addw6));
	assert_non_null(b);
	assert_int_equal(b->total, 7); /* run into: 6 + the group's wait */
	assert_int_equal(b->entry_extra[CYC_FETCH_FULL], 0);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY], 0); /* 7 from a branch too: one wait in all */
	b = cyc_lookup(m, 0x08000100u, addw6, sizeof(addw6));
	assert_non_null(b);
	assert_int_equal(b->total, 6);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY], 0);
	cyc_free(m);
}

/* A not-taken conditional branch (jnk0le's loop template: a not-taken bne.w "will also take 2
 * cycles if there is less than 2 compressed instructions"): 32-bit code takes a word a cycle, so
 * `add.w` x3 + `bne.w` leaves no word of the next block ahead, however it was entered, and bne.w's
 * speculative fetch of its target takes the slot of the next block's first cycle. Two `add.w`
 * after it wait a cycle; two 16-bit instructions first hide the lost slot. B inside an IT block
 * (encoding T4) is not marked: its condition is not in the instruction. */
static void test_fetch_speculated(void **state)
{
	(void)state;
	static const uint8_t loop[16] = {0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00,  /* add.w r0, r0, #1 x3 */
	                                 0x00, 0xf1, 0x01, 0x00, 0x7f, 0xf4, 0xf8, 0xaf}; /* bne.w loop */
	static const uint8_t addw2[8] = {0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00};
	static const uint8_t adds2_addw[8] = {0x01, 0x30, 0x01, 0x30, 0x00, 0xf1, 0x01, 0x00};
	static const uint8_t it_bne[6] = {0x18, 0xbf, 0xff, 0xf7, 0xed, 0xbf};                /* it ne; bne.w */
	static const uint8_t addw_bnew[8] = {0x00, 0xf1, 0x01, 0x00, 0x7f, 0xf4, 0xfc, 0xaf}; /* add.w; bne.w */
	static const uint8_t ldr_bnew[6] = {0x0b, 0x68, 0x7f, 0xf4, 0xfd, 0xaf};              /* ldr; bne.w */
	static const uint8_t addw2_bnew[12] = {0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00, 0x7f, 0xf4, 0xfa, 0xaf};
	static const uint8_t addw2_adds[10] = {0x00, 0xf1, 0x01, 0x00, 0x00, 0xf1, 0x01, 0x00, 0x01, 0x30};
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *b = cyc_lookup(m, 0x08000200u, loop, sizeof(loop));
	assert_non_null(b);
	assert_int_equal(b->n_insn, 4);
	assert_true(b->dyn[3] & CYC_DYN_SPECULATED);
	assert_int_equal(b->exit_state[CYC_FETCH_EMPTY], CYC_FETCH_EMPTY | CYC_FETCH_STEAL);
	assert_int_equal(b->exit_state[CYC_FETCH_FULL], CYC_FETCH_EMPTY | CYC_FETCH_STEAL);
	b = cyc_lookup(m, 0x08000210u, addw2, sizeof(addw2));
	assert_non_null(b);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY | CYC_FETCH_STEAL], 1);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY], 0);
	/* Entered full, it leaves the third word it found buffered, but the next ones come a cycle
	 * apart from the next block's first cycle on, as from an empty buffer; no steal, no branch. */
	assert_int_equal(b->exit_state[CYC_FETCH_FULL], CYC_FETCH_EMPTY);
	/* A short block entered full: the slot limit holds the next block's second word back to the
	 * cycle bne.w's target takes, so the steal still costs the next block a cycle. */
	b = cyc_lookup(m, 0x08000500u, addw_bnew, sizeof(addw_bnew));
	assert_non_null(b);
	assert_int_equal(b->exit_state[CYC_FETCH_FULL], CYC_FETCH_EMPTY | CYC_FETCH_STEAL);
	/* The slot limit holds the next block's third word to the cycle after the stolen one: the
	 * steal does not delay it, so two words are missing, not three, and add.w x2; adds after it
	 * waits once, as in this block's own timeline (from three missing it would wait twice). */
	b = cyc_lookup(m, 0x08000600u, ldr_bnew, sizeof(ldr_bnew));
	assert_non_null(b);
	assert_int_equal(b->exit_state[CYC_FETCH_FULL], 2 | CYC_FETCH_STEAL);
	b = cyc_lookup(m, 0x08000606u, addw2_adds, sizeof(addw2_adds));
	assert_non_null(b);
	assert_int_equal(b->entry_extra[2 | CYC_FETCH_STEAL], 1);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY | CYC_FETCH_STEAL], 2);
	/* Not taken, a B<cc> that waited for its word (the third of a run of unaligned add.w) gets
	 * nothing back: it issues in one cycle either way (its wait is a fetch stall, not its cost). */
	b = cyc_lookup(m, 0x08000702u, addw2_bnew, sizeof(addw2_bnew));
	assert_non_null(b);
	assert_int_equal(b->cost_before[3] - b->cost_before[2], 2);
	assert_int_equal(b->fallthrough_saving, 0);
	static const uint8_t it_popne[4] = {0x18, 0xbf, 0x10, 0xbd}; /* it ne; popne {r4, pc} */
	b = cyc_lookup(m, 0x08000800u, it_popne, sizeof(it_popne));
	assert_non_null(b);
	assert_int_equal(b->fallthrough_saving, 2); /* 1 + N = 3 when it runs, 1 when it fails */
	b = cyc_lookup(m, 0x08000300u, adds2_addw, sizeof(adds2_addw));
	assert_non_null(b);
	assert_int_equal(b->entry_extra[CYC_FETCH_EMPTY | CYC_FETCH_STEAL], 0);
	b = cyc_lookup(m, 0x08000400u, it_bne, sizeof(it_bne));
	assert_non_null(b);
	assert_int_equal(b->n_insn, 2);
	assert_false(b->dyn[1] & CYC_DYN_SPECULATED);
	assert_false(b->exit_state[CYC_FETCH_FULL] & CYC_FETCH_STEAL);
	cyc_free(m);
}

/* Invalidation leaves every other block where it was (the same pointer, not decoded again), also
 * when probe chains ran through the dropped slots. */
static void test_invalidate_keeps_others(void **state)
{
	(void)state;
	static const uint8_t nops[4] = {0x00, 0xbf, 0x00, 0xbf};
	static const uint8_t ldrs[4] = {0x08, 0x68, 0x1a, 0x68}; /* ldr r0,[r1] ; ldr r2,[r3] */
	enum { N = 3000 };
	static const struct cyc_block *first[N];
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	for (uint32_t i = 0; i < N; i++)
		assert_non_null(first[i] = cyc_lookup(m, 0x08000000u + 4u * i, nops, sizeof(nops)));
	for (int round = 0; round < 4; round++) {
		/* Drop every third block, decode it again with other bytes, check everyone. */
		for (uint32_t i = (uint32_t)round % 3u; i < N; i += 3)
			cyc_invalidate(m, 0x08000000u + 4u * i, 4);
		for (uint32_t i = 0; i < N; i++) {
			const struct cyc_block *b = cyc_lookup(m, 0x08000000u + 4u * i, ldrs, sizeof(ldrs));
			assert_non_null(b);
			if (i % 3u == (uint32_t)round % 3u) {
				assert_int_equal(b->total, 3);
				first[i] = b;
			} else {
				assert_ptr_equal(b, first[i]);
			}
		}
	}
	cyc_free(m);
}

/* A block that ends in an IT instruction does not make the next block decoded conditional
 * (capstone 4's iterator keeps the IT state across calls). */
static void test_it_state_stays_in_its_block(void **state)
{
	(void)state;
	static const uint8_t it_eq[2] = {0x08, 0xbf};            /* it eq */
	static const uint8_t ldrs[4] = {0x08, 0x68, 0x1a, 0x68}; /* ldr r0,[r1] ; ldr r2,[r3] */
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *a = cyc_lookup(m, 0x20000100u, it_eq, sizeof(it_eq));
	assert_non_null(a);
	assert_int_equal(a->cond[0], 0); /* the IT's own condition, EQ */
	const struct cyc_block *b = cyc_lookup(m, 0x20000200u, ldrs, sizeof(ldrs));
	assert_non_null(b);
	assert_int_equal(b->cond[0], 14);
	assert_int_equal(b->dyn[0], CYC_DYN_NONE);
	assert_int_equal(b->total, 3);
	cyc_free(m);
}

/* Whatever bytes a block holds (code running into data), the block's tables are consistent:
 * offsets increase and stay inside the block, costs add up, the DWT identity holds. */
static void test_random_bytes(void **state)
{
	(void)state;
	static uint8_t code[256];
	uint32_t x = 2463534242u; /* xorshift32, fixed seed: the same blocks every run */
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	for (uint32_t blk = 0; blk < 3000; blk++) {
		for (size_t i = 0; i < sizeof(code); i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			code[i] = (uint8_t)x;
		}
		uint32_t size = 2u + 2u * (x % 128u);
		const struct cyc_block *b = cyc_lookup(m, 0x08000000u + 256u * blk, code, size);
		assert_non_null(b);
		assert_true(b->n_insn >= 1 && b->n_insn <= size / 2u);
		assert_int_equal(b->insn_offset[0], 0);
		for (unsigned i = 1; i < b->n_insn; i++) {
			assert_true(b->insn_offset[i] > b->insn_offset[i - 1]);
			assert_true(b->insn_offset[i] < size);
		}
		for (unsigned i = 0; i < b->n_insn; i++)
			assert_true(b->cost_before[i + 1] >= b->cost_before[i]);
		assert_int_equal(b->cost_before[b->n_insn], b->total);
		assert_int_equal(b->total, b->n_insn + b->cpi_extra + b->lsu_extra - b->fold_count);
		assert_true(b->fallthrough >= b->addr + size && b->fallthrough <= b->addr + size + 2u);
	}
	cyc_free(m);
}

static void test_undecodable(void **state)
{
	(void)state;
	/* nop ; 0xde00 (udf #0 is decodable; 0xffff 0xffff is not an instruction) ; nop */
	static const uint8_t code[] = {0x00, 0xbf, 0xff, 0xff, 0xff, 0xff, 0x00, 0xbf};
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *b = cyc_lookup(m, 0x20000000u, code, sizeof(code));
	assert_non_null(b);
	assert_int_equal(b->n_insn, 3);
	assert_int_equal(b->insn_offset[2], 6);
	assert_int_equal(b->dyn[1], CYC_DYN_EXCEPTION);
	assert_int_equal(b->total, 3);
	cyc_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_rule),
	    cmocka_unit_test(test_block_tables),
	    cmocka_unit_test(test_divide_extra),
	    cmocka_unit_test(test_exceptions),
	    cmocka_unit_test(test_conditions),
	    cmocka_unit_test(test_cache),
	    cmocka_unit_test(test_fetch_entry),
	    cmocka_unit_test(test_fetch_group_at_target),
	    cmocka_unit_test(test_fetch_speculated),
	    cmocka_unit_test(test_undecodable),
	    cmocka_unit_test(test_invalidate_keeps_others),
	    cmocka_unit_test(test_it_state_stays_in_its_block),
	    cmocka_unit_test(test_random_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
