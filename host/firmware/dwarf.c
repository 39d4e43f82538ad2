/* A small reader of .debug_info for one question: the type of a global variable (dwarf.h). The
 * numbers are DWARF 5's (DWARF Debugging Information Format Version 5, 7.5: unit headers 7.5.1,
 * abbreviations 7.5.3, forms 7.5.4 and 7.5.6, tags 7.5.4 table 7.3, attributes table 7.5, base
 * type encodings 7.8); versions 2 to 4 differ in the unit header and DW_FORM_ref_addr's size. One
 * pass keeps the entries of the tags that matter, then the variable's type chain is followed. */
#include "firmware/dwarf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/elf.h"

enum {
	TAG_ARRAY = 0x01,
	TAG_CLASS = 0x02,
	TAG_STRUCT = 0x13,
	TAG_UNION = 0x17,
	TAG_SUBRANGE = 0x21,
	TAG_ENUMERATION = 0x04,
	TAG_POINTER = 0x0f,
	TAG_TYPEDEF = 0x16,
	TAG_BASE = 0x24,
	TAG_CONST = 0x26,
	TAG_VARIABLE = 0x34,
	TAG_VOLATILE = 0x35,
	TAG_RESTRICT = 0x37,
	TAG_ATOMIC = 0x47,
	AT_NAME = 0x03,
	AT_BYTE_SIZE = 0x0b,
	AT_ENCODING = 0x3e,
	AT_UPPER_BOUND = 0x2f,
	AT_COUNT = 0x37,
	AT_SPECIFICATION = 0x47,
	AT_TYPE = 0x49,
	ATE_BOOLEAN = 0x02,
	ATE_FLOAT = 0x04,
	ATE_SIGNED = 0x05,
	ATE_SIGNED_CHAR = 0x06,
	ATE_UNSIGNED = 0x07,
	ATE_UNSIGNED_CHAR = 0x08,
};

/* A bounded cursor: reading past the end sets bad and yields zeros. */
struct rd {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t rd_le(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	r->bad = true;
	return 0;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if ((uint64_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return;
	}
	r->p += n;
}

struct attr_spec {
	uint32_t at, form;
	int64_t implicit; /* DW_FORM_implicit_const's value, kept in the abbreviation */
};

struct abbrev {
	uint64_t code;
	uint32_t tag;
	bool children;
	struct attr_spec *attrs;
	size_t n_attrs;
};

struct abbrevs {
	struct abbrev *items;
	size_t n;
	struct attr_spec *specs; /* every abbreviation's attributes, one block */
	size_t n_specs;
};

static void abbrevs_free(struct abbrevs *a)
{
	free(a->items);
	free(a->specs);
	memset(a, 0, sizeof(*a));
}

/* The abbreviation table at OFF (7.5.3): code, tag, children flag, then (attribute, form) pairs
 * ending in 0, 0; the table ends with code 0. Two passes: count, then fill. */
static int abbrevs_read(const struct elf_debug *d, uint64_t off, struct abbrevs *out)
{
	memset(out, 0, sizeof(*out));
	if (off >= d->abbrev_len)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		struct rd r = {d->abbrev + off, d->abbrev + d->abbrev_len, false};
		size_t n = 0, ns = 0;
		for (;;) {
			uint64_t code = rd_uleb(&r);
			if (r.bad)
				goto fail;
			if (!code)
				break;
			uint32_t tag = (uint32_t)rd_uleb(&r);
			bool children = rd_le(&r, 1) != 0;
			if (pass)
				out->items[n] = (struct abbrev){code, tag, children, out->specs + ns, 0};
			for (;;) {
				uint32_t at = (uint32_t)rd_uleb(&r), form = (uint32_t)rd_uleb(&r);
				int64_t implicit = form == 0x21 ? rd_sleb(&r) : 0;
				if (r.bad)
					goto fail;
				if (!at && !form)
					break;
				if (pass) {
					out->specs[ns] = (struct attr_spec){at, form, implicit};
					out->items[n].n_attrs++;
				}
				ns++;
			}
			n++;
		}
		if (!pass) {
			out->items = calloc(n ? n : 1, sizeof(*out->items));
			out->specs = calloc(ns ? ns : 1, sizeof(*out->specs));
			if (!out->items || !out->specs)
				goto fail;
			out->n = n;
			out->n_specs = ns;
		}
	}
	return 0;
fail:
	abbrevs_free(out);
	return -1;
}

static const struct abbrev *abbrev_find(const struct abbrevs *a, uint64_t code)
{
	if (code >= 1 && code <= a->n && a->items[code - 1].code == code) /* GCC numbers them 1, 2, ... */
		return &a->items[code - 1];
	for (size_t i = 0; i < a->n; i++)
		if (a->items[i].code == code)
			return &a->items[i];
	return NULL;
}

/* One kept entry. */
struct die {
	uint64_t off; /* in .debug_info */
	uint32_t tag;
	const char *name;
	uint64_t type, spec; /* .debug_info offsets; 0: none */
	uint64_t size;
	uint64_t count; /* a subrange's elements (DW_AT_count, or DW_AT_upper_bound + 1); 0: unknown */
	uint32_t enc;
	unsigned depth; /* 1: a child of the unit (a global or file-scope static; not a local) */
};

struct unit {
	uint64_t start; /* of the unit header: DW_FORM_ref* are relative to it */
	unsigned version, addr_size;
};

struct dies {
	struct die *items;
	size_t n, cap;
};

static bool kept(uint32_t tag)
{
	/* The aggregates too: a variable of one is no integer, and --arg must say so rather than take its
	 * symbol size for an integer's (DWARF 5 7.5.4, Table 7.3). */
	static const uint32_t tags[] = {TAG_ENUMERATION, TAG_POINTER,  TAG_TYPEDEF,  TAG_BASE,    TAG_CONST,
	                                TAG_VARIABLE,    TAG_VOLATILE, TAG_RESTRICT, TAG_ATOMIC,  TAG_ARRAY,
	                                TAG_CLASS,       TAG_STRUCT,   TAG_UNION,    TAG_SUBRANGE};
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (tags[i] == tag)
			return true;
	return false;
}

static const char *str_at(const uint8_t *sec, size_t len, uint64_t off)
{
	if (!sec || off >= len || !memchr(sec + off, 0, len - off))
		return NULL;
	return (const char *)sec + off;
}

/* Reads one attribute value of FORM (7.5.6), keeping what struct die holds. -1 on a form not
 * known here (the entry's size is then unknown: the unit cannot be read on). */
static int read_value(const struct elf_debug *d, const struct unit *u, struct rd *r, const struct attr_spec *s,
                      struct die *die)
{
	uint64_t v = 0;
	const char *str = NULL;
	bool is_ref = false, is_num = false;
	uint32_t form = s->form;

	if (form == 0x16) /* DW_FORM_indirect: the form comes first */
		form = (uint32_t)rd_uleb(r);
	switch (form) {
	case 0x01: /* addr */
		rd_skip(r, u->addr_size);
		break;
	case 0x03: /* block2 */
		rd_skip(r, rd_le(r, 2));
		break;
	case 0x04: /* block4 */
		rd_skip(r, rd_le(r, 4));
		break;
	case 0x05: /* data2 */
		v = rd_le(r, 2), is_num = true;
		break;
	case 0x06: /* data4 */
		v = rd_le(r, 4), is_num = true;
		break;
	case 0x07: /* data8 */
		v = rd_le(r, 8), is_num = true;
		break;
	case 0x08: /* string */
		str = (const char *)r->p;
		if (!memchr(r->p, 0, (size_t)(r->end - r->p)))
			return -1;
		r->p += strlen(str) + 1;
		break;
	case 0x09: /* block */
	case 0x18: /* exprloc */
		rd_skip(r, rd_uleb(r));
		break;
	case 0x0a: /* block1 */
		rd_skip(r, rd_le(r, 1));
		break;
	case 0x0b: /* data1 */
	case 0x0c: /* flag */
		v = rd_le(r, 1), is_num = true;
		break;
	case 0x0d: /* sdata */
		v = (uint64_t)rd_sleb(r), is_num = true;
		break;
	case 0x0e: /* strp */
		str = str_at(d->str, d->str_len, rd_le(r, 4));
		break;
	case 0x1f: /* line_strp */
		str = str_at(d->line_str, d->line_str_len, rd_le(r, 4));
		break;
	case 0x0f: /* udata */
		v = rd_uleb(r), is_num = true;
		break;
	case 0x10: /* ref_addr: an offset in .debug_info (the address size before DWARF 3) */
		v = rd_le(r, u->version < 3 ? u->addr_size : 4), is_ref = true;
		break;
	case 0x11: /* ref1 .. ref8, ref_udata: relative to the unit */
		v = u->start + rd_le(r, 1), is_ref = true;
		break;
	case 0x12:
		v = u->start + rd_le(r, 2), is_ref = true;
		break;
	case 0x13:
		v = u->start + rd_le(r, 4), is_ref = true;
		break;
	case 0x14:
		v = u->start + rd_le(r, 8), is_ref = true;
		break;
	case 0x15:
		v = u->start + rd_uleb(r), is_ref = true;
		break;
	case 0x17: /* sec_offset, ref_sup4, strp_sup, GNU_ref_alt, GNU_strp_alt */
	case 0x1c:
	case 0x1d:
	case 0x1f20:
	case 0x1f21:
		rd_skip(r, 4);
		break;
	case 0x19: /* flag_present */
		v = 1, is_num = true;
		break;
	case 0x1a: /* strx, addrx, loclistx, rnglistx, GNU_addr_index, GNU_str_index */
	case 0x1b:
	case 0x22:
	case 0x23:
	case 0x1f01:
	case 0x1f02:
		(void)rd_uleb(r);
		break;
	case 0x1e: /* data16 */
		rd_skip(r, 16);
		break;
	case 0x20: /* ref_sig8, ref_sup8: in another unit or file: not followed */
	case 0x24:
		rd_skip(r, 8);
		break;
	case 0x21: /* implicit_const */
		v = (uint64_t)s->implicit, is_num = true;
		break;
	case 0x25: /* strx1..4, addrx1..4 */
	case 0x29:
		rd_skip(r, 1);
		break;
	case 0x26:
	case 0x2a:
		rd_skip(r, 2);
		break;
	case 0x27:
	case 0x2b:
		rd_skip(r, 3);
		break;
	case 0x28:
	case 0x2c:
		rd_skip(r, 4);
		break;
	default:
		return -1;
	}
	if (r->bad)
		return -1;
	if (s->at == AT_NAME && str)
		die->name = str;
	else if (s->at == AT_TYPE && is_ref)
		die->type = v;
	else if (s->at == AT_SPECIFICATION && is_ref)
		die->spec = v;
	else if (s->at == AT_BYTE_SIZE && is_num)
		die->size = v;
	else if (s->at == AT_ENCODING && is_num)
		die->enc = (uint32_t)v;
	else if (s->at == AT_COUNT && is_num)
		die->count = v;
	else if (s->at == AT_UPPER_BOUND && is_num && v < UINT64_MAX)
		die->count = v + 1; /* C arrays start at 0 (DW_AT_lower_bound's default for C, 5.13) */
	return 0;
}

static int dies_add(struct dies *l, const struct die *d)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct die *p = realloc(l->items, cap * sizeof(*p));
		if (!p)
			return -1;
		l->items = p;
		l->cap = cap;
	}
	l->items[l->n++] = *d;
	return 0;
}

/* One unit's entries from R (just past its header) to its end. */
static int read_unit(const struct elf_debug *d, const struct unit *u, const struct abbrevs *ab, struct rd *r,
                     struct dies *out)
{
	unsigned depth = 0;

	while (r->p < r->end) {
		struct die die = {.off = (uint64_t)(r->p - d->info), .depth = depth};
		uint64_t code = rd_uleb(r);
		const struct abbrev *a;

		if (r->bad)
			return -1;
		if (!code) { /* the end of a sibling list */
			depth -= depth > 0;
			continue;
		}
		if (!(a = abbrev_find(ab, code)))
			return -1;
		die.tag = a->tag;
		depth += a->children;
		for (size_t i = 0; i < a->n_attrs; i++)
			if (read_value(d, u, r, &a->attrs[i], &die))
				return -1;
		if (kept(die.tag) && dies_add(out, &die))
			return -1;
	}
	return 0;
}

/* Every unit of .debug_info (7.5.1.1): unit_length (32-bit DWARF only), version, then for 5:
 * unit_type, address_size, debug_abbrev_offset; for 2 to 4: debug_abbrev_offset, address_size.
 * A unit that cannot be read is skipped (its length says where the next starts). */
static int read_all(const struct elf_debug *d, struct dies *out)
{
	uint64_t off = 0;

	while (off + 11 <= d->info_len) {
		struct rd r = {d->info + off, d->info + d->info_len, false};
		uint64_t len = rd_le(&r, 4), abbrev_off;
		struct unit u = {.start = off};
		struct abbrevs ab;

		if (len >= 0xfffffff0u || len > d->info_len - off - 4)
			return out->n ? 0 : -1; /* 64-bit DWARF or a broken length: stop here */
		r.end = d->info + off + 4 + len;
		u.version = (unsigned)rd_le(&r, 2);
		if (u.version >= 5) {
			uint64_t type = rd_le(&r, 1);
			u.addr_size = (unsigned)rd_le(&r, 1);
			abbrev_off = rd_le(&r, 4);
			if (type == 2 || type == 6) /* type and split type units: a signature and an offset */
				rd_skip(&r, type == 2 ? 12 : 8);
			else if (type == 4 || type == 5) /* skeleton and split compile units: a DWO id */
				rd_skip(&r, 8);
		} else {
			abbrev_off = rd_le(&r, 4);
			u.addr_size = (unsigned)rd_le(&r, 1);
		}
		if (!r.bad && u.version >= 2 && u.version <= 5 && abbrevs_read(d, abbrev_off, &ab) == 0) {
			(void)read_unit(d, &u, &ab, &r, out); /* what was read before a problem is kept */
			abbrevs_free(&ab);
		}
		off += 4 + len;
	}
	return 0;
}

static const struct die *die_at(const struct dies *l, uint64_t off)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) { /* entries come in offset order */
		size_t mid = lo + (hi - lo) / 2;
		if (l->items[mid].off == off)
			return &l->items[mid];
		if (l->items[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int resolve(const struct dies *l, uint64_t type, struct dwarf_type *out);

/* An array is no integer: named after its element and its dimensions ("uint8_t[4]"), which follow
 * it as its DW_TAG_subrange_type children (DWARF 5 5.13); its size is theirs times the element's. */
static int resolve_array(const struct dies *l, const struct die *t, struct dwarf_type *out)
{
	struct dwarf_type elem = {0};
	char dims[48] = "";
	uint64_t n = 1;
	size_t used = 0;

	if (!t->type || resolve(l, t->type, &elem))
		(void)snprintf(elem.name, sizeof(elem.name), "array");
	for (const struct die *d = t + 1; d < l->items + l->n && d->tag == TAG_SUBRANGE && d->depth == t->depth + 1;
	     d++) {
		int w = d->count ? snprintf(dims + used, sizeof(dims) - used, "[%llu]", (unsigned long long)d->count)
		                 : snprintf(dims + used, sizeof(dims) - used, "[]");
		used = w > 0 && (size_t)w < sizeof(dims) - used ? used + (size_t)w : used;
		n = d->count && n <= UINT32_MAX / d->count ? n * d->count : 0;
	}
	if (!out->name[0])
		(void)snprintf(out->name, sizeof(out->name), "%.40s%s", elem.name, dims[0] ? dims : "[]");
	out->size = t->size ? (unsigned)t->size : (unsigned)(n * elem.size);
	out->kind = DWARF_OTHER;
	return 0;
}

/* Follows typedefs and qualifiers from the variable's type to a base, enumeration or pointer type,
 * or to an aggregate (DWARF_OTHER), which --arg refuses by its name. */
static int resolve(const struct dies *l, uint64_t type, struct dwarf_type *out)
{
	for (int depth = 0; depth < 32; depth++) {
		const struct die *t = die_at(l, type);
		if (!t)
			return -1;
		if (t->name && !out->name[0] && t->tag != TAG_CONST && t->tag != TAG_VOLATILE)
			(void)snprintf(out->name, sizeof(out->name), "%s", t->name); /* cut is fine: a label */
		switch (t->tag) {
		case TAG_BASE:
			out->size = (unsigned)t->size;
			out->kind = t->enc == ATE_SIGNED || t->enc == ATE_SIGNED_CHAR       ? DWARF_SIGNED
			            : t->enc == ATE_UNSIGNED || t->enc == ATE_UNSIGNED_CHAR ? DWARF_UNSIGNED
			            : t->enc == ATE_BOOLEAN                                 ? DWARF_BOOL
			            : t->enc == ATE_FLOAT                                   ? DWARF_FLOAT
			                                                                    : DWARF_OTHER;
			return 0;
		case TAG_POINTER:
			out->size = (unsigned)t->size;
			out->kind = DWARF_UNSIGNED;
			return 0;
		case TAG_ENUMERATION:
			if (t->type) { /* DWARF 3+: the underlying type */
				unsigned size = (unsigned)t->size;
				int rc = resolve(l, t->type, out);
				if (rc == 0 && size)
					out->size = size;
				return rc;
			}
			/* DWARF 2 names no underlying type: C makes an enum an int (C11 6.7.2.2), so 4 bytes
			 * are signed (a negative enumerator must go in); a packed one (-fshort-enums) is
			 * taken as unsigned. */
			out->size = (unsigned)t->size;
			out->kind = t->size == 4 ? DWARF_SIGNED : DWARF_UNSIGNED;
			return 0;
		case TAG_ARRAY:
			return resolve_array(l, t, out);
		case TAG_STRUCT:
		case TAG_CLASS:
		case TAG_UNION:
			if (!out->name[0]) /* an anonymous one without a typedef */
				(void)snprintf(out->name, sizeof(out->name), "%s",
				               t->tag == TAG_UNION ? "a union" : "a struct");
			else if (t->name && !strcmp(out->name, t->name)) /* its own tag: say what it is */
				(void)snprintf(out->name, sizeof(out->name), "%s %.40s",
				               t->tag == TAG_UNION ? "union" : "struct", t->name);
			out->size = (unsigned)t->size;
			out->kind = DWARF_OTHER;
			return 0;
		default: /* typedef, const, volatile, restrict, _Atomic */
			if (!t->type)
				return -1; /* `const void`, or a typedef of nothing */
			type = t->type;
		}
	}
	return -1;
}

int dwarf_var_type(const struct elf_file *e, const char *name, struct dwarf_type *out)
{
	struct dies l = {0};
	struct elf_debug dbg;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (elf_read_debug(e->path, &dbg))
		return -1;
	if (!dbg.info || !dbg.abbrev || read_all(&dbg, &l))
		goto done;
	for (size_t i = 0; i < l.n && rc; i++) {
		const struct die *v = &l.items[i], *decl = v->spec ? die_at(&l, v->spec) : NULL;
		const char *vname = v->name ? v->name : decl ? decl->name : NULL;
		uint64_t type = v->type ? v->type : decl ? decl->type : 0;
		if (v->tag != TAG_VARIABLE || v->depth != 1 || !vname || strcmp(vname, name) || !type)
			continue;
		memset(out, 0, sizeof(*out));
		rc = resolve(&l, type, out);
	}
done:
	free(l.items);
	elf_debug_free(&dbg);
	return rc;
}
