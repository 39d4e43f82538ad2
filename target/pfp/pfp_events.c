/* Event counters after ePAPI (Giesen et al., WCET 2019): an event set of PAPI-named events, each a
 * sum of raw counter deltas (a data table per port, PFP_PORT_EVENT_DEFS), counted with the port's
 * multiplexers set once for the whole set. Used by regions (pfp_set_events) and by the PAPI-style
 * high-level calls below (ePAPI table 3: start / read / accum / stop). */
#include "pfp_internal.h"

static const struct pfp_event_def defs[] = {PFP_PORT_EVENT_DEFS};
static const uint8_t raw_bits[PFP_N_RAW_ARRAY] = PFP_PORT_RAW_BITS;

static uint32_t raw_mask(unsigned k)
{
	return raw_bits[k] >= 32 ? 0xffffffffu : ((1u << raw_bits[k]) - 1u);
}

int pfp_evset_resolve(struct pfp_evset *set, const uint16_t *codes, unsigned n)
{
	if (n > PFP_MAX_EVENTS)
		return -1;
	set->n = 0;
	set->raw_used = 0;
	for (unsigned m = 0; m < sizeof(set->mux); m++)
		set->mux[m] = PFP_MUX_ANY;
	for (unsigned i = 0; i < n; i++) {
		const struct pfp_event_def *d = 0;
		for (unsigned j = 0; j < sizeof(defs) / sizeof(defs[0]); j++)
			if (defs[j].code == codes[i])
				d = &defs[j];
		if (!d)
			return -1;
		for (unsigned t = 0; t < d->n_terms; t++) {
			const struct pfp_event_term *term = &d->term[t];
			set->raw_used |= 1u << term->raw;
			if (term->mux != PFP_MUX_ANY) {
				/* TriCore: M1CNT..M3CNT each show one event of a CCTRL row (ePAPI table 1). */
				unsigned slot = (unsigned)term->raw - PFP_PORT_MUX_RAW0;
				if (set->mux[slot] != PFP_MUX_ANY && set->mux[slot] != term->mux)
					return -2;
				set->mux[slot] = term->mux;
			}
		}
		set->def[i] = d;
	}
	set->n = n;
	return 0;
}

void pfp_evset_snap(struct pfp_evset *set)
{
	uint32_t raw[PFP_N_RAW_ARRAY];

	pfp_port_raw_read(raw);
	for (unsigned k = 0; k < PFP_PORT_N_RAW; k++)
		set->last[k] = raw[k];
}

void pfp_evset_start(struct pfp_evset *set)
{
	pfp_port_events_setup(set->mux);
	pfp_evset_snap(set);
}

int pfp_evset_delta(struct pfp_evset *set, uint32_t cycles, uint32_t *out)
{
	uint32_t raw[PFP_N_RAW_ARRAY], d[PFP_N_RAW_ARRAY];
	int wrap = 0;

	pfp_port_raw_read(raw);
	for (unsigned k = 0; k < PFP_PORT_N_RAW; k++) {
		uint32_t m = raw_mask(k);
		d[k] = (raw[k] - set->last[k]) & m;
		set->last[k] = raw[k];
		/* A counter advances at most once per cycle: an interval no longer than its range
		 * cannot have wrapped it (the 8-bit DWT counters, Armv7-M C1.8.9). */
		if ((set->raw_used & (1u << k)) && cycles > m)
			wrap = 1;
	}
	for (unsigned i = 0; i < set->n; i++) {
		const struct pfp_event_def *def = set->def[i];
		uint32_t v = 0;
		for (unsigned t = 0; t < def->n_terms; t++)
			v += def->term[t].sign > 0 ? d[def->term[t].raw] : 0u - d[def->term[t].raw];
		out[i] += v;
	}
	return wrap;
}

/* The high-level PAPI calls: one event set at a time, like PAPI_start_counters. */
static struct {
	struct pfp_evset set;
	uint32_t last_cycles;
	int running;
} papi;

static int papi_take(int64_t *values, unsigned n, int accumulate)
{
	uint32_t now, out[PFP_MAX_EVENTS] = {0};
	int wrap;

	if (!papi.running)
		return PFP_PAPI_ENOTRUN;
	if (n != papi.set.n)
		return PFP_PAPI_EINVAL;
	now = pfp_port_cycles();
	wrap = pfp_evset_delta(&papi.set, (now - papi.last_cycles) & PFP_PORT_CYCLES_MASK, out);
	papi.last_cycles = now;
	for (unsigned i = 0; i < n; i++)
		values[i] = accumulate ? values[i] + (int64_t)out[i] : (int64_t)out[i];
	return wrap ? PFP_PAPI_WRAPPED : PFP_PAPI_OK;
}

int pfp_papi_start(const uint16_t *events, unsigned n)
{
	int rc;

	if (papi.running)
		return PFP_PAPI_EISRUN;
	rc = pfp_evset_resolve(&papi.set, events, n);
	if (rc == -2)
		return PFP_PAPI_ECNFLCT;
	if (rc)
		return PFP_PAPI_EINVAL;
	pfp_evset_start(&papi.set);
	papi.last_cycles = pfp_port_cycles();
	papi.running = 1;
	return PFP_PAPI_OK;
}

int pfp_papi_read(int64_t *values, unsigned n)
{
	return papi_take(values, n, 0);
}

int pfp_papi_accum(int64_t *values, unsigned n)
{
	return papi_take(values, n, 1);
}

int pfp_papi_stop(int64_t *values, unsigned n)
{
	int rc = papi_take(values, n, 0);

	if (rc >= 0)
		papi.running = 0;
	return rc;
}
