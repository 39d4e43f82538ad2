/* The register work of the marker runtime, without markers, so it also builds and is unit-tested on
 * the host (tests/target/test_dwt.c, which maps CM_REG to scripted registers): enabling DWT_CYCCNT
 * with the Cortex-M7 lock and the no-counter cases, and stepping over a marker BKPT when no
 * debugger is attached. Register addresses and bits are the Armv7-M ARM's (DDI0403E): DHCSR/DEMCR
 * C1.6, DWT C1.8, HFSR/DFSR B3.2; the CoreSight lock registers are the Cortex-M7 TRM's
 * (DWT_LAR/DWT_LSR, as Zephyr's arch/arm/core/cortex_m/timing.c and libopencm3's lib/cm3/dwt.c
 * use them). */
#include "bench_dwt.h"

#include "bench.h"
#include "cm_regs.h"

/* ARMv6-M (CPUID.ARCHITECTURE 0xC) has no CYCCNT, no monitor debug, no HFSR (Armv6-M ARM C1). */
int bench_arch_v6m(void)
{
	return ((CM_CPUID >> 16) & 0xFu) == 0xCu;
}

int bench_debugger_attached(void)
{
	return (CM_DHCSR & CM_DHCSR_C_DEBUGEN) != 0;
}

/* Enables DWT_CYCCNT and says why not when it cannot. */
uint32_t bench_cyccnt_enable(void)
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
