/* Unit tests of the memory operand decoding in the cycle model's folder (sim/timing/memops.c),
 * linked with sim_timing alone: hand-assembled Thumb-2 (Armv7-M ARM A7.7 encodings) through
 * capstone, the operands the core's access matching and the memory-block rule read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/memops.h"

/* Decodes one instruction at 0x08000100 from bytes; fails the test when capstone cannot. */
static cs_insn *decode(csh *cs, const uint8_t *code, size_t len)
{
	assert_int_equal(cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS, cs), CS_ERR_OK);
	assert_int_equal(cs_option(*cs, CS_OPT_DETAIL, CS_OPT_ON), CS_ERR_OK);
	cs_insn *in = NULL;
	assert_int_equal(cs_disasm(*cs, code, len, 0x08000100u, 1, &in), 1);
	return in;
}

static void expect(const uint8_t *code, size_t len, bool memory, struct cyc_memop want)
{
	csh cs;
	cs_insn *in = decode(&cs, code, len);
	assert_int_equal(cyc_is_memory_insn(in), memory);
	struct cyc_memop m = {0};
	bool found = memory && cyc_memop_decode(in, 7, &m);
	assert_int_equal(found, memory);
	if (memory) {
		assert_int_equal(m.idx, 7);
		assert_int_equal(m.base, want.base);
		assert_int_equal(m.index, want.index);
		assert_int_equal(m.lshift, want.lshift);
		assert_int_equal(m.span, want.span);
		assert_int_equal(m.disp, want.disp);
		assert_int_equal(m.down, want.down);
		assert_int_equal(m.store, want.store);
	}
	cs_free(in, 1);
	cs_close(&cs);
}

/* Cortex-M4 TRM 3.3.2: an unaligned halfword is two bytes (+1), a word at 2 mod 4 two halfwords
 * (+1), at 1 or 3 mod 4 a byte, a halfword and a byte (+2); bytes and aligned accesses +0. */
static void test_unaligned(void **state)
{
	(void)state;
	static const struct {
		unsigned size;
		uint32_t addr;
		unsigned extra;
	} cases[] = {
	    {1, 0x20000001u, 0}, {2, 0x20000000u, 0}, {2, 0x20000001u, 1}, {2, 0x20000002u, 0}, {2, 0x20000003u, 1},
	    {4, 0x20000000u, 0}, {4, 0x20000001u, 2}, {4, 0x20000002u, 1}, {4, 0x20000003u, 2}, {8, 0x20000004u, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(cyc_unaligned_extra(cases[i].size, cases[i].addr), cases[i].extra);
}

static void test_operands(void **state)
{
	(void)state;
	/* ldr r0, [r1, r2, lsl #2] (LDR register T2: F851 0022): capstone 4 gives the shift as the
	 * operand's, not mem.lshift. */
	expect((const uint8_t[]){0x51, 0xF8, 0x22, 0x00}, 4, true,
	       (struct cyc_memop){.base = ARM_REG_R1, .index = ARM_REG_R2, .lshift = 2, .span = 4});
	/* push {r4, r5, lr} (B530): SP downwards, 12 bytes, a store. */
	expect((const uint8_t[]){0x30, 0xB5}, 2, true,
	       (struct cyc_memop){.base = ARM_REG_SP, .span = 12, .down = true, .store = true});
	/* ldrd r2, r3, [r0, #8] (LDRD immediate T1: E9D0 2302): 8 bytes. */
	expect((const uint8_t[]){0xD0, 0xE9, 0x02, 0x23}, 4, true,
	       (struct cyc_memop){.base = ARM_REG_R0, .span = 8, .disp = 8});
	/* strb r1, [r0, #3] (STRB immediate T1: 70C1): one byte, a store. */
	expect((const uint8_t[]){0xC1, 0x70}, 2, true,
	       (struct cyc_memop){.base = ARM_REG_R0, .span = 1, .disp = 3, .store = true});
	/* adds r0, r1, r2 (1888): no memory. */
	expect((const uint8_t[]){0x88, 0x18}, 2, false, (struct cyc_memop){0});
}

static void test_classes(void **state)
{
	(void)state;
	assert_true(cyc_is_div(0xFBB1u, 0xF0F2u));  /* udiv r0, r1, r2 */
	assert_true(cyc_is_div(0xFB91u, 0xF0F2u));  /* sdiv r0, r1, r2 */
	assert_false(cyc_is_div(0xFB01u, 0xF002u)); /* mul.w r0, r1, r2 */
	assert_true(cyc_is_fp(0xEE30u, 0x0A81u));   /* vadd.f32 s0, s1, s2 (CP10) */
	assert_false(cyc_is_fp(0xEE10u, 0x0F10u));  /* mrc p15: another coprocessor */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_operands),
	    cmocka_unit_test(test_unaligned),
	    cmocka_unit_test(test_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
