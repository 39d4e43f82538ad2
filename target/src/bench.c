/* The marker runtime (bench.h), all of it: the cycle counter, the calibration pair, the SYNC and
 * DONE markers, and stepping over markers when no debugger is attached. One source file that needs
 * only target/include/ (no board header), so any firmware build can add it (docs/integrate.md).
 * C99, no libc. Register addresses and bits are the Armv7-M ARM's (DDI0403E): DHCSR/DEMCR C1.6,
 * monitor debug C1.7, DWT C1.8, HFSR/DFSR B3.2; the CoreSight lock registers are the Cortex-M7
 * TRM's (DWT_LAR/DWT_LSR, as Zephyr's arch/arm/core/cortex_m/timing.c and libopencm3's
 * lib/cm3/dwt.c use them).
 *
 * tests/target/test_dwt.c compiles the register part on the host against scripted registers
 * (BENCH_RUNTIME_HOST_TEST: CM_REG mapped to a register file, no BKPT, no MRS). */
#include "bench.h"

#include "bench_cm_regs.h"
#include <stddef.h>

/* ARMv6-M (CPUID.ARCHITECTURE 0xC) has no CYCCNT, no monitor debug, no HFSR (Armv6-M ARM C1). */
static int bench_arch_v6m(void)
{
	return ((CM_CPUID >> 16) & 0xFu) == 0xCu;
}

int bench_debugger_attached(void)
{
	return (CM_DHCSR & CM_DHCSR_C_DEBUGEN) != 0;
}

/* Enables DWT_CYCCNT and says why not when it cannot: BENCH_CTL_STATUS_OK, _NO_CYCCNT or
 * _DWT_LOCKED. */
static uint32_t bench_cyccnt_enable(void)
{
	if (bench_arch_v6m())
		return BENCH_CTL_STATUS_NO_CYCCNT;
	CM_DEMCR |= CM_DEMCR_TRCENA; /* powers the DWT and ITM (C1.6.5) */
	/* The Cortex-M7 DWT has a CoreSight software lock (DWT_LSR.SLI set) that blocks writes until
	 * the key is written to DWT_LAR; other cores need not implement LAR/LSR at all, so only an M7
	 * touches them (Zephyr does the same). */
	if (((CM_CPUID >> 4) & 0xFFFu) == CM_PARTNO_CORTEX_M7 && (CM_DWT_LSR & CM_LSR_SLI)) {
		CM_DWT_LAR = CM_LAR_KEY;
		if (CM_DWT_LSR & CM_LSR_SLK)
			return BENCH_CTL_STATUS_DWT_LOCKED;
	}
	/* NOCYCCNT says so; a DWT_CTRL of all zeros (not even NUMCOMP, bits 31:28) is no DWT at all,
	 * as on QEMU's Cortex-M models. */
	uint32_t ctrl = CM_DWT_CTRL;
	if ((ctrl & CM_DWT_CTRL_NOCYCCNT) || ctrl == 0)
		return BENCH_CTL_STATUS_NO_CYCCNT;
	CM_DWT_CYCCNT = 0;
	CM_DWT_CTRL |= CM_DWT_CTRL_CYCCNTENA;
	/* A DWT that ignores the write (still locked, or clock-gated) shows it here. */
	if (!(CM_DWT_CTRL & CM_DWT_CTRL_CYCCNTENA))
		return BENCH_CTL_STATUS_DWT_LOCKED;
	return BENCH_CTL_STATUS_OK;
}

int bench_skip_bkpt(uint32_t *frame)
{
	uint32_t pc = frame[6]; /* r0-r3, r12, lr, pc, xpsr (B1.5.6) */
	uint16_t insn = CM_INSN16(pc & ~1u);
	unsigned imm = insn & 0xFFu;
	if ((insn & 0xFF00u) != 0xBE00u || imm < BENCH_KIND_BEGIN || imm > BENCH_KIND_CAL_END)
		return 0;
	if (CM_DHCSR & CM_DHCSR_C_DEBUGEN)
		return 0;  /* a debugger would have halted: this is something else */
	frame[6] = pc + 2; /* BKPT is always 16 bits */
	if (!bench_arch_v6m()) {
		CM_HFSR = CM_HFSR_DEBUGEVT; /* write-one-to-clear (B3.2.16) */
		CM_DFSR = CM_DFSR_BKPT;     /* (C1.6.1) */
	}
	return 1;
}

#ifndef BENCH_RUNTIME_HOST_TEST
static uint32_t *bench_psp(void)
{
	uint32_t *psp;
	__asm__ volatile("mrs %0, psp" : "=r"(psp));
	return psp;
}
#else
uint32_t *bench_test_psp(void); /* the host test's scripted process stack */
#define bench_psp bench_test_psp
#endif

int bench_handler_entry(uint32_t exc_return, uint32_t *sp_at_entry)
{
	/* EXC_RETURN bit 2: the frame was pushed on the process stack (B1.5.8). A handler's LR that
	 * is no EXC_RETURN (0xFxxxxxxx) means the entry was called from somewhere else: not ours. */
	if ((exc_return & 0xF0000000u) != 0xF0000000u)
		return 0;
	return bench_skip_bkpt((exc_return & 4u) ? bench_psp() : sp_at_entry);
}

#ifndef BENCH_RUNTIME_HOST_TEST
/* The host reads and writes bench_ctl by these offsets (bench_abi.h): the struct must match
 * (C99 has no _Static_assert; a negative array size fails the build instead). */
typedef char bench_check_stop[(offsetof(struct bench_ctl, stop) == BENCH_CTL_OFF_STOP) ? 1 : -1];
typedef char bench_check_iteration[(offsetof(struct bench_ctl, iteration) == BENCH_CTL_OFF_ITERATION) ? 1 : -1];
typedef char bench_check_status[(offsetof(struct bench_ctl, status) == BENCH_CTL_OFF_STATUS) ? 1 : -1];
typedef char bench_check_size[(sizeof(struct bench_ctl) == BENCH_CTL_SIZE) ? 1 : -1];

volatile struct bench_ctl bench_ctl = {
    .magic = BENCH_CTL_MAGIC,
    .version = BENCH_CTL_VERSION,
    .stop = 0,
    .iteration = 0,
    .status = BENCH_CTL_STATUS_OK,
};

/* Stand-alone runs (nobody at the SYNC marker) go through the measurement loop once. */
static uint32_t standalone_rounds;

uint32_t bench_init(void)
{
	uint32_t status = bench_cyccnt_enable();
	bench_ctl.status = status;
	if (!bench_debugger_attached() && !bench_arch_v6m()) {
		/* Monitor debug: a BKPT now takes DebugMonitor, whose handler steps over it
		 * (Armv7-M ARM C1.7.1). Cores without it (ARMv6-M) escalate to HardFault: handled
		 * the same. */
		CM_DEMCR |= CM_DEMCR_MON_EN;
	}
	/* The calibration pair: two BKPTs back to back, the cost of an empty BEGIN/END pair. */
	BENCH__MARKER(BENCH_KIND_CAL_BEGIN, 0, "calibration");
	BENCH__MARKER(BENCH_KIND_CAL_END, 0, "calibration");
	return status;
}

int bench_sync_answer(void)
{
	/* A host that plants breakpoints instead of halting on BKPT (QEMU's gdbstub, where DHCSR
	 * reads 0) overwrites bench_ctl.iteration too, so it is seen as a host. */
	if (bench_ctl.stop)
		return 0;
	if (bench_debugger_attached() || bench_ctl.iteration != BENCH_ITERATION_NONE)
		return 1;
	return standalone_rounds++ == 0;
}

void bench_done(void)
{
	BENCH__MARKER(BENCH_KIND_DONE, 0, "done");
}
#endif /* BENCH_RUNTIME_HOST_TEST */
