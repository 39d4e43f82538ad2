/* Host unit test of the register part of target/src/bench.c with scripted Cortex-M registers (CM_REG mapped to a
 * small register file; bench_cm_regs.h allows it): the cycle-counter enable on a Cortex-M4, a Cortex-M7
 * whose DWT is locked (DWT_LSR.SLK cleared by the DWT_LAR key 0xC5ACCE55, or not), a DWT with
 * NOCYCCNT, no DWT at all (QEMU), ARMv6-M; and stepping over a marker BKPT with no debugger. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The scripted machine. */
static struct {
	uint32_t cpuid, demcr, dhcsr, hfsr, dfsr;
	uint32_t dwt_ctrl, dwt_cyccnt, dwt_lar, dwt_lsr;
	uint32_t ctrl_writable; /* DWT_CTRL bits that take a write (0: the DWT ignores writes) */
	int lar_unlocks;        /* the LAR key clears DWT_LSR.SLK */
	uint16_t code[8];       /* instructions at 0x08000100 */
	unsigned lsr_reads, lar_writes;
	uint32_t sink;
} m;

static volatile uint32_t *reg(uint32_t addr)
{
	switch (addr) {
	case 0xE000ED00u:
		return &m.cpuid;
	case 0xE000EDFCu:
		return &m.demcr;
	case 0xE000EDF0u:
		return &m.dhcsr;
	case 0xE000ED2Cu:
		return &m.hfsr;
	case 0xE000ED30u:
		return &m.dfsr;
	case 0xE0001000u:
		return &m.dwt_ctrl; /* ctrl_access() applies what the DWT does not take */
	case 0xE0001004u:
		return &m.dwt_cyccnt;
	case 0xE0001FB0u:
		m.lar_writes++;
		return &m.dwt_lar;
	case 0xE0001FB4u:
		m.lsr_reads++;
		if (m.lar_unlocks && m.dwt_lar == 0xC5ACCE55u)
			m.dwt_lsr &= ~2u;
		return &m.dwt_lsr;
	default:
		fail_msg("unexpected register access 0x%08x", addr);
		return &m.sink;
	}
}

/* The DWT_CTRL model: bench_cyccnt_enable does read-modify-write; bits the DWT does not take are
 * put back before every access, so a locked DWT reads as if the write never happened. */
static uint32_t ctrl_reset;
static volatile uint32_t *ctrl_access(uint32_t addr)
{
	if (addr == 0xE0001000u)
		m.dwt_ctrl = (m.dwt_ctrl & m.ctrl_writable) | (ctrl_reset & ~m.ctrl_writable);
	return reg(addr);
}

/* The process stack bench_handler_entry reads when EXC_RETURN says PSP. */
static uint32_t *test_psp;
uint32_t *bench_test_psp(void);
uint32_t *bench_test_psp(void)
{
	return test_psp;
}

#define BENCH_RUNTIME_HOST_TEST 1
#define CM_REG(addr)            (*ctrl_access(addr))
#define CM_INSN16(addr)         (m.code[((addr)-0x08000100u) / 2u])
#include "../../target/src/bench.c"

#define CPUID_M4 0x410FC241u
#define CPUID_M7 0x411FC270u
#define CPUID_M0 0x410CC200u

static void machine(uint32_t cpuid, uint32_t ctrl, uint32_t writable)
{
	memset(&m, 0, sizeof(m));
	m.cpuid = cpuid;
	m.dwt_ctrl = ctrl_reset = ctrl;
	m.ctrl_writable = writable;
	m.dwt_cyccnt = 12345;
}

static void test_cortex_m4(void **state)
{
	(void)state;
	machine(CPUID_M4, 0x40000000u, 0x1u); /* NUMCOMP 4 */
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_OK);
	assert_int_equal(m.demcr & (1u << 24), 1u << 24); /* TRCENA */
	assert_int_equal(m.dwt_ctrl, 0x40000001u);        /* CYCCNTENA */
	assert_int_equal(m.dwt_cyccnt, 0);
	assert_int_equal(m.lsr_reads + m.lar_writes, 0); /* an M4 never touches LAR/LSR */
}

static void test_cortex_m7_unlocked_by_key(void **state)
{
	(void)state;
	machine(CPUID_M7, 0x40000000u, 0x1u);
	m.dwt_lsr = 0x3u; /* SLI, SLK */
	m.lar_unlocks = 1;
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_OK);
	assert_int_equal(m.dwt_lar, 0xC5ACCE55u);
	assert_int_equal(m.dwt_lsr, 0x1u);
	assert_int_equal(m.dwt_ctrl & 1u, 1u);
}

static void test_cortex_m7_stays_locked(void **state)
{
	(void)state;
	machine(CPUID_M7, 0x40000000u, 0x0u);
	m.dwt_lsr = 0x3u;
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_DWT_LOCKED);
	assert_int_equal(m.dwt_ctrl & 1u, 0);
}

static void test_ignored_enable_is_locked(void **state)
{
	(void)state;
	machine(CPUID_M4, 0x40000000u, 0x0u); /* the DWT ignores writes */
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_DWT_LOCKED);
}

static void test_nocyccnt(void **state)
{
	(void)state;
	machine(CPUID_M4, 0x42000000u, 0x1u); /* NOCYCCNT (bit 25) */
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_NO_CYCCNT);
	assert_int_equal(m.dwt_ctrl, 0x42000000u);
	assert_int_equal(m.dwt_cyccnt, 12345); /* untouched */
}

static void test_no_dwt(void **state)
{
	(void)state;
	machine(CPUID_M4, 0, 0); /* QEMU: DWT_CTRL reads 0 */
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_NO_CYCCNT);
}

static void test_armv6m(void **state)
{
	(void)state;
	machine(CPUID_M0, 0x40000000u, 0x1u);
	assert_int_equal(bench_cyccnt_enable(), BENCH_CTL_STATUS_NO_CYCCNT);
	assert_int_equal(m.demcr, 0); /* no DWT access at all */
	assert_int_equal(m.dwt_ctrl, 0x40000000u);
}

static void test_skip_marker_bkpt(void **state)
{
	(void)state;
	uint32_t frame[8] = {0, 0, 0, 0, 0, 0, 0x08000100u, 0x01000000u};
	machine(CPUID_M4, 0x40000000u, 0x1u);
	m.code[0] = 0xBE01u; /* bkpt #1 */
	m.hfsr = 1u << 31;   /* DEBUGEVT */
	m.dfsr = 2u;         /* BKPT */
	assert_int_equal(bench_skip_bkpt(frame), 1);
	assert_int_equal(frame[6], 0x08000102u);
	assert_int_equal(m.hfsr, 1u << 31); /* written with 1: write-one-to-clear on silicon */
	assert_int_equal(m.dfsr, 2u);
	/* Semihosting, OpenOCD's bkpt #0, the fault stop #0x0f: not ours. */
	const uint16_t others[] = {0xBEABu, 0xBE00u, 0xBE0Fu, 0xBE07u, 0xBF00u};
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		frame[6] = 0x08000100u;
		m.code[0] = others[i];
		assert_int_equal(bench_skip_bkpt(frame), 0);
		assert_int_equal(frame[6], 0x08000100u);
	}
	/* With a debugger attached a marker halts; a HardFault at one is something else. */
	m.code[0] = 0xBE06u;
	m.dhcsr = 1u;
	assert_int_equal(bench_skip_bkpt(frame), 0);
	/* ARMv6-M: stepped over, HFSR/DFSR (absent there) untouched. */
	machine(CPUID_M0, 0, 0);
	m.code[1] = 0xBE03u;
	frame[6] = 0x08000102u;
	assert_int_equal(bench_skip_bkpt(frame), 1);
	assert_int_equal(frame[6], 0x08000104u);
	assert_int_equal(m.hfsr | m.dfsr, 0);
}

/* BENCH_HANDLER_ENTRY's function: the frame on the main stack (EXC_RETURN 0xFFFFFFF9, 0xFFFFFFE9
 * with an FP frame) at the handler's entry SP, or on the process stack (0xFFFFFFFD); an LR that is
 * no EXC_RETURN is not an exception entry. */
static void test_handler_entry(void **state)
{
	(void)state;
	uint32_t msp_frame[8] = {0, 0, 0, 0, 0, 0, 0x08000100u, 0x01000000u};
	uint32_t psp_frame[8] = {0, 0, 0, 0, 0, 0, 0x08000102u, 0x01000000u};
	machine(CPUID_M4, 0x40000000u, 0x1u);
	m.code[0] = 0xBE01u; /* bkpt #1 */
	m.code[1] = 0xBE02u; /* bkpt #2 */
	test_psp = psp_frame;
	assert_int_equal(bench_handler_entry(0xFFFFFFF9u, msp_frame), 1);
	assert_int_equal(msp_frame[6], 0x08000102u);
	assert_int_equal(psp_frame[6], 0x08000102u);
	assert_int_equal(bench_handler_entry(0xFFFFFFFDu, msp_frame), 1);
	assert_int_equal(psp_frame[6], 0x08000104u);
	assert_int_equal(msp_frame[6], 0x08000102u);
	msp_frame[6] = 0x08000100u;
	assert_int_equal(bench_handler_entry(0xFFFFFFE9u, msp_frame), 1);
	assert_int_equal(msp_frame[6], 0x08000102u);
	msp_frame[6] = 0x08000100u;
	assert_int_equal(bench_handler_entry(0x08000201u, msp_frame), 0);
	assert_int_equal(msp_frame[6], 0x08000100u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cortex_m4),
	    cmocka_unit_test(test_cortex_m7_unlocked_by_key),
	    cmocka_unit_test(test_cortex_m7_stays_locked),
	    cmocka_unit_test(test_ignored_enable_is_locked),
	    cmocka_unit_test(test_nocyccnt),
	    cmocka_unit_test(test_no_dwt),
	    cmocka_unit_test(test_armv6m),
	    cmocka_unit_test(test_skip_marker_bkpt),
	    cmocka_unit_test(test_handler_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
