/* The Cortex-M event table as data (STYLE 4): PAPI event -> DWT counters, raw counter k being
 * DWT_CYCCNT + 4k (0 CYCCNT, 1 CPICNT, 2 EXCCNT, 3 SLEEPCNT, 4 LSUCNT, 5 FOLDCNT). Kept apart from the
 * port's inline assembly so the host unit tests check the same table. */
#ifndef TARGET_PORT_CORTEX_M_PFP_PORT_CM_EVENTS_H
#define TARGET_PORT_CORTEX_M_PFP_PORT_CM_EVENTS_H

/* Instructions are not counted by the DWT; Armv7-M C1.8.1 derives them:
 * instructions = CYCCNT - CPICNT - EXCCNT - SLEEPCNT - LSUCNT + FOLDCNT. */
#define PFP_CM_EVENT_DEFS                                                                                              \
	{PAPI_TOT_CYC, 1, {{0, 1, PFP_MUX_ANY}}},                                                                      \
	    {PAPI_TOT_INS,                                                                                             \
	     6,                                                                                                        \
	     {{0, 1, PFP_MUX_ANY},                                                                                     \
	      {1, -1, PFP_MUX_ANY},                                                                                    \
	      {2, -1, PFP_MUX_ANY},                                                                                    \
	      {3, -1, PFP_MUX_ANY},                                                                                    \
	      {4, -1, PFP_MUX_ANY},                                                                                    \
	      {5, 1, PFP_MUX_ANY}}},                                                                                   \
	    {PAPI_CPI_CYC, 1, {{1, 1, PFP_MUX_ANY}}}, {PAPI_EXC_CYC, 1, {{2, 1, PFP_MUX_ANY}}},                        \
	    {PAPI_SLP_CYC, 1, {{3, 1, PFP_MUX_ANY}}}, {PAPI_LSU_CYC, 1, {{4, 1, PFP_MUX_ANY}}},                        \
	{                                                                                                              \
		PAPI_FOLD_INS, 1,                                                                                      \
		{                                                                                                      \
			{                                                                                              \
				5, 1, PFP_MUX_ANY                                                                      \
			}                                                                                              \
		}                                                                                                      \
	}

#endif /* TARGET_PORT_CORTEX_M_PFP_PORT_CM_EVENTS_H */
