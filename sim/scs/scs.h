/* The System Control Space page 0xE000E000 of the virtual Cortex-M4F as a register table (scs.c). */
#ifndef SIM_CORE_SCS_H
#define SIM_CORE_SCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus/bus.h"

struct scs;

enum bus_result scs_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result scs_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
/* Puts the stored registers of the table at their reset values: the core's (local reset) or, with
 * debug_domain, the debug registers (power-on reset only, C1.4). */
void scs_reset(struct scs *s, bool debug_domain);
/* The manual's name of the register at `off` in the page, or NULL (reserved). */
const char *scs_name(uint32_t off);
/* Checks the table is sorted with no overlaps: -1 with a message in err otherwise. */
int scs_check(char *err, size_t errlen);

#endif /* SIM_CORE_SCS_H */
