/* The Flash Patch and Breakpoint unit of the virtual Cortex-M4F (Armv7-M ARM C1.11): breakpoints
 * only, with the DWT's instruction-address comparators as code hooks too. */
#ifndef SIM_CORE_FPB_H
#define SIM_CORE_FPB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <unicorn/unicorn.h>

#include "bus/bus.h"
#include "scs/dwt.h"

struct sim_core;

#define CORE_FPB_NUM_CODE 6
#define CORE_FPB_NUM_LIT  2

struct fpb_state {
	uint32_t ctrl; /* ENABLE bit only; the rest is read-only */
	uint32_t comp[CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT];
	uint32_t bp[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP]; /* halfword addresses that halt */
	unsigned n_bp;
	uc_hook hooks[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP];
	unsigned n_hooks;
	bool dirty; /* comparators written by the core during emulation: rebuild after the slice */
};

void fpb_power_on(struct sim_core *c);
enum bus_result fpb_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result fpb_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
/* Rebuilds the set of halting addresses from FPB and DWT comparators and the code hooks for them. */
void fpb_update(struct sim_core *c);

/* After a slice: rebuilds what the core's own comparator writes changed (fpb_update deferred). */
void fpb_settle(struct sim_core *c);

#endif /* SIM_CORE_FPB_H */
