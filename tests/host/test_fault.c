/* Fault-status decoding (run_fault.c): CFSR/HFSR bits to names, Armv7-M ARM B3.2.15-16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench_skip.h"

#include "run/run_fault.h"

static const char *real_elf;

/* A target frozen in a fault handler: registers and a few words of memory, served through the
 * backend ops the decoder uses. */
struct frozen {
	uint32_t xpsr, lr, msp, psp, cfsr, hfsr, stacked_pc, bfar, mmfar;
};

static int f_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *v, struct bench_error *err)
{
	const struct frozen *f = bk->priv;
	switch (reg) {
	case BK_REG_XPSR:
		*v = f->xpsr;
		return 0;
	case BK_REG_LR:
		*v = f->lr;
		return 0;
	case BK_REG_MSP:
		*v = f->msp;
		return 0;
	case BK_REG_PSP:
		*v = f->psp;
		return 0;
	default:
		return bench_fail(err, BENCH_E_TARGET, "no register %d", (int)reg);
	}
}

static int f_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	const struct frozen *f = bk->priv;
	uint32_t v;
	if (len != 4)
		return bench_fail(err, BENCH_E_TARGET, "len");
	if (addr == RUN_REG_CFSR)
		v = f->cfsr;
	else if (addr == RUN_REG_HFSR)
		v = f->hfsr;
	else if (addr == RUN_REG_BFAR)
		v = f->bfar;
	else if (addr == RUN_REG_MMFAR)
		v = f->mmfar;
	else if (addr == (f->lr & 4u ? f->psp : f->msp) + 24u)
		v = f->stacked_pc;
	else
		return bench_fail(err, BENCH_E_TARGET, "unmapped 0x%08x", addr);
	memcpy(buf, &v, 4); /* host and target are both little-endian here */
	return 0;
}

static const struct backend_ops frozen_ops = {.name = "frozen", .read_reg = f_read_reg, .read_mem = f_read_mem};

static bool name_hole(void *ctx, uint32_t addr, char *out, size_t len)
{
	(void)ctx, (void)addr;
	snprintf(out, len, "a reserved hole in the peripheral map (RM0090 table 1)");
	return true;
}

static void test_describe(void **state)
{
	struct elf_file e;
	struct bench_error err;
	char out[256];
	struct frozen f = {
	    .xpsr = 0x01000003u, .lr = 0xfffffff9u, .msp = 0x2001ffd0u, .cfsr = 1u << 19, .hfsr = 1u << 30};
	struct backend bk = {.ops = &frozen_ops, .priv = &f};

	if (!real_elf)
		BENCH_SKIP("no firmware ELF given: configure with BENCH_FIRMWARE=ON");
	assert_int_equal(elf_open(real_elf, &e, &err), 0);
	f.stacked_pc = elf_symbol(&e, "fut")->addr + 0x12;
	assert_true(run_fault_describe(&bk, &e, 0x08000300u, NULL, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; UsageFault NOCP) at fut+0x12");
	/* Thread mode on the process stack: EXC_RETURN bit 2 picks PSP. */
	f.lr = 0xfffffffdu, f.psp = 0x20001000u, f.msp = 0;
	assert_true(run_fault_describe(&bk, &e, 0x08000300u, NULL, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; UsageFault NOCP) at fut+0x12");
	/* Deeper in the handler (LR no longer EXC_RETURN): name where it halted, guess nothing. */
	f.lr = 0x08000101u;
	assert_true(run_fault_describe(&bk, &e, elf_symbol(&e, "fut")->addr, NULL, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; UsageFault NOCP), halted in fut");
	/* A precise BusFault at a peripheral: BFAR, named by the board (bench-sim's `where`). */
	f.lr = 0xfffffff9u, f.msp = 0x2001ffd0u;
	f.cfsr = (1u << 9) | (1u << 15), f.hfsr = 1u << 30, f.bfar = 0x40002400u;
	assert_true(run_fault_describe(&bk, &e, 0x08000300u, name_hole, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; BusFault PRECISERR) at fut+0x12, data address 0x40002400 "
	                         "(BFAR: a reserved hole in the peripheral map (RM0090 table 1))");
	assert_true(run_fault_describe(&bk, &e, 0x08000300u, NULL, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; BusFault PRECISERR) at fut+0x12, data address 0x40002400 (BFAR)");
	/* BFARVALID clear: the address register means nothing and is not shown. */
	f.cfsr = 1u << 10;
	assert_true(run_fault_describe(&bk, &e, 0x08000300u, name_hole, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; BusFault IMPRECISERR) at fut+0x12");
	/* MemManage with MMARVALID. */
	f.cfsr = (1u << 1) | (1u << 7), f.mmfar = 0x20000010u;
	assert_true(run_fault_describe(&bk, &e, 0x08000300u, NULL, NULL, out, sizeof(out)));
	assert_string_equal(out, "HardFault (FORCED; MemManage DACCVIOL) at fut+0x12, data address 0x20000010 (MMFAR)");
	/* Thread mode: no fault. */
	f.xpsr = 0x01000000u;
	assert_false(run_fault_describe(&bk, &e, 0, NULL, NULL, out, sizeof(out)));
	elf_close(&e);
}

static void test_bits(void **state)
{
	char out[256];

	/* A float instruction with the FPU off: UsageFault NOCP escalated to HardFault (FORCED). */
	run_fault_bits(1u << 19, 1u << 30, out, sizeof(out));
	assert_string_equal(out, "FORCED; UsageFault NOCP");
	run_fault_bits((1u << 9) | (1u << 15), 0, out, sizeof(out));
	assert_string_equal(out, "BusFault PRECISERR");
	run_fault_bits(1u << 25, 0, out, sizeof(out));
	assert_string_equal(out, "UsageFault DIVBYZERO");
	run_fault_bits(0x1u | 0x80u, 0, out, sizeof(out));
	assert_string_equal(out, "MemManage IACCVIOL");
	run_fault_bits(0, 0, out, sizeof(out));
	assert_string_equal(out, "");
	run_fault_bits(0xffffffffu, 0xffffffffu, out, 20);
	assert_int_equal(strlen(out), 19);
}

static void test_exception_names(void **state)
{
	assert_null(run_fault_exception_name(0));
	assert_string_equal(run_fault_exception_name(3), "HardFault");
	assert_string_equal(run_fault_exception_name(6), "UsageFault");
	assert_null(run_fault_exception_name(15)); /* SysTick is no fault */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_bits), cmocka_unit_test(test_exception_names),
	                                   cmocka_unit_test(test_describe)};
	real_elf = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
