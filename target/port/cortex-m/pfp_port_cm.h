/* Cortex-M (Armv7-M) port of the profile-point runtime: DWT_CYCCNT for cycles, the five 8-bit DWT
 * profiling counters for events, PRIMASK (or BASEPRI) for critical sections.
 * Armv7-M ARM C1.8 "The Data Watchpoint and Trace unit": DWT_CTRL 0xE0001000 (C1.8.7), CYCCNT
 * 0xE0001004 (C1.8.8), CPICNT 0xE0001008, EXCCNT 0xE000100C, SLEEPCNT 0xE0001010, LSUCNT 0xE0001014,
 * FOLDCNT 0xE0001018 (C1.8.9-C1.8.13); DEMCR.TRCENA (C1.6.5) powers the DWT. */
#ifndef TARGET_PORT_CORTEX_M_PFP_PORT_CM_H
#define TARGET_PORT_CORTEX_M_PFP_PORT_CM_H

#include <stdint.h>

#define PFP_PORT_COUNTER     PFP_COUNTER_DWT_CYCCNT
#define PFP_PORT_CYCLES_MASK 0xffffffffu

#define PFP_CM_DEMCR        (*(volatile uint32_t *)0xE000EDFCu)
#define PFP_CM_DEMCR_TRCENA (1u << 24)
#define PFP_CM_DWT_CTRL     (*(volatile uint32_t *)0xE0001000u)
#define PFP_CM_DWT_CYCCNT   (*(volatile uint32_t *)0xE0001004u)
#define PFP_CM_DWT_CNT(i)   (*(volatile uint32_t *)(0xE0001004u + 4u * (i))) /* 0 CYCCNT .. 5 FOLDCNT */
/* DWT_CTRL: CYCCNTENA bit 0; CPIEVTENA 17, EXCEVTENA 18, SLEEPEVTENA 19, LSUEVTENA 20, FOLDEVTENA 21 */
#define PFP_CM_DWT_CTRL_CYCCNTENA (1u << 0)
#define PFP_CM_DWT_CTRL_EVTENA    (0x1fu << 17)

typedef uint32_t pfp_port_irq_t;

#define PFP_CM_STR(x)  #x
#define PFP_CM_XSTR(x) PFP_CM_STR(x)

#if defined(PFP_USE_BASEPRI)
/* BASEPRI masks only interrupts at or below PFP_BASEPRI_LEVEL, so the most urgent handlers keep
 * their latency (they must not use PFP then). MSR BASEPRI_MAX only ever raises the mask (B5.2.3). */
#ifndef PFP_BASEPRI_LEVEL
#define PFP_BASEPRI_LEVEL 0x20 /* no suffix: the fast calls below paste it into assembly */
#endif
static inline pfp_port_irq_t pfp_port_lock(void)
{
	pfp_port_irq_t s;
	__asm volatile("mrs %0, basepri\n\tmsr basepri_max, %1"
	               : "=&r"(s)
	               : "r"((pfp_port_irq_t)PFP_BASEPRI_LEVEL)
	               : "memory");
	return s;
}
static inline void pfp_port_unlock(pfp_port_irq_t s)
{
	__asm volatile("msr basepri, %0" : : "r"(s) : "memory");
}
#define PFP_PORT_TABLE_FLAGS PFP_T_BASEPRI
#define PFP_CM_LOCK_ASM(reg)                                                                                           \
	"mrs " reg ", basepri\n\tmov r12, #" PFP_CM_XSTR(PFP_BASEPRI_LEVEL) "\n\tmsr basepri_max, r12\n\t"
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
#define PFP_CM_LOCK_ASM(reg) "mrs " reg ", primask\n\tcpsid i\n\t"
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

/* Begin and End as one fixed instruction sequence each (GNU C): the critical section, the counter read
 * through an address built by MOVW/MOVT, then the arguments and the call. The compiler cannot move
 * an argument set-up or an address load in front of the read, so the bias an empty region sees is
 * the same at every call site with constant id and latch, and pfp_calibrate() measures exactly that
 * (the plain C version leaves it to the scheduler: a cycle more or less per site). A non-constant id
 * is moved into r0 before the sequence. The call follows the AAPCS: r0-r3, r12, lr and the
 * caller-saved FP registers are clobbered. */
#if defined(__GNUC__) && !defined(PFP_NO_FAST_CALLS)
#if defined(__ARM_FP)
#define PFP_CM_FP_CLOBBERS , "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "vfpcc"
#else
#define PFP_CM_FP_CLOBBERS
#endif
#define PFP_CM_READ_ASM(reg) "movw r12, #0x1004\n\tmovt r12, #0xe000\n\tldr " reg ", [r12]\n\t"
#define PFP_CM_CLOBBERS      "r1", "r2", "r3", "r12", "lr", "memory", "cc" PFP_CM_FP_CLOBBERS

static inline __attribute__((always_inline)) void pfp_port_begin(unsigned id)
{
	if (__builtin_constant_p(id)) {
		__asm volatile(PFP_CM_LOCK_ASM("r2") PFP_CM_READ_ASM("r1") "movw r0, %[id]\n\tbl pfp_begin_at"
		               :
		               : [id] "i"(id)
		               : "r0", PFP_CM_CLOBBERS);
	} else {
		register unsigned r0 __asm__("r0") = id;
		__asm volatile(PFP_CM_LOCK_ASM("r2") PFP_CM_READ_ASM("r1") "bl pfp_begin_at"
		               : "+r"(r0)
		               :
		               : PFP_CM_CLOBBERS);
	}
}

static inline __attribute__((always_inline)) void pfp_port_end(unsigned id, int latch)
{
	if (__builtin_constant_p(id) && __builtin_constant_p(latch)) {
		__asm volatile(PFP_CM_LOCK_ASM("r3") PFP_CM_READ_ASM("r2") "movw r0, %[id]\n\tmovw r1, %[latch]\n\t"
		                                                           "bl pfp_end_at"
		               :
		               : [id] "i"(id), [latch] "i"(latch ? 1 : 0)
		               : "r0", PFP_CM_CLOBBERS);
	} else {
		register unsigned r0 __asm__("r0") = id;
		register unsigned r1 __asm__("r1") = latch ? 1u : 0u;
		__asm volatile(PFP_CM_LOCK_ASM("r3") PFP_CM_READ_ASM("r2") "bl pfp_end_at"
		               : "+r"(r0), "+r"(r1)
		               :
		               : "r2", "r3", "r12", "lr", "memory", "cc" PFP_CM_FP_CLOBBERS);
	}
}
#define PFP_PORT_BEGIN(id)      pfp_port_begin(id)
#define PFP_PORT_END(id, latch) pfp_port_end((id), (latch))
#endif

#define PFP_PORT_N_RAW    6
#define PFP_PORT_N_MUX    0
#define PFP_PORT_MUX_RAW0 0
#define PFP_PORT_RAW_BITS                                                                                              \
	{                                                                                                              \
		32, 8, 8, 8, 8, 8                                                                                      \
	}
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
