/* TriCore TC1.6P (AURIX TC2xx) port of the profile-point runtime: CCNT for cycles, ICNT and the
 * three multiplexed counters M1CNT..M3CNT for events, the interrupt enable for critical sections.
 * Core special function registers (TC1.6P core architecture manual, "Performance counters"; offsets
 * as Infineon's iLLD IfxCpu_reg.h names them): CCTRL 0xFC00 (CM bit 0, CE bit 1, M1 bits 4:2,
 * M2 bits 7:5, M3 bits 10:8), CCNT 0xFC04, ICNT 0xFC08, M1CNT 0xFC0C, M2CNT 0xFC10, M3CNT 0xFC14;
 * each counter is 31 bits with a sticky overflow flag in bit 31. ICR 0xFE2C, IE bit 15.
 * What M1CNT..M3CNT count for each CCTRL.Mx value is ePAPI's table 1 (Giesen et al., WCET 2019).
 *
 * No TriCore compiler is installed here: tests/regions/test_pfp_tricore.c compiles this header on
 * the host with scripted MFCR/MTCR (PFP_TC_MFCR and friends), which also lets another toolchain
 * plug in its own intrinsics. */
#ifndef TARGET_PORT_TRICORE_PFP_PORT_TRICORE_H
#define TARGET_PORT_TRICORE_PFP_PORT_TRICORE_H

#include <stdint.h>

/* TASKING and HighTec both provide these intrinsics. */
#ifndef PFP_TC_MFCR
#define PFP_TC_MFCR(reg)      ((uint32_t)__mfcr(reg))
#define PFP_TC_MTCR(reg, val) __mtcr((reg), (val))
#define PFP_TC_DISABLE()      __disable()
#define PFP_TC_ENABLE()       __enable()
#define PFP_TC_ISYNC()        __isync()
#endif

#define PFP_TC_CCTRL              0xFC00u
#define PFP_TC_CCNT               0xFC04u
#define PFP_TC_ICNT               0xFC08u
#define PFP_TC_M1CNT              0xFC0Cu
#define PFP_TC_ICR                0xFE2Cu
#define PFP_TC_ICR_IE             (1u << 15)
#define PFP_TC_CCTRL_CE           (1u << 1)
#define PFP_TC_CCTRL_M(slot, sel) ((uint32_t)(sel) << (2u + 3u * (slot)))

/* ePAPI table 1: the CCTRL.Mx selections. */
#define PFP_TC_SEL_STALLS 0u /* M1 IP_DISPATCH_STALL, M2 LS_DISPATCH_STALL, M3 LP_DISPATCH_STALL */
#define PFP_TC_SEL_PCACHE 1u /* M1 PCACHE_HIT, M2 PCACHE_MISS, M3 MULTI_ISSUE */
#define PFP_TC_SEL_DCACHE 2u /* M1 DCACHE_HIT, M2 DCACHE_MISS_CLEAN, M3 DCACHE_MISS_DIRTY */
#define PFP_TC_SEL_MEMORY 3u /* M1 TOTAL_BRANCH, M2 PMEM_STALL, M3 DMEM_STALL */

#define PFP_PORT_COUNTER     PFP_COUNTER_TRICORE_CCNT
#define PFP_PORT_CYCLES_MASK 0x7fffffffu /* bit 31 is the sticky overflow flag, not a count */
#define PFP_PORT_TABLE_FLAGS 0u

typedef uint32_t pfp_port_irq_t;

static inline pfp_port_irq_t pfp_port_lock(void)
{
	pfp_port_irq_t s = PFP_TC_MFCR(PFP_TC_ICR);
	PFP_TC_DISABLE();
	return s;
}
static inline void pfp_port_unlock(pfp_port_irq_t s)
{
	if (s & PFP_TC_ICR_IE)
		PFP_TC_ENABLE();
}
static inline uint32_t pfp_port_cycles(void)
{
	return PFP_TC_MFCR(PFP_TC_CCNT);
}
static inline void pfp_port_barrier(void)
{
	__asm__ volatile("" : : : "memory");
}
/* Counting enabled, normal mode (CM = 0), every multiplexed counter on selection 0. */
static inline void pfp_port_init(void)
{
	PFP_TC_MTCR(PFP_TC_CCTRL, PFP_TC_CCTRL_CE);
	PFP_TC_ISYNC();
}

#define PFP_PORT_N_RAW    5 /* CCNT, ICNT, M1CNT, M2CNT, M3CNT */
#define PFP_PORT_N_MUX    3
#define PFP_PORT_MUX_RAW0 2 /* raw counters 2..4 are multiplexed */
#define PFP_PORT_RAW_BITS                                                                                              \
	{                                                                                                              \
		31, 31, 31, 31, 31                                                                                     \
	}
static inline void pfp_port_raw_read(uint32_t *raw)
{
	for (unsigned i = 0; i < PFP_PORT_N_RAW; i++)
		raw[i] = PFP_TC_MFCR(PFP_TC_CCNT + 4u * i);
}
/* One CCTRL write sets all three selections (PFP_MUX_ANY: selection 0). The counters keep counting;
 * deltas are taken from the snapshot after this. */
static inline void pfp_port_events_setup(const uint8_t *mux)
{
	uint32_t v = PFP_TC_CCTRL_CE;
	for (unsigned m = 0; m < PFP_PORT_N_MUX; m++)
		v |= PFP_TC_CCTRL_M(m, mux[m] == PFP_MUX_ANY ? 0u : mux[m]);
	PFP_TC_MTCR(PFP_TC_CCTRL, v);
	PFP_TC_ISYNC();
}

#define PFP_TC_T(raw, sign, sel)                                                                                       \
	{                                                                                                              \
		(raw), (sign), (sel)                                                                                   \
	}
#define PFP_TC_CCNT_T  PFP_TC_T(0, 1, PFP_MUX_ANY)
#define PFP_TC_ICNT_T  PFP_TC_T(1, 1, PFP_MUX_ANY)
#define PFP_TC_M1(sel) PFP_TC_T(2, 1, sel)
#define PFP_TC_M2(sel) PFP_TC_T(3, 1, sel)
#define PFP_TC_M3(sel) PFP_TC_T(4, 1, sel)

/* ePAPI table 2 as data. PAPI_L1_TC* need two CCTRL selections on M1CNT at once: two runs, not here. */
#define PFP_PORT_EVENT_DEFS                                                                                            \
	{PAPI_TOT_CYC, 1, {PFP_TC_CCNT_T}}, {PAPI_TOT_INS, 1, {PFP_TC_ICNT_T}},                                        \
	    {PAPI_BRU_IDL, 2, {PFP_TC_CCNT_T, PFP_TC_T(2, -1, PFP_TC_SEL_MEMORY)}},                                    \
	    {PAPI_L1_DCH, 1, {PFP_TC_M1(PFP_TC_SEL_DCACHE)}}, {PAPI_L1_ICH, 1, {PFP_TC_M1(PFP_TC_SEL_PCACHE)}},        \
	    {PAPI_L1_ICM, 1, {PFP_TC_M2(PFP_TC_SEL_PCACHE)}},                                                          \
	    {PAPI_L1_DCA,                                                                                              \
	     3,                                                                                                        \
	     {PFP_TC_M1(PFP_TC_SEL_DCACHE), PFP_TC_M2(PFP_TC_SEL_DCACHE), PFP_TC_M3(PFP_TC_SEL_DCACHE)}},              \
	    {PAPI_L1_DCM, 2, {PFP_TC_M2(PFP_TC_SEL_DCACHE), PFP_TC_M3(PFP_TC_SEL_DCACHE)}},                            \
	    {PAPI_L1_ICA, 2, {PFP_TC_M1(PFP_TC_SEL_PCACHE), PFP_TC_M2(PFP_TC_SEL_PCACHE)}},                            \
	    {PAPI_L1_ICR, 2, {PFP_TC_M1(PFP_TC_SEL_PCACHE), PFP_TC_M2(PFP_TC_SEL_PCACHE)}},                            \
	    {PAPI_MEM_SCY, 2, {PFP_TC_M2(PFP_TC_SEL_MEMORY), PFP_TC_M3(PFP_TC_SEL_MEMORY)}},                           \
	    {PAPI_TC_PMEM_STALL, 1, {PFP_TC_M2(PFP_TC_SEL_MEMORY)}},                                                   \
	    {PAPI_TC_DMEM_STALL, 1, {PFP_TC_M3(PFP_TC_SEL_MEMORY)}},                                                   \
	    {PAPI_TC_MULTI_ISSUE, 1, {PFP_TC_M3(PFP_TC_SEL_PCACHE)}},                                                  \
	    {PAPI_TC_IPDISP_STL, 1, {PFP_TC_M1(PFP_TC_SEL_STALLS)}},                                                   \
	    {PAPI_TC_LSDISP_STL, 1, {PFP_TC_M2(PFP_TC_SEL_STALLS)}},                                                   \
	{                                                                                                              \
		PAPI_TC_LPDISP_STL, 1,                                                                                 \
		{                                                                                                      \
			PFP_TC_M3(PFP_TC_SEL_STALLS)                                                                   \
		}                                                                                                      \
	}

#endif /* TARGET_PORT_TRICORE_PFP_PORT_TRICORE_H */
