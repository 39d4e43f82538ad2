/* The counter tables. Sources: Armv7-M ARM C1.8 (DWT: CYCCNT C1.8.8, CPICNT/EXCCNT/SLEEPCNT/LSUCNT/
 * FOLDCNT C1.8.9-13, instruction count derivation C1.8.1); TriCore TC1.6P core architecture manual
 * (CCTRL/CCNT/ICNT/M1CNT-M3CNT core special function registers) and Giesen et al., "ePAPI",
 * WCET 2019, tables 1 and 2. */
#include "firmware/counters.h"

#include <inttypes.h>
#include <string.h>

const struct counter_desc counter_table[] = {
    {"DWT_CTRL", COUNTER_CORTEX_M, 0xE0001000u, 32,
     "control: CYCCNTENA bit 0, CPI/EXC/SLEEP/LSU/FOLD EVTENA bits 17-21", 0, 0, false},
    {"DWT_CYCCNT", COUNTER_CORTEX_M, 0xE0001004u, 32, "cycles", 0xE0001000u, 0x1u, true},
    {"DWT_CPICNT", COUNTER_CORTEX_M, 0xE0001008u, 8, "extra cycles of multi-cycle instructions (beyond the first)",
     0xE0001000u, 1u << 17, false},
    {"DWT_EXCCNT", COUNTER_CORTEX_M, 0xE000100Cu, 8, "cycles of exception entry and return overhead", 0xE0001000u,
     1u << 18, false},
    {"DWT_SLEEPCNT", COUNTER_CORTEX_M, 0xE0001010u, 8, "cycles asleep", 0xE0001000u, 1u << 19, false},
    {"DWT_LSUCNT", COUNTER_CORTEX_M, 0xE0001014u, 8, "extra cycles of load/store instructions", 0xE0001000u, 1u << 20,
     false},
    {"DWT_FOLDCNT", COUNTER_CORTEX_M, 0xE0001018u, 8, "folded instructions (executed in no cycle of their own)",
     0xE0001000u, 1u << 21, false},
    {"CCTRL", COUNTER_TRICORE, 0xFC00u, 32, "counter control: CM, CE, M1/M2/M3 selections", 0, 0, false},
    /* CCTRL.CE (bit 1) enables CCNT, ICNT and M1-3CNT together (TC1.6P core architecture, CCTRL). */
    {"CCNT", COUNTER_TRICORE, 0xFC04u, 31, "cycles; bit 31 is the sticky overflow", 0xFC00u, 0x2u, true},
    {"ICNT", COUNTER_TRICORE, 0xFC08u, 31, "instructions; bit 31 is the sticky overflow", 0xFC00u, 0x2u, false},
    {"M1CNT", COUNTER_TRICORE, 0xFC0Cu, 31, "multiplexed counter 1 (CCTRL.M1)", 0xFC00u, 0x2u, false},
    {"M2CNT", COUNTER_TRICORE, 0xFC10u, 31, "multiplexed counter 2 (CCTRL.M2)", 0xFC00u, 0x2u, false},
    {"M3CNT", COUNTER_TRICORE, 0xFC14u, 31, "multiplexed counter 3 (CCTRL.M3)", 0xFC00u, 0x2u, false},
};
const size_t counter_table_len = sizeof(counter_table) / sizeof(counter_table[0]);

/* ePAPI table 1: one CCTRL selection sets what all three multiplexed counters count. */
const struct tricore_mux_row tricore_mux_table[] = {
    {0, {"IP_DISPATCH_STALL", "LS_DISPATCH_STALL", "LP_DISPATCH_STALL"}},
    {1, {"PCACHE_HIT", "PCACHE_MISS", "MULTI_ISSUE"}},
    {2, {"DCACHE_HIT", "DCACHE_MISS_CLEAN", "DCACHE_MISS_DIRTY"}},
    {3, {"TOTAL_BRANCH", "PMEM_STALL", "DMEM_STALL"}},
};
const size_t tricore_mux_table_len = sizeof(tricore_mux_table) / sizeof(tricore_mux_table[0]);

/* ePAPI table 2 (TriCore) beside the Cortex-M derivations. */
const struct papi_event_desc papi_event_table[] = {
    {PAPI_TOT_CYC, "PAPI_TOT_CYC", "total cycles", "DWT_CYCCNT", "CCNT"},
    {PAPI_TOT_INS, "PAPI_TOT_INS", "instructions completed",
     "DWT_CYCCNT - CPICNT - EXCCNT - SLEEPCNT - LSUCNT + FOLDCNT", "ICNT"},
    {PAPI_BRU_IDL, "PAPI_BRU_IDL", "cycles branch units are idle", NULL, "CCNT - M1CNT (CCTRL 3: TOTAL_BRANCH)"},
    {PAPI_L1_DCH, "PAPI_L1_DCH", "level 1 data cache hits", NULL, "M1CNT (CCTRL 2: DCACHE_HIT)"},
    {PAPI_L1_ICH, "PAPI_L1_ICH", "level 1 instruction cache hits", NULL, "M1CNT (CCTRL 1: PCACHE_HIT)"},
    {PAPI_L1_ICM, "PAPI_L1_ICM", "level 1 instruction cache misses", NULL, "M2CNT (CCTRL 1: PCACHE_MISS)"},
    {PAPI_L1_DCA, "PAPI_L1_DCA", "level 1 data cache accesses", NULL, "M1CNT + M2CNT + M3CNT (CCTRL 2)"},
    {PAPI_L1_DCM, "PAPI_L1_DCM", "level 1 data cache misses", NULL, "M2CNT + M3CNT (CCTRL 2)"},
    {PAPI_L1_ICA, "PAPI_L1_ICA", "level 1 instruction cache accesses", NULL, "M1CNT + M2CNT (CCTRL 1)"},
    {PAPI_L1_ICR, "PAPI_L1_ICR", "level 1 instruction cache reads", NULL, "M1CNT + M2CNT (CCTRL 1)"},
    {PAPI_MEM_SCY, "PAPI_MEM_SCY", "cycles stalled waiting for memory", NULL, "M2CNT + M3CNT (CCTRL 3)"},
    {PAPI_L1_TCA, "PAPI_L1_TCA", "level 1 total cache accesses", NULL, NULL},
    {PAPI_L1_TCH, "PAPI_L1_TCH", "level 1 total cache hits", NULL, NULL},
    {PAPI_L1_TCM, "PAPI_L1_TCM", "level 1 total cache misses", NULL, NULL},
    {PAPI_EXC_CYC, "DWT_EXCCNT", "exception overhead cycles", "DWT_EXCCNT", NULL},
    {PAPI_SLP_CYC, "DWT_SLEEPCNT", "sleep cycles", "DWT_SLEEPCNT", NULL},
    {PAPI_LSU_CYC, "DWT_LSUCNT", "extra load/store cycles", "DWT_LSUCNT", NULL},
    {PAPI_FOLD_INS, "DWT_FOLDCNT", "folded instructions", "DWT_FOLDCNT", NULL},
    {PAPI_CPI_CYC, "DWT_CPICNT", "extra cycles of multi-cycle instructions", "DWT_CPICNT", NULL},
    {PAPI_TC_PMEM_STALL, "PMEM_STALL", "cycles the program memory is stalled", NULL, "M2CNT (CCTRL 3)"},
    {PAPI_TC_DMEM_STALL, "DMEM_STALL", "cycles the data memory is stalled", NULL, "M3CNT (CCTRL 3)"},
    {PAPI_TC_MULTI_ISSUE, "MULTI_ISSUE", "cycles issuing more than one instruction", NULL, "M3CNT (CCTRL 1)"},
    {PAPI_TC_IPDISP_STL, "IPDISP_STL", "cycles the integer dispatch unit is stalled", NULL, "M1CNT (CCTRL 0)"},
    {PAPI_TC_LSDISP_STL, "LSDISP_STL", "cycles the load-store dispatch unit is stalled", NULL, "M2CNT (CCTRL 0)"},
    {PAPI_TC_LPDISP_STL, "LPDISP_STL", "cycles the loop dispatch unit is stalled", NULL, "M3CNT (CCTRL 0)"},
};
const size_t papi_event_table_len = sizeof(papi_event_table) / sizeof(papi_event_table[0]);

const struct counter_desc *counters_find(const char *name)
{
	for (size_t i = 0; i < counter_table_len; i++)
		if (!strcmp(counter_table[i].name, name))
			return &counter_table[i];
	return NULL;
}

const struct papi_event_desc *counters_event(uint16_t code)
{
	for (size_t i = 0; i < papi_event_table_len; i++)
		if (papi_event_table[i].code == code)
			return &papi_event_table[i];
	return NULL;
}

uint16_t counters_event_code(const char *name)
{
	for (size_t i = 0; i < papi_event_table_len; i++)
		if (!strcmp(papi_event_table[i].name, name))
			return papi_event_table[i].code;
	return PAPI_EV_NONE;
}

const char *counters_cycle_counter_name(uint32_t counter_id)
{
	static const char *const names[] = {
	    [PFP_COUNTER_NONE] = "none",
	    [PFP_COUNTER_DWT_CYCCNT] = "DWT_CYCCNT",
	    [PFP_COUNTER_TRICORE_CCNT] = "CCNT",
	    [PFP_COUNTER_HOST] = "host-scripted",
	};
	if (counter_id < sizeof(names) / sizeof(names[0]) && names[counter_id])
		return names[counter_id];
	return "unknown";
}

int counters_address(const struct counter_desc *c, uint32_t csfr_base, uint32_t *addr, struct bench_error *err)
{
	if (c->core == COUNTER_CORTEX_M) {
		*addr = c->addr;
		return 0;
	}
	if (!csfr_base)
		return bench_fail(err, BENCH_E_BOARD,
		                  "counter %s is a TriCore core register: give the board a \"csfr_base\" (the core's "
		                  "CSFR window, 0xF8810000 for AURIX core 0) or set \"counter\": \"none\"",
		                  c->name);
	if ((uint64_t)csfr_base + c->addr > 0xFFFFFFFCull)
		return bench_fail(err, BENCH_E_BOARD,
		                  "csfr_base 0x%08" PRIx32 " + %s's offset 0x%04" PRIx32
		                  " leaves the 32-bit address space: fix the board file",
		                  csfr_base, c->name, c->addr);
	*addr = csfr_base + c->addr;
	return 0;
}

uint32_t counters_delta(const struct counter_desc *c, uint32_t begin, uint32_t end)
{
	uint32_t mask = c->bits >= 32 ? 0xFFFFFFFFu : (1u << c->bits) - 1u;

	return (end - begin) & mask;
}

const char *counters_tricore_mux_event(uint32_t cctrl, unsigned m)
{
	unsigned sel;

	if (m < 1 || m > 3)
		return NULL;
	sel = (cctrl >> (2u + 3u * (m - 1u))) & 0x7u;
	for (size_t i = 0; i < tricore_mux_table_len; i++)
		if (tricore_mux_table[i].cctrl == sel)
			return tricore_mux_table[i].m[m - 1u];
	return NULL;
}
