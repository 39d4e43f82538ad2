/* The profile-point table (target/pfp): decode, validate, read consistently, report.
 * Layout: docs/regions.md "Table layout"; the firmware's struct pfp_table / struct pfp_region. */
#include "firmware/regions.h"
#include "base/le.h"

#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "firmware/counters.h"
#include "firmware/elf.h"
#include "transport/backend.h"

static float lef32(const uint8_t *p)
{
	uint32_t u = le_get32(p);
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

int regions_decode_header(const uint8_t *buf, size_t len, struct regions_header *h, struct bench_error *err)
{
	if (len < PFP_HEADER_SIZE)
		return bench_fail(err, BENCH_E_TARGET, "region table: %zu bytes, a header needs %u", len,
		                  PFP_HEADER_SIZE);
	memset(h, 0, sizeof(*h));
	h->magic = le_get32(buf + PFP_HDR_OFF_MAGIC);
	h->version = le_get16(buf + PFP_HDR_OFF_VERSION);
	h->header_size = le_get16(buf + PFP_HDR_OFF_HEADER_SIZE);
	h->record_size = le_get16(buf + PFP_HDR_OFF_RECORD_SIZE);
	h->count = le_get16(buf + PFP_HDR_OFF_COUNT);
	h->seq = le_get32(buf + PFP_HDR_OFF_SEQ);
	h->counter_id = le_get32(buf + PFP_HDR_OFF_COUNTER);
	h->core_clock_hz = le_get32(buf + PFP_HDR_OFF_CORE_CLOCK);
	h->overhead = le_get32(buf + PFP_HDR_OFF_OVERHEAD);
	h->nest_overhead = le_get32(buf + PFP_HDR_OFF_NEST_OVERHEAD);
	h->isr_overhead = le_get32(buf + PFP_HDR_OFF_ISR_OVERHEAD);
	h->flags = le_get32(buf + PFP_HDR_OFF_FLAGS);
	h->n_events = le_get32(buf + PFP_HDR_OFF_N_EVENTS);
	for (unsigned i = 0; i < PFP_MAX_EVENTS; i++)
		h->events[i] = le_get16(buf + PFP_HDR_OFF_EVENTS + 2 * i);
	h->names_addr = le_get32(buf + PFP_HDR_OFF_NAMES);
	h->records_addr = le_get32(buf + PFP_HDR_OFF_REGIONS);
	h->errors = le_get32(buf + PFP_HDR_OFF_ERRORS);

	if (h->magic != PFP_TABLE_MAGIC)
		return bench_fail(err, BENCH_E_TARGET,
		                  "region table: magic 0x%08" PRIx32
		                  ", expected 0x%08x (\"PFPT\"): the firmware did not "
		                  "initialise `%s` or overwrote it; call pfp_init() first",
		                  h->magic, PFP_TABLE_MAGIC, REGIONS_SYMBOL);
	if (h->version != PFP_TABLE_VERSION)
		return bench_fail(err, BENCH_E_TARGET,
		                  "region table: version %u, this bench reads version %u: rebuild the firmware against "
		                  "this tree's target/pfp",
		                  h->version, PFP_TABLE_VERSION);
	if (h->header_size < PFP_HEADER_SIZE || h->record_size < PFP_RECORD_SIZE)
		return bench_fail(err, BENCH_E_TARGET,
		                  "region table: header %u / record %u bytes, at least %u / %u expected: a table "
		                  "built for another word size?",
		                  h->header_size, h->record_size, PFP_HEADER_SIZE, PFP_RECORD_SIZE);
	if (h->count == 0 || h->count > REGIONS_MAX_COUNT)
		return bench_fail(err, BENCH_E_TARGET,
		                  "region table: %u regions, out of range 1..%u: the table is corrupt", h->count,
		                  REGIONS_MAX_COUNT);
	if (h->n_events > PFP_MAX_EVENTS)
		return bench_fail(err, BENCH_E_TARGET, "region table: %" PRIu32 " events, at most %u", h->n_events,
		                  PFP_MAX_EVENTS);
	if (h->records_addr == 0 || h->names_addr == 0 ||
	    (uint64_t)h->records_addr + (uint64_t)h->count * h->record_size > 0x100000000ull)
		return bench_fail(err, BENCH_E_TARGET,
		                  "region table: records at 0x%08" PRIx32 " and names at 0x%08" PRIx32
		                  " do not fit the address space: the table is corrupt",
		                  h->records_addr, h->names_addr);
	return 0;
}

/* What a region's error flags mean, one phrase each (target/include/pfp.h PFP_E_*). */
static const struct {
	uint32_t flag;
	const char *text;
} region_error_text[] = {
    {PFP_E_DOUBLE_BEGIN, "disabled: Begin twice without End (Begin-Begin-End)"},
    {PFP_E_NOT_INNERMOST, "disabled: End of a region that was not the innermost open one"},
    {PFP_E_WRAP, "an interval reached 2^31 cycles: the counter may have wrapped"},
    {PFP_E_EVT_WRAP, "an event interval could have wrapped an 8-bit DWT counter"},
    {PFP_E_NEGATIVE, "a sample came out below the calibrated overhead (recorded as 0)"},
};

static void describe_errors(uint32_t flags, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(region_error_text) / sizeof(region_error_text[0]); i++) {
		if (!(flags & region_error_text[i].flag))
			continue;
		int n = snprintf(out + used, len - used, "%s%s", used ? "; " : "", region_error_text[i].text);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

int regions_decode_record(const struct regions_header *h, const uint8_t *records, size_t len, uint32_t i,
                          struct bench_region_result *out, struct bench_error *err)
{
	size_t off = (size_t)i * h->record_size;
	if (i >= h->count || off + h->record_size > len)
		return bench_fail(err, BENCH_E_INTERNAL, "region record %" PRIu32 " beyond the %zu bytes read", i, len);
	const uint8_t *p = records + off;
	out->id = i;
	out->count = le_get32(p + PFP_REC_OFF_COUNT);
	out->enabled = (le_get32(p + PFP_REC_OFF_FLAGS) & PFP_F_ENABLED) != 0;
	out->error_flags = le_get32(p + PFP_REC_OFF_ERRORS);
	out->last = le_get32(p + PFP_REC_OFF_LAST);
	out->total = le_get64(p + PFP_REC_OFF_TOTAL);
	out->min = out->count ? le_get32(p + PFP_REC_OFF_MIN) : 0;
	out->max = le_get32(p + PFP_REC_OFF_MAX);
	out->ema = lef32(p + PFP_REC_OFF_EMA);
	out->mean = out->count ? (double)out->total / (double)out->count : 0.0;
	describe_errors(out->error_flags, out->error, sizeof(out->error));
	out->n_events = 0;
	for (unsigned e = 0; e < h->n_events && e < BENCH_MAX_EVENTS; e++) {
		const struct papi_event_desc *d = counters_event(h->events[e]);
		struct bench_event *ev = &out->events[out->n_events++];
		if (d)
			str_fmt_cut(ev->name, sizeof(ev->name), "%s", d->name);
		else
			str_fmt_cut(ev->name, sizeof(ev->name), "event%u", h->events[e]);
		ev->value = le_get64(p + PFP_REC_OFF_EVENTS + 8 * e);
	}
	return 0;
}

static void read_name(const struct regions_source *src, const struct regions_header *h, uint32_t i,
                      struct bench_region_result *out)
{
	struct bench_error err;
	uint8_t ptr[4] = {0}; /* filled by read_names on success */
	char buf[BENCH_NAME_MAX];

	str_fmt_cut(out->name, sizeof(out->name), "region%" PRIu32, i);
	bench_error_clear(&err);
	if (src->read_names(src->names_ctx, h->names_addr + 4 * i, ptr, sizeof(ptr), &err) < 0) {
		str_fmt_cut(out->error + strlen(out->error), sizeof(out->error) - strlen(out->error),
		            "%sname unreadable", out->error[0] ? "; " : "");
		return;
	}
	/* Names live in flash; read a short string, then a shorter one near the end of memory. */
	memset(buf, 0, sizeof(buf));
	if (src->read_names(src->names_ctx, le_get32(ptr), buf, sizeof(buf) - 1, &err) < 0 &&
	    src->read_names(src->names_ctx, le_get32(ptr), buf, 16, &err) < 0) {
		str_fmt_cut(out->error + strlen(out->error), sizeof(out->error) - strlen(out->error),
		            "%sname unreadable", out->error[0] ? "; " : "");
		return;
	}
	buf[sizeof(buf) - 1] = '\0';
	if (buf[0])
		str_fmt_cut(out->name, sizeof(out->name), "%s", buf);
}

/* One record between two equal, even sequence numbers. Returns 0, 1 when torn `tries` times, or a
 * negative bench_err. */
static int read_record(const struct regions_source *src, uint32_t table_addr, const struct regions_header *h,
                       uint32_t i, uint8_t *dst, unsigned tries, struct bench_error *err)
{
	for (unsigned t = 0; t < tries; t++) {
		uint8_t s1[4] = {0}, s2[4] = {0}; /* filled by read_table on success */
		int rc = src->read_table(src->table_ctx, table_addr + 12, s1, sizeof(s1), err);
		if (rc < 0)
			return rc;
		if (le_get32(s1) & 1u)
			continue;
		rc = src->read_table(src->table_ctx, h->records_addr + i * h->record_size, dst, h->record_size, err);
		if (rc < 0)
			return rc;
		rc = src->read_table(src->table_ctx, table_addr + 12, s2, sizeof(s2), err);
		if (rc < 0)
			return rc;
		if (le_get32(s1) == le_get32(s2))
			return 0;
	}
	return 1;
}

int regions_fetch(const struct regions_source *src, uint32_t table_addr, struct bench_report *rep,
                  struct regions_header *hdr_out, struct bench_error *err)
{
	unsigned tries = src->max_tries ? src->max_tries : 1;
	struct regions_header h;
	uint8_t hbuf[PFP_HEADER_SIZE] = {0}; /* filled by read_table on success */
	uint8_t *records = NULL;
	size_t rec_len = 0;
	int rc;

	bool have_header = false, consistent = false;
	for (unsigned t = 0; t < tries && !consistent; t++) {
		rc = src->read_table(src->table_ctx, table_addr, hbuf, sizeof(hbuf), err);
		if (rc < 0)
			goto fail;
		rc = regions_decode_header(hbuf, sizeof(hbuf), &h, err);
		if (rc < 0)
			goto fail;
		/* At least one byte, zeroed: records is never NULL and never holds unread bytes below. */
		size_t need = h.count ? (size_t)h.count * h.record_size : 1;
		if (!records || need > rec_len) {
			uint8_t *n = realloc(records, need);
			if (!n) {
				rc = bench_fail(err, BENCH_E_NOMEM, "out of memory reading %zu bytes of regions", need);
				goto fail;
			}
			memset(n + rec_len, 0, need > rec_len ? need - rec_len : 0);
			records = n;
			rec_len = need;
		}
		have_header = true;
		if (h.seq & 1u)
			continue; /* the target is updating statistics right now */
		rc = src->read_table(src->table_ctx, h.records_addr, records, (size_t)h.count * h.record_size, err);
		if (rc < 0)
			goto fail;
		uint8_t seq2[4] = {0}; /* filled by read_table on success */
		rc = src->read_table(src->table_ctx, table_addr + 12, seq2, sizeof(seq2), err);
		if (rc < 0)
			goto fail;
		consistent = le_get32(seq2) == h.seq;
	}
	/* A target that records samples faster than the probe reads the whole table: each record is
	 * still consistent on its own when read between two equal even sequence numbers. */
	for (uint32_t i = 0; have_header && !consistent && i < h.count; i++) {
		rc = read_record(src, table_addr, &h, i, records + (size_t)i * h.record_size, tries, err);
		if (rc < 0)
			goto fail;
		if (rc > 0)
			break;
		consistent = i + 1 == h.count;
	}
	if (!consistent) {
		free(records);
		return bench_fail(
		    err, BENCH_E_TARGET,
		    "region table torn: its sequence counter changed during each of %u reads while the "
		    "target ran (whole table, then record by record); read it at a halt (the DONE marker) "
		    "or poll less often",
		    tries);
	}

	rep->n_regions = 0; /* a later read supersedes an earlier one */
	for (uint32_t i = 0; i < h.count; i++) {
		struct bench_region_result *r = results_add_region(rep);
		if (!r) {
			rc = bench_fail(err, BENCH_E_NOMEM, "out of memory adding region %" PRIu32, i);
			goto fail;
		}
		rc = regions_decode_record(&h, records, rec_len, i, r, err);
		if (rc < 0)
			goto fail;
		read_name(src, &h, i, r);
	}
	if (hdr_out)
		*hdr_out = h;
	free(records);
	return 0;
fail:
	free(records);
	return rc;
}

static int backend_reader(void *ctx, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	return backend_read_mem(ctx, addr, buf, len, err);
}

int regions_read(struct backend *bk, const struct elf_file *elf, struct bench_report *rep, struct bench_error *err)
{
	const struct elf_symbol *sym = elf_symbol(elf, REGIONS_SYMBOL);
	struct regions_source src = {backend_reader, bk, backend_reader, bk, 8};

	if (!sym)
		return 0;
	return regions_fetch(&src, sym->addr, rep, NULL, err);
}

void regions_mark_no_cycles(struct bench_report *rep)
{
	static const char why[] = "cycles not measured: the board has no cycle counter (counter: none)";

	for (size_t i = 0; i < rep->n_regions; i++) {
		struct bench_region_result *g = &rep->regions[i];
		char prev[sizeof(g->error)];

		if (g->no_cycles)
			continue;
		g->no_cycles = true;
		/* The runtime's own cycle checks (an interval of 2^31, one below the overhead) judged
		 * whatever the port read for a counter the board does not have (QEMU's TC277 CCNT): no
		 * wrap to warn of. error_flags keeps what the firmware wrote. */
		describe_errors(g->error_flags & ~(uint32_t)(PFP_E_WRAP | PFP_E_NEGATIVE), prev, sizeof(prev));
		str_fmt_cut(g->error, sizeof(g->error), "%s%s%s", why, prev[0] ? "; " : "", prev);
	}
	if (rep->n_regions)
		(void)results_add_warning(rep,
		                          "regions: the board has no cycle counter (counter: none): the regions' "
		                          "counts are the firmware's, their cycle figures are not measured (null)");
}

/* The ELF's initial memory image, for `bench regions` without a target: each PT_LOAD segment's file
 * bytes at its run address (VMA; .data as initialised), zeros up to memsz (.bss). */
struct regions_image {
	struct {
		uint32_t vaddr, filesz, memsz;
		uint8_t *data;
	} seg[32];
	size_t n;
};

static int image_reader(void *ctx, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	struct regions_image *img = ctx;
	for (size_t i = 0; i < img->n; i++) {
		uint64_t lo = img->seg[i].vaddr, hi = lo + img->seg[i].memsz;
		if (addr < lo || (uint64_t)addr + len > hi)
			continue;
		uint32_t off = addr - img->seg[i].vaddr;
		for (size_t k = 0; k < len; k++)
			((uint8_t *)buf)[k] = off + k < img->seg[i].filesz ? img->seg[i].data[off + k] : 0;
		return 0;
	}
	return bench_fail(err, BENCH_E_ELF, "address 0x%08" PRIx32 " (+%zu) is in no loadable segment of the ELF", addr,
	                  len);
}

static void image_free(struct regions_image *img)
{
	for (size_t i = 0; i < img->n; i++)
		free(img->seg[i].data);
	img->n = 0;
}

static int image_load(const char *path, struct regions_image *img, struct bench_error *err)
{
	FILE *f = fopen(path, "rb");
	Elf *e = NULL;
	size_t nph = 0;
	int rc = 0;

	img->n = 0;
	if (!f)
		return bench_fail(err, BENCH_E_FILE, "cannot open %s", path);
	if (elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fileno(f), ELF_C_READ, NULL)) ||
	    elf_getphdrnum(e, &nph) != 0) {
		rc = bench_fail(err, BENCH_E_ELF, "%s: not a readable ELF (%s)", path, elf_errmsg(-1));
		goto out;
	}
	for (size_t i = 0; i < nph && img->n < sizeof(img->seg) / sizeof(img->seg[0]); i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph)) {
			rc = bench_fail(err, BENCH_E_ELF, "%s: program header %zu unreadable", path, i);
			goto out;
		}
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		uint8_t *d = calloc(1, ph.p_filesz ? ph.p_filesz : 1);
		if (!d) {
			rc = bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", path);
			goto out;
		}
		if (ph.p_filesz &&
		    (fseek(f, (long)ph.p_offset, SEEK_SET) != 0 || fread(d, 1, ph.p_filesz, f) != ph.p_filesz)) {
			free(d);
			rc = bench_fail(err, BENCH_E_ELF, "%s: segment %zu is cut short", path, i);
			goto out;
		}
		img->seg[img->n].vaddr = (uint32_t)ph.p_vaddr;
		img->seg[img->n].filesz = (uint32_t)ph.p_filesz;
		img->seg[img->n].memsz = (uint32_t)ph.p_memsz;
		img->seg[img->n].data = d;
		img->n++;
	}
out:
	if (e)
		elf_end(e);
	(void)fclose(f); /* read-only: nothing to lose */
	if (rc < 0)
		image_free(img);
	return rc;
}

/* A decode error's advice is for a table read from RAM ("call pfp_init() first", "the table is
 * corrupt"); from the file the one thing to do is rebuild. Keeps advice that already says so,
 * replaces the last ": advice" after "region table: FACT" otherwise, or adds it. */
static void file_advice(char *msg, size_t cap)
{
	static const char rebuild[] = ": rebuild the firmware";
	char *last = NULL;
	size_t len;

	if (strstr(msg, rebuild + 2))
		return;
	for (char *p = strstr(msg, ": "); p; p = strstr(p + 2, ": "))
		last = p;
	if (last && last > msg + strlen("region table"))
		*last = '\0';
	len = strlen(msg);
	(void)snprintf(msg + len, cap - len, "%s", rebuild);
}

int regions_read_elf(const struct elf_file *elf, struct bench_report *rep, struct regions_header *hdr,
                     struct bench_error *err)
{
	const struct elf_symbol *sym = elf_symbol(elf, REGIONS_SYMBOL);
	struct regions_image img;
	int rc;

	if (!sym)
		return bench_fail(
		    err, BENCH_E_NO_MARKERS,
		    "symbol `%s` not in %s: define the table with PFP_DEFINE_TABLE (target/include/pfp.h) "
		    "and link target/pfp",
		    REGIONS_SYMBOL, elf->path);
	rc = image_load(elf->path, &img, err);
	if (rc < 0)
		return rc;
	struct regions_source src = {image_reader, &img, image_reader, &img, 1};
	rc = regions_fetch(&src, sym->addr, rep, hdr, err);
	image_free(&img);
	/* A table that does not decode is the target's state when read from RAM (exit 5), but here it
	 * is the file's: exit 3 like any broken firmware (docs/exit-codes.md). */
	if (rc < 0 && err->kind == BENCH_E_TARGET) {
		char msg[sizeof(err->msg)];
		memcpy(msg, err->msg, sizeof(msg));
		file_advice(msg, sizeof(msg));
		rc = bench_fail(err, BENCH_E_ELF, "%s: %s", elf->path, msg);
	}
	return rc;
}
