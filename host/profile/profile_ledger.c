/* The cycle ledger's intervals summed per (node, instruction) (profile_ledger.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_ledger.h"

void profile_ledger_init(struct profile_ledger *l, size_t n_reasons)
{
	memset(l, 0, sizeof(*l));
	l->n_reasons = n_reasons;
}

void profile_ledger_free(struct profile_ledger *l)
{
	free(l->cells);
	free(l->cycles);
	free(l->slots);
	free(l->enters);
	profile_ledger_init(l, l->n_reasons);
}

void profile_ledger_clear(struct profile_ledger *l)
{
	l->n = 0;
	l->total = 0;
	if (l->slots)
		memset(l->slots, 0, l->n_slots * sizeof(*l->slots));
	if (l->enters)
		memset(l->enters, 0, l->n_enters * sizeof(*l->enters));
}

uint64_t profile_ledger_cycles(const struct profile_ledger *l, size_t i, size_t r)
{
	return l->cycles[i * l->n_reasons + r];
}

static size_t hash(uint32_t node, uint32_t addr, size_t n_slots)
{
	uint64_t k = ((uint64_t)node << 32 | addr) * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
	return (size_t)(k >> 20) & (n_slots - 1);
}

static int rehash(struct profile_ledger *l, size_t n_slots)
{
	size_t *slots = calloc(n_slots, sizeof(*slots));

	if (!slots)
		return -1;
	free(l->slots);
	l->slots = slots;
	l->n_slots = n_slots;
	for (size_t i = 0; i < l->n; i++) {
		size_t h = hash(l->cells[i].node, l->cells[i].addr, n_slots);
		while (slots[h])
			h = (h + 1) & (n_slots - 1);
		slots[h] = i + 1;
	}
	return 0;
}

/* The cell of (node, addr), added when new; -1 when out of memory. */
static long cell_of(struct profile_ledger *l, uint32_t node, uint32_t addr)
{
	size_t h;

	if (2 * (l->n + 1) > l->n_slots && rehash(l, l->n_slots ? 2 * l->n_slots : 256))
		return -1;
	for (h = hash(node, addr, l->n_slots); l->slots[h]; h = (h + 1) & (l->n_slots - 1)) {
		const struct profile_cell *c = &l->cells[l->slots[h] - 1];
		if (c->node == node && c->addr == addr)
			return (long)(l->slots[h] - 1);
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 128;
		struct profile_cell *cells = realloc(l->cells, cap * sizeof(*cells));
		uint64_t *cyc;
		if (!cells)
			return -1;
		l->cells = cells;
		cyc = realloc(l->cycles, cap * (l->n_reasons ? l->n_reasons : 1) * sizeof(*cyc));
		if (!cyc)
			return -1;
		l->cycles = cyc;
		l->cap = cap;
	}
	l->cells[l->n] = (struct profile_cell){.node = node, .addr = addr};
	memset(&l->cycles[l->n * l->n_reasons], 0, l->n_reasons * sizeof(*l->cycles));
	l->slots[h] = ++l->n;
	return (long)(l->n - 1);
}

int profile_ledger_add(struct profile_ledger *l, uint32_t node, uint32_t addr, uint64_t execs, const uint64_t *cycles)
{
	long i = cell_of(l, node, addr);

	if (i < 0)
		return -1;
	l->cells[i].execs += execs;
	for (size_t r = 0; r < l->n_reasons; r++) {
		l->cycles[(size_t)i * l->n_reasons + r] += cycles[r];
		l->total += cycles[r];
	}
	return 0;
}

int profile_ledger_enter(struct profile_ledger *l, uint32_t node, uint64_t count)
{
	if (node >= l->n_enters) {
		size_t n = node + 1 > 2 * l->n_enters ? node + 1 : 2 * l->n_enters;
		uint64_t *e = realloc(l->enters, n * sizeof(*e));
		if (!e)
			return -1;
		memset(e + l->n_enters, 0, (n - l->n_enters) * sizeof(*e));
		l->enters = e;
		l->n_enters = n;
	}
	l->enters[node] += count;
	return 0;
}

int profile_ledger_merge(struct profile_ledger *dst, const struct profile_ledger *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (profile_ledger_add(dst, src->cells[i].node, src->cells[i].addr, src->cells[i].execs,
		                       &src->cycles[i * src->n_reasons]))
			return -1;
	for (size_t k = 0; k < src->n_enters; k++)
		if (src->enters[k] && profile_ledger_enter(dst, (uint32_t)k, src->enters[k]))
			return -1;
	return 0;
}

/* The index of (node, addr) in l, or -1. */
static long find(const struct profile_ledger *l, uint32_t node, uint32_t addr)
{
	if (!l->n_slots)
		return -1;
	for (size_t h = hash(node, addr, l->n_slots); l->slots[h]; h = (h + 1) & (l->n_slots - 1)) {
		const struct profile_cell *c = &l->cells[l->slots[h] - 1];
		if (c->node == node && c->addr == addr)
			return (long)(l->slots[h] - 1);
	}
	return -1;
}

bool profile_ledger_equal(const struct profile_ledger *a, const struct profile_ledger *b)
{
	size_t ne = a->n_enters > b->n_enters ? a->n_enters : b->n_enters;

	if (a->n != b->n || a->total != b->total || a->n_reasons != b->n_reasons)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		long k = find(b, a->cells[i].node, a->cells[i].addr);
		if (k < 0 || b->cells[k].execs != a->cells[i].execs ||
		    memcmp(&a->cycles[i * a->n_reasons], &b->cycles[(size_t)k * b->n_reasons],
		           a->n_reasons * sizeof(*a->cycles)))
			return false;
	}
	for (size_t k = 0; k < ne; k++)
		if ((k < a->n_enters ? a->enters[k] : 0) != (k < b->n_enters ? b->enters[k] : 0))
			return false;
	return true;
}

/* Takes up to *want cycles of reason r (any reason when r is n_reasons) off the cells at addr (every
 * address when all). */
static void take_from(struct profile_ledger *l, size_t r, uint64_t *want, bool all, uint32_t addr)
{
	for (size_t i = 0; i < l->n && *want; i++) {
		if (!all && l->cells[i].addr != addr)
			continue;
		for (size_t k = 0; k < l->n_reasons && *want; k++) {
			uint64_t *c = &l->cycles[i * l->n_reasons + k];
			uint64_t t = *c < *want ? *c : *want;
			if (r != l->n_reasons && k != r)
				continue;
			*c -= t;
			*want -= t;
			l->total -= t;
		}
	}
}

static int cmp_cell(const void *a, const void *b)
{
	const struct profile_cell *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Cells in address order, so "any instruction" is the same one every run; the index rebuilt. */
static int sort_cells(struct profile_ledger *l)
{
	struct profile_cell *cells = malloc((l->n ? l->n : 1) * sizeof(*cells));
	uint64_t *cyc = malloc((l->n ? l->n : 1) * (l->n_reasons ? l->n_reasons : 1) * sizeof(*cyc));

	if (!cells || !cyc) {
		free(cells);
		free(cyc);
		return -1;
	}
	memcpy(cells, l->cells, l->n * sizeof(*cells));
	qsort(cells, l->n, sizeof(*cells), cmp_cell);
	for (size_t i = 0; i < l->n; i++) {
		long from = cell_of(l, cells[i].node, cells[i].addr); /* present: no allocation */
		memcpy(&cyc[i * l->n_reasons], &l->cycles[(size_t)from * l->n_reasons], l->n_reasons * sizeof(*cyc));
		cells[i].execs = l->cells[from].execs;
	}
	memcpy(l->cells, cells, l->n * sizeof(*cells));
	memcpy(l->cycles, cyc, l->n * l->n_reasons * sizeof(*cyc));
	free(cells);
	free(cyc);
	return rehash(l, l->n_slots);
}

int profile_ledger_take(struct profile_ledger *l, const struct profile_ledger *cal, uint32_t end_addr,
                        uint32_t first_addr)
{
	uint64_t left[PROFILE_REASONS_MAX] = {0}, rest = 0;
	size_t keep = 0;

	if (cal->total > l->total)
		return 2;
	if (l->n_reasons > PROFILE_REASONS_MAX || cal->n_reasons != l->n_reasons || sort_cells(l))
		return -1;
	for (size_t i = 0; i < cal->n; i++)
		for (size_t r = 0; r < l->n_reasons; r++)
			left[r] += profile_ledger_cycles(cal, i, r);
	for (size_t r = 0; r < l->n_reasons; r++) {
		take_from(l, r, &left[r], false, end_addr);
		take_from(l, r, &left[r], false, first_addr);
		take_from(l, r, &left[r], true, 0);
		rest += left[r];
	}
	if (rest) { /* the calibration charged a reason the stretch did not: off the same places, any reason */
		take_from(l, l->n_reasons, &rest, false, end_addr);
		take_from(l, l->n_reasons, &rest, false, first_addr);
		take_from(l, l->n_reasons, &rest, true, 0);
	}
	for (size_t i = 0; i < l->n; i++) { /* the END marker, its cycles gone, is no instruction of the code */
		bool zero = true;
		for (size_t r = 0; r < l->n_reasons; r++)
			zero = zero && !l->cycles[i * l->n_reasons + r];
		if (l->cells[i].addr == end_addr && zero)
			continue;
		l->cells[keep] = l->cells[i];
		memmove(&l->cycles[keep * l->n_reasons], &l->cycles[i * l->n_reasons],
		        l->n_reasons * sizeof(*l->cycles));
		keep++;
	}
	l->n = keep;
	if (rehash(l, l->n_slots))
		return -1;
	for (size_t r = 0; r < l->n_reasons; r++)
		if (left[r])
			return 1;
	return 0;
}
