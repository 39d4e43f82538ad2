/* Shared between the region runtime (pfp.c) and the event counters (pfp_events.c); not public. */
#ifndef TARGET_PFP_PFP_INTERNAL_H
#define TARGET_PFP_PFP_INTERNAL_H

#include <stdint.h>

#include "pfp.h"
#include "pfp_port.h"

/* Raw counter snapshots need at least one element even on a port without event counters. */
#define PFP_N_RAW_ARRAY (PFP_PORT_N_RAW > 0 ? PFP_PORT_N_RAW : 1)

/* A resolved event set: which defs, which raw counters they read, and the multiplexer settings. */
struct pfp_evset {
	unsigned n;
	const struct pfp_event_def *def[PFP_MAX_EVENTS];
	uint32_t raw_used; /* bit k: raw counter k is read */
	uint8_t mux[PFP_PORT_N_MUX > 0 ? PFP_PORT_N_MUX : 1];
	uint32_t last[PFP_N_RAW_ARRAY]; /* raw counters at the previous snapshot */
};

/* Resolves codes into set (mux settings merged). Returns 0, -1 for an unknown code, -2 for two events
 * that need different settings of one multiplexed counter. */
int pfp_evset_resolve(struct pfp_evset *set, const uint16_t *codes, unsigned n);
/* Programs the port's counters for set and takes the first snapshot. */
void pfp_evset_start(struct pfp_evset *set);
/* Adds each event's change since the previous snapshot to out[i] and takes a new snapshot. Returns
 * nonzero when `cycles` (the interval's length) is long enough for a narrow raw counter to wrap. */
int pfp_evset_delta(struct pfp_evset *set, uint32_t cycles, uint32_t *out);
/* Takes a snapshot without accounting (the end of a PFP call's own bookkeeping). */
void pfp_evset_snap(struct pfp_evset *set);

#endif /* TARGET_PFP_PFP_INTERNAL_H */
