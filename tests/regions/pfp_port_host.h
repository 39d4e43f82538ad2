/* A scripted port for the host unit tests of target/pfp: the "cycle counter" is a variable the test
 * advances, and every read adds pfp_host_read_cost (what PFP's own code would take on a core), so
 * calibration has a known bias to find. Six raw event counters shaped like the Cortex-M DWT's
 * (CYCCNT 32 bits, then five 8-bit ones), written by the test. */
#ifndef TESTS_REGIONS_PFP_PORT_HOST_H
#define TESTS_REGIONS_PFP_PORT_HOST_H

#include <stdint.h>

extern uint32_t pfp_host_now;
extern uint32_t pfp_host_read_cost;
extern int pfp_host_lock_depth;
extern int pfp_host_lock_max;
extern uint32_t pfp_host_raw[6];
extern unsigned pfp_host_setup_calls;
extern uint8_t pfp_host_mux_seen;
/* An interrupt held off by the critical section: run when the outermost unlock happens. */
extern void (*pfp_host_pending_irq)(void);

#define PFP_PORT_COUNTER     PFP_COUNTER_HOST
#define PFP_PORT_CYCLES_MASK 0xffffffffu
#define PFP_PORT_TABLE_FLAGS 0u

typedef int pfp_port_irq_t;

static inline pfp_port_irq_t pfp_port_lock(void)
{
	int s = pfp_host_lock_depth++;
	if (pfp_host_lock_depth > pfp_host_lock_max)
		pfp_host_lock_max = pfp_host_lock_depth;
	return s;
}
static inline void pfp_port_unlock(pfp_port_irq_t s)
{
	pfp_host_lock_depth = s;
	if (s == 0 && pfp_host_pending_irq) {
		void (*irq)(void) = pfp_host_pending_irq;
		pfp_host_pending_irq = 0;
		irq();
	}
}
static inline uint32_t pfp_port_cycles(void)
{
	uint32_t v = pfp_host_now;
	pfp_host_now += pfp_host_read_cost;
	return v;
}
static inline void pfp_port_barrier(void)
{
}
static inline void pfp_port_init(void)
{
}

#define PFP_PORT_N_RAW    6
#define PFP_PORT_N_MUX    0
#define PFP_PORT_MUX_RAW0 0
#define PFP_PORT_RAW_BITS                                                                                              \
	{                                                                                                              \
		32, 8, 8, 8, 8, 8                                                                                      \
	}
static inline void pfp_port_raw_read(uint32_t *raw)
{
	raw[0] = pfp_host_now;
	for (unsigned i = 1; i < 6; i++)
		raw[i] = pfp_host_raw[i];
}
static inline void pfp_port_events_setup(const uint8_t *mux)
{
	(void)mux;
	pfp_host_setup_calls++;
}

/* The Cortex-M port's event table: the tests check the derivation on the same data. */
#include "../../target/port/cortex-m/pfp_port_cm_events.h"
#define PFP_PORT_EVENT_DEFS PFP_CM_EVENT_DEFS

#endif /* TESTS_REGIONS_PFP_PORT_HOST_H */
