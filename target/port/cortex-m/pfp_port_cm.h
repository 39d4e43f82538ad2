/* Cortex-M (Armv7-M) port of the profile-point runtime: DWT_CYCCNT for cycles, the five 8-bit DWT
 * profiling counters for events, PRIMASK (or BASEPRI) for critical sections.
 * Armv7-M ARM C1.8 "The Data Watchpoint and Trace unit": DWT_CTRL 0xE0001000 (C1.8.7), CYCCNT
 * 0xE0001004 (C1.8.8), CPICNT 0xE0001008, EXCCNT 0xE000100C, SLEEPCNT 0xE0001010, LSUCNT 0xE0001014,
 * FOLDCNT 0xE0001018 (C1.8.9-C1.8.13); DEMCR.TRCENA (C1.6.5) powers the DWT. */
#ifndef TARGET_PORT_CORTEX_M_PFP_PORT_CM_H
#define TARGET_PORT_CORTEX_M_PFP_PORT_CM_H

#include <stdint.h>

#define PFP_PORT_COUNTER PFP_COUNTER_DWT_CYCCNT
#define PFP_PORT_CYCLES_MASK 0xffffffffu

#define PFP_CM_DEMCR (*(volatile uint32_t *)0xE000EDFCu)
#define PFP_CM_DEMCR_TRCENA (1u << 24)
#define PFP_CM_DWT_CTRL (*(volatile uint32_t *)0xE0001000u)
#define PFP_CM_DWT_CYCCNT (*(volatile uint32_t *)0xE0001004u)
#define PFP_CM_DWT_CNT(i) (*(volatile uint32_t *)(0xE0001004u + 4u * (i))) /* 0 CYCCNT .. 5 FOLDCNT */
/* DWT_CTRL: CYCCNTENA bit 0; CPIEVTENA 17, EXCEVTENA 18, SLEEPEVTENA 19, LSUEVTENA 20, FOLDEVTENA 21 */
#define PFP_CM_DWT_CTRL_CYCCNTENA (1u << 0)
#define PFP_CM_DWT_CTRL_EVTENA (0x1fu << 17)

typedef uint32_t pfp_port_irq_t;

#if defined(PFP_USE_BASEPRI)
/* BASEPRI masks only interrupts at or below PFP_BASEPRI_LEVEL, so the most urgent handlers keep
 * their latency (they must not use PFP then). MSR BASEPRI_MAX only ever raises the mask (B5.2.3). */
#ifndef PFP_BASEPRI_LEVEL
#define PFP_BASEPRI_LEVEL 0x20u
#endif
static inline pfp_port_irq_t pfp_port_lock(void)
{
	pfp_port_irq_t s;
	__asm volatile("mrs %0, basepri\n\tmsr basepri_max, %1" : "=&r"(s) : "r"(PFP_BASEPRI_LEVEL) : "memory");
	return s;
}
static inline void pfp_port_unlock(pfp_port_irq_t s)
{
	__asm volatile("msr basepri, %0" : : "r"(s) : "memory");
}
#define PFP_PORT_TABLE_FLAGS PFP_T_BASEPRI
#else
/* PRIMASK: save and restore rather than CPSIE, so a PFP call inside a critical section of the
 * application (or inside pfp_calibrate_isr) does not unmask interrupts early (B5.2.3 MRS/MSR). */
static inline pfp_port_irq_t pfp_port_lock(void)
{
	pfp_port_irq_t s;
	__asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(s) : : "memory");
	return s;
}
static inline void pfp_port_unlock(pfp_port_irq_t s)
{
	__asm volatile("msr primask, %0" : : "r"(s) : "memory");
}
#define PFP_PORT_TABLE_FLAGS 0u
#endif

static inline uint32_t pfp_port_cycles(void)
{
	return PFP_CM_DWT_CYCCNT;
}

/* One core, and the debugger reads through the AHB-AP in bus order: keeping the compiler from moving
 * the statistics' stores across the sequence counter's is enough (Armv7-M A3.7: normal memory
 * accesses of one core are observed in program order by that core's bus). */
static inline void pfp_port_barrier(void)
{
	__asm volatile("" : : : "memory");
}

static inline void pfp_port_init(void)
{
	PFP_CM_DEMCR |= PFP_CM_DEMCR_TRCENA;
	PFP_CM_DWT_CTRL |= PFP_CM_DWT_CTRL_CYCCNTENA;
}

#define PFP_PORT_N_RAW 6
#define PFP_PORT_N_MUX 0
#define PFP_PORT_MUX_RAW0 0
#define PFP_PORT_RAW_BITS {32, 8, 8, 8, 8, 8}
static inline void pfp_port_raw_read(uint32_t *raw)
{
	for (unsigned i = 0; i < PFP_PORT_N_RAW; i++)
		raw[i] = PFP_CM_DWT_CNT(i);
}
static inline void pfp_port_events_setup(const uint8_t *mux)
{
	(void)mux;
	PFP_CM_DWT_CTRL |= PFP_CM_DWT_CTRL_EVTENA | PFP_CM_DWT_CTRL_CYCCNTENA;
}

#include "pfp_port_cm_events.h"
#define PFP_PORT_EVENT_DEFS PFP_CM_EVENT_DEFS

#endif /* TARGET_PORT_CORTEX_M_PFP_PORT_CM_H */
