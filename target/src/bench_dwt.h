/* Inside the marker runtime: bench.c calls these (bench_dwt.c). */
#ifndef BENCH_DWT_H
#define BENCH_DWT_H

#include <stdint.h>

/* ARMv6-M (CPUID.ARCHITECTURE 0xC): no CYCCNT, no monitor debug, no HFSR (Armv6-M ARM C1). */
int bench_arch_v6m(void);
/* Enables DWT_CYCCNT; returns BENCH_CTL_STATUS_OK, _NO_CYCCNT or _DWT_LOCKED. */
uint32_t bench_cyccnt_enable(void);

#endif /* BENCH_DWT_H */
