/* Unit tests of the cycle model's ledger view (sim/timing/cycles_why.h, the block's charges in
 * sim/timing/cycles.h), with sim_timing alone: machine code in, each instruction's cycles by
 * reason out. Each rule puts its cycles under its own reason and nowhere else; the charges of an
 * instruction sum to its cost, ISSUE first (one per execution). The code was assembled with
 * arm-none-eabi-as -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mthumb. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/cycles.h"

/* Instruction i's cycles under each reason. */
static void insn_why(const struct cyc_block *b, unsigned i, uint32_t *by)
{
	memset(by, 0, CYC_WHY_N * sizeof(*by));
	for (uint32_t k = b->charge_first[i]; k < b->charge_first[i + 1u]; k++) {
		assert_int_equal(b->charges[k].insn, i);
		assert_true(b->charges[k].why < CYC_WHY_N);
		by[b->charges[k].why] += b->charges[k].cycles;
	}
}

/* The block's invariants, and instruction i's reasons: pairs (reason, cycles) ended by
 * CYC_WHY_N; every reason not named must be 0. */
static const struct cyc_block *check(struct cyc_model *m, uint32_t addr, const uint8_t *code, uint32_t size, unsigned i,
                                     ...)
{
	const struct cyc_block *b = cyc_lookup(m, addr, code, size);
	assert_non_null(b);
	uint32_t by[CYC_WHY_N], sum[CYC_WHY_N] = {0};
	for (unsigned j = 0; j < b->n_insn; j++) {
		/* ISSUE first, exactly once: the execution count. */
		assert_true(b->charge_first[j] < b->charge_first[j + 1u]);
		assert_int_equal(b->charges[b->charge_first[j]].why, CYC_WHY_ISSUE);
		insn_why(b, j, by);
		uint32_t t = 0;
		for (unsigned w = 0; w < CYC_WHY_N; w++) {
			t += by[w];
			sum[w] += by[w];
		}
		assert_int_equal(t, b->cost_before[j + 1u] - b->cost_before[j]);
	}
	unsigned nonzero = 0;
	for (unsigned w = 0; w < CYC_WHY_N; w++) {
		assert_int_equal(sum[w], b->by_why[w]);
		if (sum[w]) /* sum_why lists them in order */
			assert_int_equal(b->sum_why[nonzero++], w);
	}
	assert_int_equal(b->n_sum_why, nonzero);
	insn_why(b, i, by);
	uint32_t want[CYC_WHY_N] = {0};
	va_list ap;
	va_start(ap, i);
	for (;;) {
		int w = va_arg(ap, int);
		if (w == CYC_WHY_N)
			break;
		want[w] = va_arg(ap, uint32_t);
	}
	va_end(ap);
	for (unsigned w = 0; w < CYC_WHY_N; w++) {
		if (by[w] != want[w])
			print_message("instruction %u: %s %u, expected %u\n", i, cyc_why_name(w), by[w], want[w]);
		assert_int_equal(by[w], want[w]);
	}
	return b;
}

static void test_names(void **state)
{
	(void)state;
	for (unsigned w = 0; w < CYC_WHY_N; w++) {
		assert_non_null(cyc_why_name(w));
		for (unsigned v = 0; v < w; v++)
			assert_string_not_equal(cyc_why_name(w), cyc_why_name(v));
	}
	assert_null(cyc_why_name(CYC_WHY_N));
	assert_string_equal(cyc_why_name(CYC_WHY_ISSUE), "issue");
}

/* The rules decided at decode: each extra cycle under its rule's reason, the rest as issue. */
static void test_rule_reasons(void **state)
{
	(void)state;
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	/* str r0, [r1]; ldr r2, [r3]: the load waits for the store's data phase (3.3.2). */
	static const uint8_t las[] = {0x08, 0x60, 0x1a, 0x68};
	check(m, 0x20000000u, las, sizeof(las), 1, CYC_WHY_ISSUE, 2u, CYC_WHY_LOAD_AFTER_STORE, 1u, CYC_WHY_N);
	check(m, 0x20000000u, las, sizeof(las), 0, CYC_WHY_ISSUE, 1u, CYC_WHY_N);
	/* adds r1, r1, #4; ldr r0, [r1]: the address dependency. */
	static const uint8_t agu[] = {0x04, 0x31, 0x08, 0x68};
	check(m, 0x20000100u, agu, sizeof(agu), 1, CYC_WHY_ISSUE, 2u, CYC_WHY_ADDRESS_DEP, 1u, CYC_WHY_N);
	/* str r0, [r1, #4]!; str r2, [r1, #4]!: chained write-back stores. */
	static const uint8_t swb[] = {0x41, 0xf8, 0x04, 0x0f, 0x41, 0xf8, 0x04, 0x2f};
	check(m, 0x20000200u, swb, sizeof(swb), 1, CYC_WHY_ISSUE, 1u, CYC_WHY_STORE_WRITEBACK, 1u, CYC_WHY_N);
	/* movs r0, #0; it eq; moveq r1, #1: IT folded (0 cycles, still its issue charge). */
	static const uint8_t itf[] = {0x00, 0x20, 0x08, 0xbf, 0x01, 0x21};
	check(m, 0x20000300u, itf, sizeof(itf), 1, CYC_WHY_N);
	/* mov.w r0, #0; it eq; moveq r1, #1: IT after a 32-bit instruction issues alone. */
	static const uint8_t itn[] = {0x4f, 0xf0, 0x00, 0x00, 0x08, 0xbf, 0x01, 0x21};
	check(m, 0x20000400u, itn, sizeof(itn), 1, CYC_WHY_IT, 1u, CYC_WHY_N);
	/* vadd.f32 s0, s1, s2; vadd.f32 s3, s0, s0: the FP result-use stall (7.2.3). */
	static const uint8_t fpu[] = {0x30, 0xee, 0x81, 0x0a, 0x70, 0xee, 0x00, 0x1a};
	check(m, 0x20000500u, fpu, sizeof(fpu), 1, CYC_WHY_ISSUE, 1u, CYC_WHY_FPU_RESULT, 1u, CYC_WHY_N);
	/* isb: 1 + B. */
	static const uint8_t isb[] = {0xbf, 0xf3, 0x6f, 0x8f};
	check(m, 0x20000600u, isb, sizeof(isb), 0, CYC_WHY_ISSUE, 1u, CYC_WHY_ISB, 2u, CYC_WHY_N);
	/* nop; add.w r0..r3, r0..r3, #1; nop: four 32-bit instructions at 2 mod 4, the third waits
	 * a cycle for its words (compendium "Alignment rules"): fetch-unaligned, at that instruction. */
	static const uint8_t una[] = {0x00, 0xbf, 0x00, 0xf1, 0x01, 0x00, 0x01, 0xf1, 0x01, 0x01,
	                              0x02, 0xf1, 0x01, 0x02, 0x03, 0xf1, 0x01, 0x03, 0x00, 0xbf};
	const struct cyc_block *b =
	    check(m, 0x20000700u, una, sizeof(una), 3, CYC_WHY_ISSUE, 1u, CYC_WHY_FETCH_UNALIGNED, 1u, CYC_WHY_N);
	assert_int_equal(b->by_why[CYC_WHY_FETCH_UNALIGNED], 1u);
	assert_int_equal(b->by_why[CYC_WHY_FETCH_BUFFER], 0u);
	/* The entry stall (entry_extra) is fetch-unaligned when the first instruction is 32-bit at 2
	 * mod 4 (the block from the first add.w on), else fetch-buffer. */
	assert_int_equal(b->entry_why, CYC_WHY_FETCH_BUFFER);
	const struct cyc_block *u = cyc_lookup(m, 0x20000802u, una + 2, 16);
	assert_non_null(u);
	assert_int_equal(u->entry_why, CYC_WHY_FETCH_UNALIGNED);
	cyc_free(m);
}

/* The refill of the block's final branch, by kind (taken_why). */
static void test_branch_kinds(void **state)
{
	(void)state;
	static const struct {
		uint8_t code[4];
		uint32_t size;
		enum cyc_why why;
		uint32_t p;
	} cases[] = {
	    {{0x02, 0xe0}, 2, CYC_WHY_BRANCH_JUMP, 2},             /* b.n */
	    {{0x00, 0xf0, 0x7e, 0xf8}, 4, CYC_WHY_BRANCH_CALL, 2}, /* bl */
	    {{0x02, 0xd0}, 2, CYC_WHY_BRANCH_COND, 1},             /* beq */
	    {{0x10, 0xb1}, 2, CYC_WHY_BRANCH_COND, 2},             /* cbz */
	    {{0x70, 0x47}, 2, CYC_WHY_BRANCH_RETURN, 1},           /* bx lr */
	    {{0x00, 0x47}, 2, CYC_WHY_BRANCH_INDIRECT, 2},         /* bx r0 */
	    {{0x10, 0xbd}, 2, CYC_WHY_BRANCH_LOAD, 3},             /* pop {r4, pc} */
	    {{0xd0, 0xf8, 0x00, 0xf0}, 4, CYC_WHY_BRANCH_LOAD, 3}, /* ldr pc, [r0] */
	    {{0xd0, 0xe8, 0x01, 0xf0}, 4, CYC_WHY_BRANCH_LOAD, 3}, /* tbb [r0, r1] */
	};
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct cyc_block *b =
		    cyc_lookup(m, 0x20001000u + 0x10u * (uint32_t)k, cases[k].code, cases[k].size);
		assert_non_null(b);
		print_message("case %zu: %s\n", k, cyc_why_name(b->taken_why));
		assert_int_equal(b->taken_why, cases[k].why);
		assert_int_equal(b->branch_taken_extra, cases[k].p);
	}
	cyc_free(m);
}

/* cmp r0, #0; it ne; ldrne r0, [r1]: when the load fails it issues in 1 and nothing else. */
static void test_failed_conditional(void **state)
{
	(void)state;
	static const uint8_t code[] = {0x00, 0x28, 0x18, 0xbf, 0x08, 0x68};
	struct cyc_model *m = cyc_new();
	assert_non_null(m);
	const struct cyc_block *b = check(m, 0x20002000u, code, sizeof(code), 2, CYC_WHY_ISSUE, 2u, CYC_WHY_N);
	assert_int_equal(b->fallthrough_saving, 1u);
	assert_int_equal(b->fail_issue, 1u);
	uint32_t failed = 0, issues = 0;
	for (uint32_t k = 0; k < b->charge_first[b->n_insn]; k++) {
		failed += cyc_failed_charge(b, k);
		issues += b->charges[k].why == CYC_WHY_ISSUE;
	}
	assert_int_equal(failed, b->total - b->fallthrough_saving);
	assert_int_equal(issues, b->n_insn); /* one execution each, the failed one too */
	cyc_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_rule_reasons),
	    cmocka_unit_test(test_branch_kinds),
	    cmocka_unit_test(test_failed_conditional),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
