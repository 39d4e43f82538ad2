/* Event codes shared by the firmware (target/pfp) and the host (host/firmware/counters.c): the PAPI preset
 * names ePAPI supports (Giesen et al., WCET 2019, table 2) and the native counters behind them.
 * Numbers only, no code: the host includes this file too. Codes are stable: they are stored in the
 * region table (struct pfp_table.events) and decoded by the host. */
#ifndef TARGET_INCLUDE_PAPI_EVENTS_H
#define TARGET_INCLUDE_PAPI_EVENTS_H

/* Which counter measures a region's cycles (struct pfp_table.counter). */
enum pfp_counter_id {
	PFP_COUNTER_NONE = 0,
	PFP_COUNTER_DWT_CYCCNT = 1,   /* Cortex-M DWT_CYCCNT, 32 bits (Armv7-M ARM C1.8.8) */
	PFP_COUNTER_TRICORE_CCNT = 2, /* TriCore CCNT, 31 bits + sticky overflow (TC1.6P core arch. manual) */
	PFP_COUNTER_HOST = 3,         /* the scripted counter of the host unit tests */
};

enum papi_event {
	PAPI_EV_NONE = 0,
	/* PAPI presets */
	PAPI_TOT_CYC = 1, /* total cycles */
	PAPI_TOT_INS = 2, /* instructions completed */
	PAPI_BRU_IDL = 3, /* cycles the branch unit is idle (TriCore: CCNT - TOTAL_BRANCH) */
	PAPI_L1_DCH = 4,
	PAPI_L1_ICH = 5,
	PAPI_L1_ICM = 6,
	PAPI_L1_DCA = 7,
	PAPI_L1_DCM = 8,
	PAPI_L1_ICA = 9,
	PAPI_L1_ICR = 10,
	PAPI_MEM_SCY = 11, /* cycles stalled waiting for memory */
	PAPI_L1_TCA = 12,  /* needs two runs on TriCore (table 2): not countable in one set */
	PAPI_L1_TCH = 13,
	PAPI_L1_TCM = 14,
	PAPI_EXC_CYC = 15,  /* Cortex-M native: exception overhead cycles (DWT_EXCCNT) */
	PAPI_SLP_CYC = 16,  /* Cortex-M native: sleep cycles (DWT_SLEEPCNT) */
	PAPI_LSU_CYC = 17,  /* Cortex-M native: extra load/store cycles (DWT_LSUCNT) */
	PAPI_FOLD_INS = 18, /* Cortex-M native: folded instructions (DWT_FOLDCNT) */
	PAPI_CPI_CYC = 19,  /* Cortex-M native: extra cycles of multi-cycle instructions (DWT_CPICNT) */
	/* TriCore natives (ePAPI table 2, last six rows) */
	PAPI_TC_PMEM_STALL = 32,
	PAPI_TC_DMEM_STALL = 33,
	PAPI_TC_MULTI_ISSUE = 34,
	PAPI_TC_IPDISP_STL = 35,
	PAPI_TC_LSDISP_STL = 36,
	PAPI_TC_LPDISP_STL = 37,
	PAPI_EV_MAX = 38
};

#endif /* TARGET_INCLUDE_PAPI_EVENTS_H */
