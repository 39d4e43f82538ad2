/* The one small port seam of the profile-point runtime (target/pfp): a cycle counter, a critical
 * section, and the raw event counters with their widths and multiplexer settings. Each port header
 * defines, as static inline functions and macros:
 *
 *   PFP_PORT_COUNTER        enum pfp_counter_id of the cycle counter
 *   PFP_PORT_CYCLES_MASK    the counter's width as a mask (wrap-safe subtraction)
 *   pfp_port_irq_t          saved interrupt state
 *   pfp_port_lock()         enter the critical section, return the state to restore
 *   pfp_port_unlock(s)      leave it
 *   pfp_port_cycles()       read the cycle counter
 *   pfp_port_barrier()      order the seqlock's stores against the statistics' stores
 *   PFP_PORT_N_RAW          raw event counters (0 when none)
 *   pfp_port_raw_read(raw)  read all raw counters
 *   PFP_PORT_RAW_BITS       initializer of uint8_t[PFP_PORT_N_RAW]: each counter's width
 *   PFP_PORT_N_MUX          multiplexed counters (TriCore M1CNT..M3CNT), 0 on Cortex-M
 *   pfp_port_events_setup(mux)  enable the raw counters and program the multiplexers
 *   PFP_PORT_EVENT_DEFS     initializer of struct pfp_event_def[]: PAPI event -> raw counters
 *
 * The port is picked by the compiler's target macros, or by PFP_PORT_HEADER (the host unit tests'
 * scripted counter). */
#ifndef TARGET_INCLUDE_PFP_PORT_H
#define TARGET_INCLUDE_PFP_PORT_H

#include <stdint.h>

#include "papi_events.h"

#define PFP_MUX_ANY         0xffu
#define PFP_EVENT_MAX_TERMS 6

/* One term of an event: sign * delta(raw counter). `mux` is the multiplexer setting the raw counter
 * needs (TriCore CCTRL.M1/M2/M3), PFP_MUX_ANY for a fixed counter. */
struct pfp_event_term {
	uint8_t raw;
	int8_t sign;
	uint8_t mux;
};

struct pfp_event_def {
	uint16_t code; /* enum papi_event */
	uint8_t n_terms;
	struct pfp_event_term term[PFP_EVENT_MAX_TERMS];
};

#if defined(PFP_PORT_HEADER)
#include PFP_PORT_HEADER
#elif defined(__tricore__) || defined(__TRICORE__)
#include "../port/tricore/pfp_port_tricore.h"
#elif defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#include "../port/cortex-m/pfp_port_cm.h"
#else
#error "pfp: no port for this core (Armv7-M and TriCore TC1.6P exist); define PFP_PORT_HEADER"
#endif

#endif /* TARGET_INCLUDE_PFP_PORT_H */
