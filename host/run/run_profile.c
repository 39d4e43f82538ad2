/* bench-sim's halt records handed to the exact profile (run_profile.h). */
#include <stdlib.h>
#include <string.h>

#include "run/run_profile.h"

void run_exact_open(struct run_exact *e, struct sim_record_reader *rd)
{
	memset(e, 0, sizeof(*e));
	profile_exact_init(&e->x);
	e->rd = rd;
}

void run_exact_close(struct run_exact *e)
{
	if (e->rd)
		sim_record_close(e->rd);
	e->rd = NULL;
	profile_exact_free(&e->x);
}

static int nomem(struct bench_error *err)
{
	return bench_fail(err, BENCH_E_NOMEM, "out of memory keeping the exact profile");
}

/* The reasons once (the header's), and the nodes the reader learnt since the last call. */
static int take_tables(struct run_exact *e, struct bench_error *err)
{
	size_t n = sim_record_n_nodes(e->rd);

	if (!e->have_reasons) {
		const char *names[SIM_RECORD_MAX_REASONS];
		unsigned nr = sim_record_n_reasons(e->rd);
		for (unsigned i = 0; i < nr && i < SIM_RECORD_MAX_REASONS; i++)
			names[i] = sim_record_reason(e->rd, i);
		if (profile_exact_reasons(&e->x, names, nr < SIM_RECORD_MAX_REASONS ? nr : SIM_RECORD_MAX_REASONS))
			return nomem(err);
		e->have_reasons = true;
	}
	for (; e->nodes_seen < n; e->nodes_seen++) {
		const struct sim_record_node *nd = sim_record_node(e->rd, (uint32_t)e->nodes_seen);
		if (nd && profile_exact_node(&e->x, nd->id, nd->parent, nd->entry,
		                             nd->kind == SIM_RECORD_KIND_EXC ? (int)nd->exc : 0))
			return nomem(err);
	}
	return 0;
}

/* Every complete record into the profile's "since the last halt". */
static int drain(struct run_exact *e, struct bench_error *err)
{
	struct sim_record rec;
	int rc;

	while ((rc = sim_record_next(e->rd, &rec, err)) == 1) {
		e->records++;
		if ((rc = take_tables(e, err)))
			return rc;
		for (size_t i = 0; i < rec.n_pcs; i++)
			if (profile_exact_cell(&e->x, rec.pcs[i].node, rec.pcs[i].addr, rec.pcs[i].execs,
			                       rec.pcs[i].cycles))
				return nomem(err);
		for (size_t i = 0; i < rec.n_enters; i++)
			if (profile_exact_enter(&e->x, rec.enters[i].node, rec.enters[i].count))
				return nomem(err);
	}
	return rc;
}

int run_exact_halt(void *ctx, const struct marker *m, const char *span, bool warm, const struct bench_arg *args,
                   size_t n_args, struct bench_error *err)
{
	struct run_exact *e = ctx;
	int rc = drain(e, err);

	if (rc)
		return rc;
	if (m)
		rc = profile_exact_halt(&e->x, m, warm, args, n_args);
	else if (span)
		rc = profile_exact_span(&e->x, span, warm);
	else
		profile_exact_drop(&e->x);
	return rc ? nomem(err) : 0;
}
