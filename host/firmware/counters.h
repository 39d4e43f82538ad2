/* Counters and PAPI-style event names as data (STYLE 4): the Cortex-M DWT counters, the TriCore
 * TC1.6P counters with the CCTRL multiplexing (ePAPI table 1), and the PAPI events each core can
 * count (ePAPI table 2). Event codes are shared with the firmware (target/include/papi_events.h);
 * the region table stores codes, the host names them. */
#ifndef HOST_FIRMWARE_COUNTERS_H
#define HOST_FIRMWARE_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "papi_events.h"

enum counter_core { COUNTER_CORTEX_M, COUNTER_TRICORE };

struct counter_desc {
	const char *name; /* "DWT_CYCCNT" */
	enum counter_core core;
	uint32_t addr; /* memory address (Cortex-M) or CSFR offset for MFCR (TriCore) */
	unsigned bits; /* counting width: the value wraps at 2^bits */
	const char *what;
	/* A register and bit (same address space as addr) that must be set for the counter to count:
	 * DWT_CTRL.CYCCNTENA for CYCCNT (Armv7-M ARM C1.8.7), CCTRL.CE for CCNT. enable_mask 0: none. */
	uint32_t enable_addr, enable_mask;
	bool cycles; /* counts core clock cycles: usable as a run's counter for cycle samples */
};

struct tricore_mux_row {
	unsigned cctrl;   /* the CCTRL.M1/M2/M3 selection value */
	const char *m[3]; /* what M1CNT, M2CNT, M3CNT count with it */
};

struct papi_event_desc {
	uint16_t code;    /* enum papi_event */
	const char *name; /* "PAPI_TOT_INS" */
	const char *description;
	const char *cortex_m; /* how a Cortex-M counts it, NULL: not countable */
	const char *tricore;  /* how a TriCore TC1.6P counts it, NULL: not countable in one run */
};

extern const struct counter_desc counter_table[];
extern const size_t counter_table_len;
extern const struct tricore_mux_row tricore_mux_table[];
extern const size_t tricore_mux_table_len;
extern const struct papi_event_desc papi_event_table[];
extern const size_t papi_event_table_len;

const struct counter_desc *counters_find(const char *name);
/* The address a debugger reads the counter at: its memory address on a Cortex-M; on a TriCore the
 * core's CSFR window (csfr_base, board.json "csfr_base"; AURIX core 0: 0xF8810000) plus its CSFR
 * offset. BENCH_E_BOARD when a TriCore counter has no window. */
int counters_address(const struct counter_desc *c, uint32_t csfr_base, uint32_t *addr, struct bench_error *err);
/* end - begin modulo 2^bits (wrap-safe; TriCore's sticky overflow bit 31 masked off). */
uint32_t counters_delta(const struct counter_desc *c, uint32_t begin, uint32_t end);
/* The PAPI event of a code, NULL when unknown. */
const struct papi_event_desc *counters_event(uint16_t code);
/* "PAPI_TOT_INS" -> code; 0 (PAPI_EV_NONE) when unknown. */
uint16_t counters_event_code(const char *name);
/* The name of a table's counter id (struct pfp_table.counter): "DWT_CYCCNT", "CCNT", "none". */
const char *counters_cycle_counter_name(uint32_t counter_id);

/* CCTRL (TC1.6P core architecture manual, "CCTRL": CM bit 0, CE bit 1, M1 bits 4:2, M2 bits 7:5,
 * M3 bits 10:8) and what multiplexed counter m (1..3: M1CNT..M3CNT) counts with it, from ePAPI
 * table 1; NULL for a selection the table does not list. */
#define COUNTERS_CCTRL_CM 0x1u
#define COUNTERS_CCTRL_CE 0x2u
const char *counters_tricore_mux_event(uint32_t cctrl, unsigned m);

#endif /* HOST_FIRMWARE_COUNTERS_H */
