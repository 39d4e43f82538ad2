/* The ledger's records routed to marker pairs and results (profile_exact.h). A record covers the
 * interval from the resume before a halt to the halt, so the stretch of a pair, from the resume at
 * its BEGIN to its END halt, is the sum of the records of every halt up to and including END's
 * (a nested pair's markers halt in between); it counts for the inner pair and the outer one alike,
 * as the counter does. */
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "profile/profile_exact.h"

void profile_exact_init(struct profile_exact *x)
{
	memset(x, 0, sizeof(*x));
}

void profile_exact_free(struct profile_exact *x)
{
	free(x->reasons);
	free(x->nodes);
	profile_ledger_free(&x->since);
	profile_ledger_free(&x->cal);
	for (size_t i = 0; i < PROFILE_EXACT_PAIRS; i++)
		profile_ledger_free(&x->pairs[i].l);
	for (size_t i = 0; i < x->n_results; i++) {
		profile_ledger_free(&x->results[i].l);
		profile_ledger_free(&x->results[i].first);
	}
	free(x->results);
	profile_exact_init(x);
}

int profile_exact_reasons(struct profile_exact *x, const char *const *names, size_t n)
{
	char(*r)[32];

	if (n > PROFILE_REASONS_MAX || !(r = calloc(n ? n : 1, sizeof(*r))))
		return -1;
	for (size_t i = 0; i < n; i++)
		str_fmt_cut(r[i], sizeof(r[i]), "%s", names[i]);
	free(x->reasons);
	x->reasons = r;
	x->n_reasons = n;
	profile_ledger_init(&x->since, n);
	profile_ledger_init(&x->cal, n);
	for (size_t i = 0; i < PROFILE_EXACT_PAIRS; i++)
		profile_ledger_init(&x->pairs[i].l, n);
	return 0;
}

int profile_exact_node(struct profile_exact *x, uint32_t id, int64_t parent, uint32_t entry, int exc)
{
	if (id >= x->n_nodes) {
		size_t n = id + 1;
		struct profile_node *v = realloc(x->nodes, n * sizeof(*v));
		if (!v)
			return -1;
		memset(v + x->n_nodes, 0, (n - x->n_nodes) * sizeof(*v));
		x->nodes = v;
		x->n_nodes = n;
	}
	x->nodes[id] = (struct profile_node){.parent = parent, .entry = entry & ~1u, .exc = exc};
	/* The parent comes first (docs/sim-record.md); one that does not is taken as a root. */
	if (parent >= 0 && (uint64_t)parent < id)
		x->nodes[id].depth = x->nodes[parent].depth + 1;
	else
		x->nodes[id].parent = -1;
	return 0;
}

int profile_exact_cell(struct profile_exact *x, uint32_t node, uint32_t addr, uint64_t execs, const uint64_t *cycles)
{
	return profile_ledger_add(&x->since, node, addr & ~1u, execs, cycles);
}

int profile_exact_enter(struct profile_exact *x, uint32_t node, uint64_t count)
{
	return profile_ledger_enter(&x->since, node, count);
}

static bool same_args(const struct profile_exact_result *r, const struct bench_arg *args, size_t n_args)
{
	if (r->n_args != n_args)
		return false;
	for (size_t i = 0; i < n_args; i++)
		if (r->args[i].value != args[i].value || strcmp(r->args[i].name, args[i].name))
			return false;
	return true;
}

static struct profile_exact_result *result_of(struct profile_exact *x, const char *name, const struct bench_arg *args,
                                              size_t n_args)
{
	struct profile_exact_result *grown;

	for (size_t i = 0; i < x->n_results; i++)
		if (!strcmp(x->results[i].name, name) && same_args(&x->results[i], args, n_args))
			return &x->results[i];
	grown = realloc(x->results, (x->n_results + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	x->results = grown;
	grown = &x->results[x->n_results++];
	memset(grown, 0, sizeof(*grown));
	str_fmt_cut(grown->name, sizeof(grown->name), "%s", name);
	n_args = n_args < BENCH_MAX_ARGS ? n_args : BENCH_MAX_ARGS;
	if (args && n_args)
		memcpy(grown->args, args, n_args * sizeof(*args));
	grown->n_args = args ? n_args : 0;
	profile_ledger_init(&grown->l, x->n_reasons);
	profile_ledger_init(&grown->first, x->n_reasons);
	return grown;
}

static int to_open_pairs(struct profile_exact *x)
{
	for (size_t i = 0; i < PROFILE_EXACT_PAIRS; i++)
		if (x->pairs[i].open && profile_ledger_merge(&x->pairs[i].l, &x->since))
			return -1;
	return 0;
}

static struct profile_exact_pair *pair_of(struct profile_exact *x, uint16_t id, bool create)
{
	struct profile_exact_pair *free_pair = NULL;

	for (size_t i = 0; i < PROFILE_EXACT_PAIRS; i++) {
		if (x->pairs[i].open && x->pairs[i].id == id)
			return &x->pairs[i];
		if (!x->pairs[i].open && !free_pair)
			free_pair = &x->pairs[i];
	}
	return create ? free_pair : NULL;
}

/* One more stretch of res: summed, and kept apart when it is the first (most stretches on the
 * virtual board run alike: then the profile is of one, comparable with the result's cycles). */
static int add_stretch(struct profile_exact_result *res, const struct profile_ledger *l)
{
	if (!res->stretches++ && profile_ledger_merge(&res->first, l))
		return -1;
	if (res->stretches > 1 && !res->differ)
		res->differ = !profile_ledger_equal(&res->first, l);
	return profile_ledger_merge(&res->l, l);
}

/* The stretch of pair p ends at END marker m: the calibration off, into its result. */
static int close_pair(struct profile_exact *x, struct profile_exact_pair *p, const struct marker *m, bool warm,
                      const struct bench_arg *args, size_t n_args)
{
	struct profile_exact_result *res;
	int took = 0;

	p->open = false;
	if (warm)
		return 0;
	if (!(res = result_of(x, m->name, args, n_args)))
		return -1;
	/* BKPT is 16 bits (Armv7-M ARM A7.7.17): the stretch's first instruction follows BEGIN's. */
	if (x->have_cal && (took = profile_ledger_take(&p->l, &x->cal, m->addr, p->begin_addr + 2u)) < 0)
		return -1;
	if (took == 1 && !res->note[0])
		str_fmt_cut(res->note, sizeof(res->note),
		            "the calibration charged a reason this stretch did not: some of its cycles came off "
		            "other reasons (the total is exact, the reasons of the END marker are not)");
	if (took == 2 && !res->note[0])
		str_fmt_cut(res->note, sizeof(res->note),
		            "a stretch took fewer cycles than the calibrated empty pair: the calibration was not "
		            "taken off it, so the profile's total is not the result's");
	if (!x->have_cal && !res->note[0])
		str_fmt_cut(res->note, sizeof(res->note),
		            "no calibration pair was recorded: nothing was taken off the stretches");
	return add_stretch(res, &p->l);
}

int profile_exact_halt(struct profile_exact *x, const struct marker *m, bool warm, const struct bench_arg *args,
                       size_t n_args)
{
	struct profile_exact_pair *p;
	int rc = 0;

	if (to_open_pairs(x))
		return -1;
	if (m && m->kind == MARKER_CAL_END && !x->have_cal) {
		/* The first calibration is the one the loop subtracts (loop.c on_cal_end). */
		profile_ledger_clear(&x->cal);
		rc = profile_ledger_merge(&x->cal, &x->since);
		x->have_cal = !rc;
	} else if (m && m->kind == MARKER_BEGIN && (p = pair_of(x, m->id, true))) {
		p->open = true;
		p->id = m->id;
		p->begin_addr = m->addr;
		profile_ledger_clear(&p->l);
	} else if (m && m->kind == MARKER_END && (p = pair_of(x, m->id, false))) {
		rc = close_pair(x, p, m, warm, args, n_args);
	} else if (m && m->kind == MARKER_CAL_BEGIN) {
		/* A restart: bench_init() calibrates once per boot; a pair still open has no END. */
		for (size_t i = 0; i < PROFILE_EXACT_PAIRS; i++)
			x->pairs[i].open = false;
	}
	profile_ledger_clear(&x->since);
	return rc;
}

int profile_exact_span(struct profile_exact *x, const char *name, bool warm)
{
	struct profile_exact_result *res;
	int rc = 0;

	if (!warm) {
		res = result_of(x, name, NULL, 0);
		rc = !res || add_stretch(res, &x->since) ? -1 : 0;
	}
	profile_ledger_clear(&x->since);
	return rc;
}

void profile_exact_drop(struct profile_exact *x)
{
	profile_ledger_clear(&x->since);
}

int profile_exact_to_report(const struct profile_exact *x, const char *elf_path, const struct elf_file *elf,
                            struct bench_report *rep, struct bench_error *err)
{
	struct profile_lines *lines;
	struct bench_profile *grown;
	int rc = 0;

	if (!x->n_results)
		return 0;
	grown = realloc(rep->profiles, (rep->n_profiles + x->n_results) * sizeof(*grown));
	if (!grown)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory counting the profile");
	rep->profiles = grown;
	lines = profile_lines_open(elf_path);
	for (size_t i = 0; i < x->n_results && !rc; i++) {
		if (profile_exact_aggregate(x, &x->results[i], elf, lines, &rep->profiles[rep->n_profiles])) {
			rc = bench_fail(err, BENCH_E_NOMEM, "out of memory counting the profile");
		} else {
			/* Without the ELF's bytes the listing has addresses only: still a profile. */
			(void)profile_disasm(&rep->profiles[rep->n_profiles], elf_path);
			rep->n_profiles++;
		}
	}
	profile_lines_close(lines);
	return rc;
}
