/* The Data Watchpoint and Trace unit of the virtual Cortex-M4F (Armv7-M ARM C1.8): CYCCNT and the
 * profiling counters, the comparators. */
#ifndef SIM_CORE_DWT_H
#define SIM_CORE_DWT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <unicorn/unicorn.h>

#include "bus/bus.h"
#include "timing/cycles.h"

struct sim_core;

#define CORE_DWT_NUM_COMP 4

struct dwt_state {
	uint32_t ctrl;
	uint32_t cyccnt;   /* value at cyc_sync */
	uint64_t cyc_sync; /* core cycles when cyccnt was last brought up to date */
	uint8_t cpicnt, exccnt, sleepcnt, lsucnt, foldcnt;
	uint32_t comp[CORE_DWT_NUM_COMP], mask[CORE_DWT_NUM_COMP], function[CORE_DWT_NUM_COMP];
	uc_hook wp_hooks[CORE_DWT_NUM_COMP]; /* data-address watchpoints (FUNCTION 5, 6, 7) */
	unsigned n_wp_hooks;
	bool wp_hit; /* a watched access happened: halt after this block */
};

void dwt_power_on(struct sim_core *c);
enum bus_result dwt_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result dwt_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
uint32_t dwt_cyccnt(struct sim_core *c, uint64_t now);
/* Before the enables or the time base change: fold elapsed cycles into CYCCNT. */
void dwt_sync(struct sim_core *c, uint64_t now);
void dwt_count_exception(struct sim_core *c, uint32_t overhead_cycles);
void dwt_count_sleep(struct sim_core *c, uint64_t cycles);
/* The 8-bit counters' share of a block (C1.8.6): CPICNT, LSUCNT, FOLDCNT; `cpi_extra` for a taken
 * branch's refill or a divide. */
void dwt_count_block(struct sim_core *c, const struct cyc_block *cb, uint32_t cpi_extra);
/* DWT_CTRL's CPIEVTENA | LSUEVTENA | FOLDEVTENA (C1.8.7): the counters dwt_count_block feeds. The
 * block hook tests them before the call: with none enabled it has nothing to do. */
#define DWT_CTRL_BLOCK_EVENTS ((1u << 17) | (1u << 20) | (1u << 21))
void dwt_count_cpi(struct sim_core *c, uint32_t cycles);
void dwt_count_lsu(struct sim_core *c, uint32_t cycles);
/* Rebuilds the memory hooks of the data-address watchpoints; outside emulation only. */
void dwt_update_watchpoints(struct sim_core *c);

/* Comparator n matches instruction addresses (FUNCTION 0b0100, mask 0): its halfword address. */
bool dwt_pc_comparator(const struct sim_core *c, unsigned n, uint32_t *addr);
/* The core is about to execute addr: sets MATCHED on the instruction-address comparators that
 * match it (C1.8.17); true when one did. */
bool dwt_pc_match(struct sim_core *c, uint32_t addr);
/* A data watchpoint fired during the slice: true once, then clear. */
bool dwt_take_watchpoint_hit(struct sim_core *c);

#endif /* SIM_CORE_DWT_H */
