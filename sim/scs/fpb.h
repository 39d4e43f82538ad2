/* The Flash Patch and Breakpoint unit of the virtual Cortex-M4F (Armv7-M ARM C1.11): breakpoints
 * only, with the DWT's instruction-address comparators as code hooks too. */
#ifndef SIM_CORE_FPB_H
#define SIM_CORE_FPB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus/bus.h"
#include "scs/scs_state.h"

void fpb_power_on(struct scs *s);
enum bus_result fpb_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result fpb_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
/* Rebuilds the set of halting addresses from FPB and DWT comparators and hands them to the core
 * (scs_core_ops.set_points), with the DWT's data watchpoints. */
void fpb_update(struct scs *s);
/* The core's code hook at a halting address: which comparator halts there, if any still does. */
enum scs_point fpb_point_at(struct scs *s, uint32_t addr);

/* Before and after a slice: rebuilds what comparator or DEBUGEN writes changed (never under unicorn). */
void fpb_settle(struct scs *s);

#endif /* SIM_CORE_FPB_H */
