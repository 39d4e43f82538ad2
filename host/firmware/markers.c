/* Decoding the `.bench_markers` section (docs/markers.md, "`.bench_markers` records"): little-endian
 * records, each 12 bytes of header and a NUL-terminated name padded to a multiple of 4. */
#include "firmware/markers.h"
#include "base/le.h"

#include <stdlib.h>
#include <string.h>

static int cmp_addr(const void *a, const void *b)
{
	const struct marker *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

const char *markers_kind_name(unsigned kind)
{
	static const char *const names[] = {
	    [MARKER_BEGIN] = "BEGIN",         [MARKER_END] = "END",
	    [MARKER_SYNC] = "SYNC",           [MARKER_DONE] = "DONE",
	    [MARKER_CAL_BEGIN] = "CAL_BEGIN", [MARKER_CAL_END] = "CAL_END",
	};
	if (kind >= sizeof(names) / sizeof(names[0]) || !names[kind])
		return "?";
	return names[kind];
}

static int bad(struct bench_error *err, size_t off, const char *what)
{
	return bench_fail(err, BENCH_E_NO_MARKERS,
	                  "marker section " MARKERS_SECTION " is broken at byte %zu (%s): rebuild the firmware "
	                  "with the bench.h of this bench version",
	                  off, what);
}

/* One record at data[off]; *next is the offset of the one after. */
static int decode_one(const uint8_t *data, size_t len, size_t off, struct marker *m, size_t *next,
                      struct bench_error *err)
{
	const uint8_t *p = data + off;
	size_t name_len, padded;

	if (len - off < MARKERS_HEADER_SIZE)
		return bad(err, off, "truncated record header");
	if (p[5] != MARKERS_RECORD_VERSION)
		return bad(err, off, "record version is not 1");
	if (p[4] < MARKER_BEGIN || p[4] > MARKER_CAL_END)
		return bad(err, off, "unknown marker kind");
	name_len = p[8];
	padded = (name_len + 1 + 3) & ~(size_t)3;
	if (len - off - MARKERS_HEADER_SIZE < padded)
		return bad(err, off, "name runs past the section end");
	if (name_len >= sizeof(m->name))
		return bad(err, off, "name longer than 63 bytes");
	if (p[MARKERS_HEADER_SIZE + name_len] != 0 || memchr(p + MARKERS_HEADER_SIZE, 0, name_len))
		return bad(err, off, "name length does not match its NUL");
	m->addr = le_get32(p) & ~1u;
	m->kind = (enum marker_kind)p[4];
	m->id = (uint16_t)(p[6] | p[7] << 8);
	memcpy(m->name, p + MARKERS_HEADER_SIZE, name_len);
	m->name[name_len] = '\0';
	*next = off + MARKERS_HEADER_SIZE + padded;
	return 0;
}

static bool is_pair_kind(enum marker_kind k)
{
	return k == MARKER_BEGIN || k == MARKER_END;
}

/* A BEGIN or END record's name and index, sorted by name, then by index (the set is sorted by
 * address): one name's records are then adjacent, its first record first. */
struct name_index {
	const char *name;
	size_t i;
};

static int cmp_name_index(const void *a, const void *b)
{
	const struct name_index *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* One name's records (a group): its first record's index, the id they share, whether the name has
 * a BEGIN and an END, and whether it keeps its id (the first name of that id by address). */
struct pair_group {
	size_t first;
	uint16_t id;
	bool has_begin, has_end, keeps;
};

static int cmp_group_id(const void *a, const void *b)
{
	const struct pair_group *x = a, *y = b;
	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->first > y->first) - (x->first < y->first);
}

/* a has no other half; the message names a record of the other kind with a's id, if one has it
 * (ids as they stand: a group's, fresh for the names moved so far). */
static int pair_fail(const struct marker_set *m, const struct pair_group *g, const size_t *grp, size_t ai,
                     struct bench_error *err)
{
	const struct marker *a = &m->v[ai];
	enum marker_kind other = a->kind == MARKER_BEGIN ? MARKER_END : MARKER_BEGIN;
	const struct marker *same_id = NULL;
	uint16_t id = g[grp[ai]].id;

	for (size_t k = 0; k < m->n && !same_id; k++)
		if (m->v[k].kind == other && g[grp[k]].id == id)
			same_id = &m->v[k];
	if (same_id)
		return bench_fail(err, BENCH_E_NO_MARKERS,
		                  "markers %s %s and %s %s share id %u but not their name: give BENCH_BEGIN "
		                  "and BENCH_END of one stretch the same name",
		                  markers_kind_name(a->kind), a->name, markers_kind_name(other), same_id->name, id);
	return bench_fail(err, BENCH_E_NO_MARKERS,
	                  "marker %s %s has no %s %s: close every BENCH_BEGIN(%s) with BENCH_END(%s)",
	                  markers_kind_name(a->kind), a->name, markers_kind_name(other), a->name, a->name, a->name);
}

/* BEGIN and END records pair by name, the result's name. Every name must have both (a BEGIN
 * whose END is named differently would leave a stretch open for the whole run). bench.h numbers
 * pairs per translation unit with __COUNTER__, so two files both give their first pair id 1: the
 * host then gives each other name a fresh id, so every id names one pair (the marker loop matches
 * END to BEGIN by id). By sorting, not by comparing every record with every other: a section of
 * 200000 records took minutes that way (issue 26); now O(n log n). */
static int pair_markers(struct marker_set *m, struct bench_error *err)
{
	struct name_index *idx = malloc((m->n ? m->n : 1) * sizeof(*idx));
	size_t *grp = malloc((m->n ? m->n : 1) * sizeof(*grp));
	struct pair_group *g = malloc((m->n ? m->n : 1) * sizeof(*g)), *by_id = NULL;
	size_t n = 0, ng = 0;
	uint32_t next_id = 1;
	int rc = 0;

	if (!idx || !grp || !g) {
		rc = bench_fail(err, BENCH_E_NOMEM, "out of memory pairing markers: free memory");
		goto out;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (m->v[i].id >= next_id)
			next_id = m->v[i].id + 1u;
		if (is_pair_kind(m->v[i].kind))
			idx[n++] = (struct name_index){m->v[i].name, i};
	}
	qsort(idx, n, sizeof(*idx), cmp_name_index);
	/* One name, one id: the same name in two files may carry two ids; the first record's wins. */
	for (size_t i = 0; i < n; i++) {
		struct marker *r = &m->v[idx[i].i];
		if (i == 0 || strcmp(idx[i - 1].name, r->name))
			g[ng++] = (struct pair_group){.first = idx[i].i, .id = r->id};
		g[ng - 1].has_begin |= r->kind == MARKER_BEGIN;
		g[ng - 1].has_end |= r->kind == MARKER_END;
		grp[idx[i].i] = ng - 1;
	}
	/* Of the names sharing an id, the one whose first record comes first keeps it. */
	by_id = malloc((ng ? ng : 1) * sizeof(*by_id));
	if (!by_id) {
		rc = bench_fail(err, BENCH_E_NOMEM, "out of memory pairing markers: free memory");
		goto out;
	}
	memcpy(by_id, g, ng * sizeof(*g));
	qsort(by_id, ng, sizeof(*by_id), cmp_group_id);
	for (size_t i = 0; i < ng; i++)
		if (i == 0 || by_id[i - 1].id != by_id[i].id)
			g[grp[by_id[i].first]].keeps = true;
	/* In address order, as the messages name the first record at fault: a name without its other
	 * half fails; another name with a kept id moves to a fresh one at its first record. */
	for (size_t i = 0; i < m->n && !rc; i++) {
		struct pair_group *r;
		if (!is_pair_kind(m->v[i].kind))
			continue;
		r = &g[grp[i]];
		if (!r->has_begin || !r->has_end)
			rc = pair_fail(m, g, grp, i, err);
		else if (r->first == i && !r->keeps) {
			if (next_id > 0xFFFFu)
				rc = bench_fail(err, BENCH_E_NO_MARKERS, "more than 65535 marker pairs: measure fewer");
			else
				r->id = (uint16_t)next_id++;
		}
	}
	/* Every record takes its name's id (moved or kept), as the loop matches END to BEGIN by id. */
	for (size_t i = 0; i < m->n && !rc; i++)
		if (is_pair_kind(m->v[i].kind))
			m->v[i].id = g[grp[i]].id;
out:
	free(idx);
	free(grp);
	free(g);
	free(by_id);
	return rc;
}

int markers_decode(const uint8_t *data, size_t len, struct marker_set *out, struct bench_error *err)
{
	size_t off = 0, cap = 0;
	int rc = 0;

	out->v = NULL;
	out->n = 0;
	/* Linkers may pad the section's end to its alignment with zeros: a zero word that cannot start
	 * a record (addr 0 and kind 0, or too short for a header) is padding. */
	while (off < len) {
		struct marker m = {0};
		size_t next = len;

		if (len - off >= 4 && le_get32(data + off) == 0 &&
		    (len - off < MARKERS_HEADER_SIZE || data[off + 4] == 0)) {
			off += 4;
			continue;
		}
		rc = decode_one(data, len, off, &m, &next, err);
		if (rc)
			break;
		off = next;
		if (m.addr == 0)
			continue; /* discarded by the linker (--gc-sections) */
		if (out->n == cap) {
			cap = cap ? cap * 2 : 16;
			struct marker *v = realloc(out->v, cap * sizeof(*v));
			if (!v) {
				rc = bench_fail(err, BENCH_E_NOMEM, "out of memory decoding markers: free memory");
				break;
			}
			out->v = v;
		}
		out->v[out->n++] = m;
	}
	if (rc) {
		markers_free(out);
		return rc;
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_addr);
	if ((rc = pair_markers(out, err)))
		markers_free(out);
	return rc;
}

void markers_free(struct marker_set *m)
{
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

const struct marker *markers_at(const struct marker_set *m, uint32_t addr)
{
	size_t lo = 0, hi = m->n;

	addr &= ~1u;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && m->v[lo].addr == addr ? &m->v[lo] : NULL;
}

const struct marker *markers_first(const struct marker_set *m, enum marker_kind kind)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].kind == kind)
			return &m->v[i];
	return NULL;
}

size_t markers_count(const struct marker_set *m, enum marker_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		n += m->v[i].kind == kind;
	return n;
}
