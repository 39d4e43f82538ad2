/* The Instrumentation Trace Macrocell of the virtual Cortex-M4F (Armv7-M ARM C1.7): stimulus
 * ports printed as lines. */
#ifndef SIM_CORE_ITM_H
#define SIM_CORE_ITM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus/bus.h"

struct scs;

/* itm.c: the ITM page (C1.7 of the Cortex-M4 TRM; stimulus ports print when cfg.uart_echo). */
enum bus_result itm_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result itm_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
void itm_flush(struct scs *s);

#endif /* SIM_CORE_ITM_H */
