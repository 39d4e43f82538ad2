/* SysTick of the virtual Cortex-M4F (Armv7-M ARM B3.3), kept lazily; its registers are rows of
 * the SCS table (scs.c). */
#ifndef SIM_CORE_SYSTICK_H
#define SIM_CORE_SYSTICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_core;

struct systick_state {
	uint32_t csr, rvr;
	uint32_t cvr;  /* value at sync */
	uint64_t sync; /* core cycles at which cvr was valid */
};

void systick_reset(struct sim_core *c);
/* Cycles from now until SysTick next sets COUNTFLAG, or UINT64_MAX when disabled. */
uint64_t systick_next_event(struct sim_core *c);
/* SysTick counts with TICKINT: its expiry pends the exception (B3.3.3). */
bool systick_tickint(const struct sim_core *c);
/* Brings SysTick to time `now`, pending the exception for each wrap. */
void systick_advance(struct sim_core *c, uint64_t now);
uint32_t systick_csr_read(struct sim_core *c);
void systick_csr_write(struct sim_core *c, uint32_t v);
uint32_t systick_rvr_read(struct sim_core *c);
void systick_rvr_write(struct sim_core *c, uint32_t v);
uint32_t systick_cvr_read(struct sim_core *c);
void systick_cvr_write(struct sim_core *c, uint32_t v);

#endif /* SIM_CORE_SYSTICK_H */
