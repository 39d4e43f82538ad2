/* The Data Watchpoint and Trace unit of the virtual Cortex-M4F (Armv7-M ARM C1.8): CYCCNT and the
 * profiling counters, the comparators. */
#ifndef SIM_CORE_DWT_H
#define SIM_CORE_DWT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus/bus.h"
#include "scs/scs_state.h"
#include "timing/cycles.h"

void dwt_power_on(struct scs *s);
enum bus_result dwt_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result dwt_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
uint32_t dwt_cyccnt(struct scs *s, uint64_t now);
/* Before the enables or the time base change: fold elapsed cycles into CYCCNT. */
void dwt_sync(struct scs *s, uint64_t now);
void dwt_count_exception(struct scs *s, uint32_t overhead_cycles);
void dwt_count_sleep(struct scs *s, uint64_t cycles);
/* The 8-bit counters' share of a block (C1.8.6): CPICNT, LSUCNT, FOLDCNT; `cpi_extra` for a taken
 * branch's refill or a divide. */
void dwt_count_block(struct scs *s, const struct cyc_block *cb, uint32_t cpi_extra);
/* DWT_CTRL's CPIEVTENA | LSUEVTENA | FOLDEVTENA (C1.8.7): the counters dwt_count_block feeds. The
 * block hook tests them before the call: with none enabled it has nothing to do. */
#define DWT_CTRL_BLOCK_EVENTS ((1u << 17) | (1u << 20) | (1u << 21))
void dwt_count_cpi(struct scs *s, uint32_t cycles);
void dwt_count_lsu(struct scs *s, uint32_t cycles);
/* The data-address watchpoints (FUNCTION 5, 6, 7) into w[CORE_DWT_NUM_COMP]; how many. */
unsigned dwt_watchpoints(const struct scs *s, struct scs_watch *w);
/* The core's memory hook: an access to [lo, hi] (a write or a read) inside a watched range sets
 * MATCHED; true when a watchpoint has fired (the core stops after the block). */
bool dwt_watch_access(struct scs *s, bool write, uint32_t lo, uint32_t hi);

/* Comparator n matches instruction addresses (FUNCTION 0b0100, mask 0): its halfword address. */
bool dwt_pc_comparator(const struct scs *s, unsigned n, uint32_t *addr);
/* The core is about to execute addr: sets MATCHED on the instruction-address comparators that
 * match it (C1.8.17); true when one did. */
bool dwt_pc_match(struct scs *s, uint32_t addr);
/* A data watchpoint fired during the slice: true once, then clear. */
bool dwt_take_watchpoint_hit(struct scs *s);

#endif /* SIM_CORE_DWT_H */
