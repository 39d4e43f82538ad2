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

static bool has(const struct marker_set *m, enum marker_kind kind, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].kind == kind && !strcmp(m->v[i].name, name))
			return true;
	return false;
}

/* BEGIN and END records pair by name, the result's name. Every name must have both (a BEGIN
 * whose END is named differently would leave a stretch open for the whole run). bench.h numbers
 * pairs per translation unit with __COUNTER__, so two files both give their first pair id 1: the
 * host then gives each other name a fresh id, so every id names one pair (the marker loop matches
 * END to BEGIN by id). Quadratic in the marker count, which is a few dozen. */
static int pair_markers(struct marker_set *m, struct bench_error *err)
{
	uint32_t next_id = 1;

	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].id >= next_id)
			next_id = m->v[i].id + 1u;
	/* One name, one id: the same name in two files may carry two ids; the first record's wins. */
	for (size_t i = 0; i < m->n; i++)
		for (size_t k = 0; k < i; k++)
			if ((m->v[i].kind == MARKER_BEGIN || m->v[i].kind == MARKER_END) &&
			    (m->v[k].kind == MARKER_BEGIN || m->v[k].kind == MARKER_END) &&
			    !strcmp(m->v[k].name, m->v[i].name)) {
				m->v[i].id = m->v[k].id;
				break;
			}
	for (size_t i = 0; i < m->n; i++) {
		struct marker *a = &m->v[i];
		if (a->kind != MARKER_BEGIN && a->kind != MARKER_END)
			continue;
		enum marker_kind other = a->kind == MARKER_BEGIN ? MARKER_END : MARKER_BEGIN;
		if (!has(m, other, a->name)) {
			const struct marker *same_id = NULL;
			for (size_t k = 0; k < m->n && !same_id; k++)
				if (m->v[k].kind == other && m->v[k].id == a->id)
					same_id = &m->v[k];
			if (same_id)
				return bench_fail(
				    err, BENCH_E_NO_MARKERS,
				    "markers %s %s and %s %s share id %u but not their name: give BENCH_BEGIN "
				    "and BENCH_END of one stretch the same name",
				    markers_kind_name(a->kind), a->name, markers_kind_name(other), same_id->name,
				    a->id);
			return bench_fail(err, BENCH_E_NO_MARKERS,
			                  "marker %s %s has no %s %s: close every BENCH_BEGIN(%s) with BENCH_END(%s)",
			                  markers_kind_name(a->kind), a->name, markers_kind_name(other), a->name,
			                  a->name, a->name);
		}
		/* The first record of this id (by address) keeps it; another name with it moves. */
		for (size_t k = 0; k < i; k++) {
			const struct marker *b = &m->v[k];
			if ((b->kind != MARKER_BEGIN && b->kind != MARKER_END) || b->id != a->id ||
			    !strcmp(b->name, a->name))
				continue;
			if (next_id > 0xFFFFu)
				return bench_fail(err, BENCH_E_NO_MARKERS,
				                  "more than 65535 marker pairs: measure fewer");
			uint16_t old = a->id, fresh = (uint16_t)next_id++;
			for (size_t j = i; j < m->n; j++)
				if ((m->v[j].kind == MARKER_BEGIN || m->v[j].kind == MARKER_END) && m->v[j].id == old &&
				    !strcmp(m->v[j].name, a->name))
					m->v[j].id = fresh;
			break;
		}
	}
	return 0;
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
