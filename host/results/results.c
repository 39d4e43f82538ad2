/* The in-memory report: results keyed by (marker pair name, input values), samples appended in the
 * order they were measured. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "results/results.h"

void results_init(struct bench_report *r)
{
	memset(r, 0, sizeof(*r));
	r->schema_version = BENCH_SCHEMA_VERSION;
	r->status = BENCH_STATUS_OK;
	strcpy(r->status_detail, "ok");
	strcpy(r->context.counter, "DWT_CYCCNT");
}

void results_free(struct bench_report *r)
{
	for (size_t i = 0; i < r->n_results; i++) {
		free(r->results[i].samples);
		free(r->results[i].sample_flags);
		results_stack_free(&r->results[i]);
	}
	free(r->results);
	free(r->regions);
	for (size_t i = 0; i < r->n_profiles; i++)
		results_profile_free(&r->profiles[i]);
	free(r->profiles);
	r->profiles = NULL;
	r->n_profiles = 0;
	free(r->uart);
	r->uart = NULL;
	r->n_uart = r->uart_dropped = 0;
	free(r->index);
	r->index = NULL;
	r->index_cap = 0;
	r->results = NULL;
	r->regions = NULL;
	r->n_results = r->cap_results = 0;
	r->n_regions = r->cap_regions = 0;
}

void results_profile_main_reasons(const struct bench_profile *p, const uint64_t *by, char *out, size_t len)
{
	size_t picked[3];
	size_t n_picked = 0;

	out[0] = '\0';
	while (by && n_picked < 3) {
		size_t best = SIZE_MAX;
		for (size_t r = 0; r < p->n_reasons; r++) {
			bool taken = false;
			for (size_t k = 0; k < n_picked; k++)
				taken = taken || picked[k] == r;
			if (!taken && by[r] && (best == SIZE_MAX || by[r] > by[best]))
				best = r;
		}
		if (best == SIZE_MAX)
			break;
		picked[n_picked++] = best;
		(void)str_append(out, len, "%s%s %" PRIu64, out[0] ? ", " : "", p->reasons[best], by[best]);
	}
}

void results_profile_free(struct bench_profile *p)
{
	for (size_t i = 0; p->functions && i < p->n_functions; i++)
		free(p->functions[i].by_reason);
	for (size_t i = 0; p->insns && i < p->n_insns; i++)
		free(p->insns[i].by_reason);
	for (size_t i = 0; p->stacks && i < p->n_stacks; i++)
		free(p->stacks[i].frames);
	for (size_t i = 0; p->calls && i < p->n_calls; i++)
		free(p->calls[i].incl_by_reason);
	free(p->functions);
	free(p->lines);
	free(p->reasons);
	free(p->insns);
	free(p->stacks);
	free(p->calls);
	p->functions = NULL;
	p->lines = NULL;
	p->reasons = NULL;
	p->insns = NULL;
	p->stacks = NULL;
	p->calls = NULL;
	p->n_functions = p->n_lines = p->n_reasons = p->n_insns = p->n_stacks = p->n_calls = 0;
}

static bool same_args(const struct bench_result *res, const struct bench_arg *args, size_t n_args)
{
	if (res->n_args != n_args)
		return false;
	for (size_t i = 0; i < n_args; i++)
		if (res->args[i].value != args[i].value || strcmp(res->args[i].name, args[i].name))
			return false;
	return true;
}

static void copy_name(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* FNV-1a (Fowler, Noll, Vo) over the name and every argument, as results_get compares them. */
static size_t key_hash(const char *name, const struct bench_arg *args, size_t n_args)
{
	uint64_t h = 14695981039346656037ull;
	const size_t name_max = BENCH_NAME_MAX - 1;

	for (size_t i = 0; i < name_max && name[i]; i++)
		h = (h ^ (uint8_t)name[i]) * 1099511628211ull;
	for (size_t a = 0; a < n_args; a++) {
		h = (h ^ 0xff) * 1099511628211ull;
		for (size_t i = 0; i < name_max && args[a].name[i]; i++)
			h = (h ^ (uint8_t)args[a].name[i]) * 1099511628211ull;
		for (int b = 0; b < 8; b++)
			h = (h ^ (uint8_t)((uint64_t)args[a].value >> (8 * b))) * 1099511628211ull;
	}
	return (size_t)h;
}

static bool matches(const struct bench_result *res, const char *name, const struct bench_arg *args, size_t n_args)
{
	return !strncmp(res->name, name, sizeof(res->name) - 1) && same_args(res, args, n_args);
}

/* Rebuilds the index at twice the results' capacity (load factor at most 1/2). */
static int index_grow(struct bench_report *r)
{
	size_t cap = 64;
	size_t *ix;

	while (cap < 2 * (r->n_results + 1))
		cap *= 2;
	ix = calloc(cap, sizeof(*ix));
	if (!ix)
		return -1;
	for (size_t i = 0; i < r->n_results; i++) {
		const struct bench_result *res = &r->results[i];
		size_t h = key_hash(res->name, res->args, res->n_args) & (cap - 1);
		while (ix[h])
			h = (h + 1) & (cap - 1);
		ix[h] = i + 1;
	}
	free(r->index);
	r->index = ix;
	r->index_cap = cap;
	return 0;
}

const struct bench_result *results_find(const struct bench_report *r, const char *name, const struct bench_arg *args,
                                        size_t n_args)
{
	if (!r->index_cap || n_args > BENCH_MAX_ARGS)
		return NULL;
	for (size_t h = key_hash(name, args, n_args) & (r->index_cap - 1); r->index[h];
	     h = (h + 1) & (r->index_cap - 1))
		if (matches(&r->results[r->index[h] - 1], name, args, n_args))
			return &r->results[r->index[h] - 1];
	return NULL;
}

struct bench_result *results_get(struct bench_report *r, const char *name, const struct bench_arg *args, size_t n_args)
{
	struct bench_result *res;
	size_t h;

	if (n_args > BENCH_MAX_ARGS)
		return NULL;
	if (r->index_cap < 2 * (r->n_results + 1) && index_grow(r))
		return NULL;
	h = key_hash(name, args, n_args) & (r->index_cap - 1);
	for (; r->index[h]; h = (h + 1) & (r->index_cap - 1))
		if (matches(&r->results[r->index[h] - 1], name, args, n_args))
			return &r->results[r->index[h] - 1];
	if (r->n_results == r->cap_results) {
		size_t cap = r->cap_results ? r->cap_results * 2 : 16;
		struct bench_result *v = realloc(r->results, cap * sizeof(*v));
		if (!v)
			return NULL;
		r->results = v;
		r->cap_results = cap;
	}
	res = &r->results[r->n_results++];
	memset(res, 0, sizeof(*res));
	copy_name(res->name, sizeof(res->name), name);
	for (size_t i = 0; i < n_args; i++) {
		copy_name(res->args[i].name, sizeof(res->args[i].name), args[i].name);
		res->args[i].value = args[i].value;
	}
	res->n_args = n_args;
	strcpy(res->unit, "cycles");
	r->index[h] = r->n_results;
	return res;
}

int results_add_sample(struct bench_result *res, int64_t cycles, uint8_t flags)
{
	if (res->n_samples == res->cap_samples) {
		size_t cap = res->cap_samples ? res->cap_samples * 2 : 16;
		int64_t *s = realloc(res->samples, cap * sizeof(*s));
		if (!s)
			return -1;
		res->samples = s;
		uint8_t *f = realloc(res->sample_flags, cap * sizeof(*f));
		if (!f)
			return -1;
		res->sample_flags = f;
		res->cap_samples = cap;
	}
	res->samples[res->n_samples] = cycles;
	res->sample_flags[res->n_samples] = flags;
	res->n_samples++;
	return 0;
}

struct bench_region_result *results_add_region(struct bench_report *r)
{
	if (r->n_regions == r->cap_regions) {
		size_t cap = r->cap_regions ? r->cap_regions * 2 : 8;
		struct bench_region_result *v = realloc(r->regions, cap * sizeof(*v));
		if (!v)
			return NULL;
		r->regions = v;
		r->cap_regions = cap;
	}
	struct bench_region_result *g = &r->regions[r->n_regions++];
	memset(g, 0, sizeof(*g));
	return g;
}

size_t results_interrupted(const struct bench_result *res)
{
	size_t n = 0;
	for (size_t i = 0; res->sample_flags && i < res->n_samples; i++)
		n += (res->sample_flags[i] & BENCH_SAMPLE_INTERRUPTED) != 0;
	return n;
}

/* A result without one sample that counts has no figure: every reader (a --max-cycles gate, JUnit,
 * CSV, compare) must see why rather than an empty row that passes (issue 26, class 2). An error the
 * run already gave (no cycle counter) is kept. The reason counts the flag that left the samples out
 * (only BENCH_SAMPLE_INTERRUPTED does, results_stats) and says which of them may also have wrapped. */
static void explain_unmeasured(struct bench_result *res, size_t interrupted, bool no_memory)
{
	size_t wrapped = 0;

	if (res->stats.n || res->error[0])
		return;
	for (size_t i = 0; res->sample_flags && i < res->n_samples; i++)
		wrapped += (res->sample_flags[i] & BENCH_SAMPLE_WRAPPED) != 0;
	if (no_memory)
		str_fmt_cut(res->error, sizeof(res->error), "out of memory computing the statistics: nothing counted");
	else if (!res->n_samples)
		str_fmt_cut(res->error, sizeof(res->error), "no sample measured");
	else if (interrupted == res->n_samples)
		str_fmt_cut(res->error, sizeof(res->error),
		            "no sample counts: all %zu took an exception inside the stretch (\"interrupted\")%s and "
		            "are left out; --mask-irqs keeps interrupts out, --keep-interrupted counts them",
		            interrupted, wrapped ? ", may have wrapped the counter too," : "");
	else /* results_stats leaves out interrupted samples only; a figure it did not count is bench's fault */
		str_fmt_cut(res->error, sizeof(res->error),
		            "no sample counts: %zu of %zu took an exception inside the stretch, %zu may have wrapped "
		            "the counter",
		            interrupted, res->n_samples, wrapped);
}

void results_stats(const struct bench_report *r, struct bench_result *res)
{
	size_t bad = r->context.keep_interrupted ? 0 : results_interrupted(res), k = 0;
	int64_t *kept;

	if (!bad) {
		stats_compute(res->samples, res->n_samples, &res->stats);
		explain_unmeasured(res, 0, false);
		return;
	}
	/* A sample that took an exception holds the handler's cycles too: not the code's. */
	kept = malloc((res->n_samples - bad + 1) * sizeof(*kept));
	if (!kept) {
		stats_compute(NULL, 0, &res->stats); /* no statistics rather than wrong ones */
		explain_unmeasured(res, bad, true);
		return;
	}
	for (size_t i = 0; i < res->n_samples; i++)
		if (!(res->sample_flags[i] & BENCH_SAMPLE_INTERRUPTED))
			kept[k++] = res->samples[i];
	stats_compute(kept, k, &res->stats);
	free(kept);
	explain_unmeasured(res, bad, false);
}

void results_finish(struct bench_report *r)
{
	for (size_t i = 0; i < r->n_results; i++)
		results_stats(r, &r->results[i]);
}

size_t results_unmeasured(const struct bench_report *rep, const struct bench_result **first)
{
	size_t n = 0;

	if (first)
		*first = NULL;
	if (!strcmp(rep->context.counter, "none")) /* nothing to count by design (docs/run.md) */
		return 0;
	for (size_t i = 0; i < rep->n_results; i++) {
		if (rep->results[i].stats.n)
			continue;
		if (!n++ && first)
			*first = &rep->results[i];
	}
	return n;
}

int results_fail_unmeasured(struct bench_report *rep, struct bench_error *err)
{
	const struct bench_result *res;
	size_t n = results_unmeasured(rep, &res);
	char label[600];

	if (!n)
		return 0;
	results_label(res, label, sizeof(label));
	if (n == 1)
		bench_fail(err, BENCH_E_TARGET, "%.300s: %.600s", label,
		           res->error[0] ? res->error : "no sample measured");
	else
		bench_fail(err, BENCH_E_TARGET, "%zu results with no sample that counts; the first, %.300s: %.600s", n,
		           label, res->error[0] ? res->error : "no sample measured");
	/* Something was measured, nothing of this result counts: the report says so, as a run cut short does. */
	rep->status = BENCH_STATUS_INCOMPLETE;
	str_fmt_cut(rep->status_detail, sizeof(rep->status_detail), "%s", bench_err_name(err->kind));
	str_fmt_cut(rep->error, sizeof(rep->error), "%s", err->msg);
	return -(int)err->kind;
}

const char *results_status_name(enum bench_status s)
{
	switch (s) {
	case BENCH_STATUS_OK:
		return "ok";
	case BENCH_STATUS_INCOMPLETE:
		return "incomplete";
	case BENCH_STATUS_ERROR:
		return "error";
	}
	return "error";
}

bool results_add_warning(struct bench_report *r, const char *text)
{
	for (size_t i = 0; i < r->n_warnings; i++)
		if (!strncmp(r->warnings[i], text, sizeof(r->warnings[0]) - 1))
			return true;
	if (r->n_warnings >= BENCH_MAX_WARNINGS)
		return false;
	str_fmt_cut(r->warnings[r->n_warnings++], sizeof(r->warnings[0]), "%s", text); /* cut visibly */
	return true;
}

int results_add_uart(struct bench_report *r, const char *line)
{
	if (r->n_uart >= BENCH_MAX_UART_LINES) {
		r->uart_dropped++;
		return 0;
	}
	if (!r->uart) {
		r->uart = calloc(BENCH_MAX_UART_LINES, sizeof(*r->uart));
		if (!r->uart)
			return -1;
	}
	str_fmt_cut(r->uart[r->n_uart++], sizeof(r->uart[0]), "%s", line); /* a long UART line ends in "..." */
	return 0;
}
