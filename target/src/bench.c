/* The marker runtime (bench.h): calibration pair, SYNC and DONE markers. The register work without
 * markers (cycle counter, stepping over markers) is in bench_dwt.c. C99, no libc. Armv7-M ARM
 * (DDI0403E): DHCSR/DEMCR C1.6, monitor debug C1.7. */
#include "bench.h"

#include "bench_dwt.h"
#include "cm_regs.h"
#include <stddef.h>

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

int bench_sync(void)
{
	/* A host writes bench_ctl.iteration at every SYNC halt; if the marker is stepped over with
	 * nobody writing (no debugger, no breakpoint on it), the sentinel survives and the loop body
	 * runs once. A host that plants breakpoints instead of halting on BKPT (QEMU's gdbstub, where
	 * DHCSR reads 0) is seen the same way. */
	bench_ctl.iteration = BENCH_ITERATION_NONE;
	BENCH__MARKER(BENCH_KIND_SYNC, 0, "sync");
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
