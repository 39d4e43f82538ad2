/* SysTick of the virtual Cortex-M4F (Armv7-M ARM B3.3), kept lazily; its registers are rows of
 * the SCS table (scs.c). */
#ifndef SIM_CORE_SYSTICK_H
#define SIM_CORE_SYSTICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scs;

void systick_reset(struct scs *s);
/* Cycles from now until SysTick next sets COUNTFLAG, or UINT64_MAX when disabled. */
uint64_t systick_next_event(struct scs *s);
/* SysTick counts with TICKINT: its expiry pends the exception (B3.3.3). */
bool systick_tickint(const struct scs *s);
/* Brings SysTick to time `now`, pending the exception for each wrap. */
void systick_advance(struct scs *s, uint64_t now);
uint32_t systick_csr_read(struct scs *s);
void systick_csr_write(struct scs *s, uint32_t v);
uint32_t systick_rvr_read(struct scs *s);
void systick_rvr_write(struct scs *s, uint32_t v);
uint32_t systick_cvr_read(struct scs *s);
void systick_cvr_write(struct scs *s, uint32_t v);

#endif /* SIM_CORE_SYSTICK_H */
