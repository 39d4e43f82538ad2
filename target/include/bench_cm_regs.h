/* Cortex-M system registers the marker runtime (src/bench.c) and start-up code touch (Armv7-M ARM DDI0403E
 * B3.2 System Control Block, C1.6 debug, C1.8 DWT; Cortex-M7 TRM for the CoreSight lock). */
#ifndef BENCH_CM_REGS_H
#define BENCH_CM_REGS_H

#include <stdint.h>

/* A unit test on the host defines both before including this file, to script the registers. */
#ifndef CM_REG
#define CM_REG(addr) (*(volatile uint32_t *)(addr))
#endif
#ifndef CM_INSN16
#define CM_INSN16(addr) (*(const volatile uint16_t *)(addr))
#endif

#define CM_CPUID                CM_REG(0xE000ED00u)
#define CM_PARTNO_CORTEX_M7     0xC27u /* CPUID.PARTNO */
#define CM_VTOR                 CM_REG(0xE000ED08u)
#define CM_CPACR                CM_REG(0xE000ED88u)
#define CM_CPACR_CP10_CP11_FULL (0xFu << 20) /* B3.2.20 */
#define CM_HFSR                 CM_REG(0xE000ED2Cu)
#define CM_HFSR_DEBUGEVT        (1u << 31)
#define CM_DFSR                 CM_REG(0xE000ED30u)
#define CM_DFSR_BKPT            (1u << 1)

#define CM_DHCSR           CM_REG(0xE000EDF0u)
#define CM_DHCSR_C_DEBUGEN (1u << 0)
#define CM_DEMCR           CM_REG(0xE000EDFCu)
#define CM_DEMCR_MON_EN    (1u << 16)
#define CM_DEMCR_TRCENA    (1u << 24)

#define CM_DWT_CTRL           CM_REG(0xE0001000u)
#define CM_DWT_CTRL_CYCCNTENA (1u << 0)
#define CM_DWT_CTRL_NOCYCCNT  (1u << 25)
#define CM_DWT_CYCCNT         CM_REG(0xE0001004u)
#define CM_DWT_LAR            CM_REG(0xE0001FB0u)
#define CM_DWT_LSR            CM_REG(0xE0001FB4u)
#define CM_LAR_KEY            0xC5ACCE55u
#define CM_LSR_SLI            (1u << 0) /* lock implemented */
#define CM_LSR_SLK            (1u << 1) /* locked */

#endif /* BENCH_CM_REGS_H */
