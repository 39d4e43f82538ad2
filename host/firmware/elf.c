/* Reading the firmware ELF with libelf (gelf.h): the ARM ELF checks (ELF for the Arm Architecture,
 * IHI 0044: EM_ARM = 40, ELFCLASS32, little-endian), symbols, PT_LOAD segments and the marker
 * section, plus the file's SHA-256. */
#include "firmware/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/le.h"
#include "base/str.h"
#include "base/sha256.h"

void elf_sha256(const void *data, size_t len, uint8_t digest[32])
{
	struct sha256_ctx c;
	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, digest);
}

int elf_sha256_file(const char *path, char out[65], struct bench_error *err)
{
	struct sha256_ctx c;
	uint8_t buf[65536], d[32];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return bench_fail(err, BENCH_E_FILE, "cannot read %s: %s: check the path", path, strerror(errno));
	sha256_init(&c);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&c, buf, n);
	if (ferror(f)) {
		int e = errno;
		(void)fclose(f); /* read-only */
		return bench_fail(err, BENCH_E_FILE, "cannot read %s: %s: check the file", path, strerror(e));
	}
	(void)fclose(f);
	sha256_final(&c, d);
	for (int i = 0; i < 32; i++) {
		out[2 * i] = "0123456789abcdef"[d[i] >> 4];
		out[2 * i + 1] = "0123456789abcdef"[d[i] & 15];
	}
	out[64] = '\0';
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct elf_symbol *x = a, *y = b;
	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	/* Functions before objects and labels at one address: the better name for a PC. */
	return (int)y->is_func - (int)x->is_func;
}

static int nomem(struct bench_error *err)
{
	return bench_fail(err, BENCH_E_NOMEM, "out of memory reading the ELF: free memory");
}

static int read_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct elf_file *e, struct bench_error *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count;

	if (!data || sh->sh_entsize == 0)
		return bench_fail(err, BENCH_E_ELF, "%s: unreadable symbol table: rebuild the firmware", e->path);
	count = sh->sh_size / sh->sh_entsize;
	e->symbols = calloc(count ? count : 1, sizeof(*e->symbols));
	if (!e->symbols)
		return nomem(err);
	for (size_t i = 0; i < count; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &s))
			return bench_fail(err, BENCH_E_ELF, "%s: broken symbol %zu: rebuild the firmware", e->path, i);
		type = GELF_ST_TYPE(s.st_info);
		if (type == STT_SECTION || type == STT_FILE || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		/* $t, $a, $d are Arm mapping symbols (IHI 0044, 5.5.5), not names. */
		if (!name || !*name || name[0] == '$')
			continue;
		struct elf_symbol *d = &e->symbols[e->n_symbols];
		d->name = strdup(name);
		if (!d->name)
			return nomem(err);
		d->is_func = type == STT_FUNC;
		d->addr = (uint32_t)s.st_value & (d->is_func ? ~1u : ~0u);
		d->size = (uint32_t)s.st_size;
		e->n_symbols++;
	}
	qsort(e->symbols, e->n_symbols, sizeof(*e->symbols), cmp_sym);
	return 0;
}

/* A PT_LOAD segment whose file bytes lie beyond the file, that has more file bytes than memory, or
 * that runs past the 32-bit address space cannot be loaded as it says (System V gABI, "Program
 * Header": p_filesz <= p_memsz; the bytes are p_offset .. p_offset + p_filesz of the file). OpenOCD
 * would program something else, or fail with its own words; say which segment and what to do. */
static int check_segment(const struct elf_file *e, size_t i, const GElf_Phdr *ph, size_t file_size,
                         struct bench_error *err)
{
	const char *why = NULL;
	char buf[160];

	if (ph->p_filesz > ph->p_memsz) {
		(void)snprintf(buf, sizeof(buf), "%llu file bytes for %llu bytes of memory",
		               (unsigned long long)ph->p_filesz, (unsigned long long)ph->p_memsz);
		why = buf;
	} else if (ph->p_filesz &&
	           (ph->p_offset + ph->p_filesz > file_size || ph->p_offset + ph->p_filesz < ph->p_offset)) {
		(void)snprintf(buf, sizeof(buf), "bytes %llu..%llu of a %zu-byte file",
		               (unsigned long long)ph->p_offset,
		               (unsigned long long)ph->p_offset + (unsigned long long)ph->p_filesz, file_size);
		why = buf;
	} else if (ph->p_vaddr + ph->p_memsz > 0x100000000ull || ph->p_paddr + ph->p_filesz > 0x100000000ull) {
		(void)snprintf(buf, sizeof(buf), "0x%llx bytes at 0x%08llx, beyond the 32-bit address space",
		               (unsigned long long)ph->p_memsz, (unsigned long long)ph->p_vaddr);
		why = buf;
	}
	if (!why)
		return 0;
	return bench_fail(err, BENCH_E_ELF,
	                  "%s is broken: its loadable segment %zu says %s: rebuild the firmware or copy it again",
	                  e->path, i, why);
}

static int read_segments(Elf *elf, struct elf_file *e, struct bench_error *err)
{
	size_t n, file_size = 0;

	if (elf_getphdrnum(elf, &n))
		return bench_fail(err, BENCH_E_ELF, "%s: unreadable program headers: rebuild the firmware", e->path);
	e->segments = calloc(n ? n : 1, sizeof(*e->segments));
	if (!e->segments)
		return nomem(err);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph))
			return bench_fail(err, BENCH_E_ELF, "%s: broken program header %zu: rebuild the firmware",
			                  e->path, i);
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (elf_rawfile(elf, &file_size) && check_segment(e, i, &ph, file_size, err))
			return -(int)err->kind;
		struct elf_segment *s = &e->segments[e->n_segments++];
		s->paddr = (uint32_t)ph.p_paddr;
		s->vaddr = (uint32_t)ph.p_vaddr;
		s->filesz = (uint32_t)ph.p_filesz;
		s->memsz = (uint32_t)ph.p_memsz;
		s->flags = ph.p_flags;
	}
	return 0;
}

static uint64_t uleb(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* .ARM.attributes: 'A', then subsections (u32 length, vendor NTBS); in "aeabi", tag 1 (File) with
 * a u32 size, then (ULEB tag, value) pairs. Values are NTBS for tags 4, 5, 67 and odd tags from 32
 * up (65 also), ULEB otherwise; tag 32 is a ULEB and an NTBS (IHI 0045, 2.2). Only Tag_CPU_arch (6)
 * and Tag_CPU_arch_profile (7) are read; anything malformed leaves them unknown. */
static void read_attributes(const uint8_t *d, size_t len, struct elf_file *e)
{
	const uint8_t *p = d + 1, *end = d + len;

	if (len < 1 || d[0] != 'A')
		return;
	while (end - p >= 4) {
		uint32_t sub = le_get32(p);
		const uint8_t *sub_end = sub <= (size_t)(end - p) && sub >= 4 ? p + sub : end;
		const uint8_t *q = p + 4;
		const uint8_t *nul = memchr(q, 0, (size_t)(sub_end - q));
		if (!nul)
			return;
		if (!strcmp((const char *)q, "aeabi") && sub_end - nul > 5 && nul[1] == 1) {
			const uint8_t *a = nul + 6;
			while (a < sub_end) {
				uint64_t tag = uleb(&a, sub_end);
				if (tag == 4 || tag == 5 || tag == 67 || tag == 65 || (tag > 32 && (tag & 1))) {
					const uint8_t *z = memchr(a, 0, (size_t)(sub_end - a));
					if (!z)
						return;
					a = z + 1;
					continue;
				}
				uint64_t v = uleb(&a, sub_end);
				if (tag == 6)
					e->cpu_arch = (int)(v & 0xff);
				else if (tag == 7)
					e->cpu_profile = (char)v;
				if (tag == 32) {
					const uint8_t *z = memchr(a, 0, (size_t)(sub_end - a));
					if (!z)
						return;
					a = z + 1;
				}
			}
		}
		p = sub_end;
	}
}

const char *elf_arch_name(int cpu_arch)
{
	switch (cpu_arch) {
	case 10:
		return "ARMv7(-M)";
	case 11:
		return "ARMv6-M";
	case 12:
		return "ARMv6S-M";
	case 13:
		return "ARMv7E-M";
	case 16:
		return "ARMv8-M.base";
	case 17:
		return "ARMv8-M.main";
	case 21:
		return "ARMv8.1-M.main";
	default:
		return "unknown";
	}
}

/* Keeps a copy of a DWARF section dwarf.c reads; compressed ones (SHF_COMPRESSED) are left out. */
static int keep_debug(Elf_Scn *scn, const GElf_Shdr *sh, const char *name, struct elf_debug *d)
{
	static const char *const names[] = {".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str"};
	uint8_t **bufs[] = {&d->info, &d->abbrev, &d->str, &d->line_str};
	size_t *lens[] = {&d->info_len, &d->abbrev_len, &d->str_len, &d->line_str_len};
	Elf_Data *data;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) || *bufs[i] || (sh->sh_flags & SHF_COMPRESSED))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || !data->d_size)
			return 0; /* unreadable debug info only costs the --arg type check */
		*bufs[i] = malloc(data->d_size);
		if (!*bufs[i])
			return -1;
		memcpy(*bufs[i], data->d_buf, data->d_size);
		*lens[i] = data->d_size;
	}
	return 0;
}

static int read_sections(Elf *elf, struct elf_file *e, struct bench_error *err)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int rc;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return bench_fail(err, BENCH_E_ELF, "%s: no section name table: rebuild the firmware", e->path);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return bench_fail(err, BENCH_E_ELF, "%s: broken section header: rebuild the firmware", e->path);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && sh.sh_type == SHT_PROGBITS && !strncmp(name, ".debug_", 7)) {
			continue; /* read only when --arg asks for a type (elf_read_debug) */
		} else if (sh.sh_type == SHT_SYMTAB && !e->symbols) {
			rc = read_symbols(elf, scn, &sh, e, err);
			if (rc)
				return rc;
		} else if (sh.sh_type == SHT_ARM_ATTRIBUTES) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (d && d->d_buf)
				read_attributes(d->d_buf, d->d_size, e);
		} else if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) && sh.sh_size >= 8 &&
		           (!e->has_vectors || sh.sh_addr < e->vectors_addr)) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (d && d->d_buf && d->d_size >= 8) {
				const uint8_t *b = d->d_buf;
				for (int w = 0; w < 2; w++)
					e->vectors[w] = le_get32(b + 4 * w);
				e->vectors_addr = (uint32_t)sh.sh_addr;
				e->has_vectors = true;
			}
		} else if (name && !strcmp(name, MARKERS_SECTION) && sh.sh_type != SHT_NOBITS) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (!d || (d->d_size && !d->d_buf))
				return bench_fail(err, BENCH_E_NO_MARKERS,
				                  "%s: unreadable " MARKERS_SECTION " section: rebuild the firmware",
				                  e->path);
			markers_free(&e->markers);
			rc = markers_decode(d->d_buf, d->d_size, &e->markers, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Every marker record must point at its BKPT: Thumb BKPT #imm8 is 0xBE00 | imm8 (Armv7-M ARM
 * A7.7.17) and the imm8 is the marker's kind. A record pointing elsewhere (a patched image, a
 * section copied from another build) would file halts under the wrong marker. */
static int check_marker_code(Elf *elf, struct elf_file *e, struct bench_error *err)
{
	Elf_Scn *scn = NULL;
	size_t checked = 0;

	/* Cortex-M only: a TriCore marker is a DEBUG instruction of another encoding. */
	if (!e->markers.n || e->machine != EM_ARM)
		return 0;
	bool *seen = calloc(e->markers.n, sizeof(*seen));
	if (!seen)
		return nomem(err);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		/* Any loaded section: code that runs from RAM may sit in .data, not only in .text. */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC) ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		for (size_t i = 0; i < e->markers.n; i++) {
			const struct marker *m = &e->markers.v[i];
			uint64_t off = (uint64_t)m->addr - sh.sh_addr;
			if (m->addr < sh.sh_addr || off + 2 > d->d_size || seen[i])
				continue;
			const uint8_t *p = (const uint8_t *)d->d_buf + off;
			unsigned insn = le_get16(p);
			seen[i] = true;
			checked++;
			if (insn != (0xBE00u | (unsigned)m->kind)) {
				char where[160];
				elf_describe_addr(e, m->addr, where, sizeof(where));
				free(seen);
				return bench_fail(
				    err, BENCH_E_NO_MARKERS,
				    "%s: the marker table disagrees with the code: marker %s %s says BKPT #%u at "
				    "0x%08x (%s), the code there is 0x%04x: rebuild the firmware, do not patch it",
				    e->path, markers_kind_name(m->kind), m->name, (unsigned)m->kind, m->addr, where,
				    insn);
			}
		}
	}
	for (size_t i = 0; i < e->markers.n && checked < e->markers.n; i++)
		if (!seen[i]) {
			const struct marker *m = &e->markers.v[i];
			free(seen);
			return bench_fail(
			    err, BENCH_E_NO_MARKERS,
			    "%s: the marker table disagrees with the code: marker %s %s is at 0x%08x, in no "
			    "loaded section: rebuild the firmware",
			    e->path, markers_kind_name(m->kind), m->name, m->addr);
		}
	free(seen);
	return 0;
}

static int check_header(Elf *elf, struct elf_file *e, struct bench_error *err)
{
	GElf_Ehdr eh;
	const char *ident;
	size_t size = 0;

	if (elf_kind(elf) != ELF_K_ELF)
		return bench_fail(err, BENCH_E_ELF,
		                  "%s is not an ELF file: pass the firmware's .elf, not a .bin or .hex", e->path);
	ident = elf_getident(elf, NULL);
	if (!gelf_getehdr(elf, &eh) || !ident)
		return bench_fail(err, BENCH_E_ELF, "%s: broken ELF header: rebuild the firmware", e->path);
	/* Arm Cortex-M (EM_ARM 40) and TriCore (EM_TRICORE 44; the TriCore EABI: ELFCLASS32,
	 * little-endian) are the cores bench measures; which board suits which is the caller's check. */
	if ((eh.e_machine != EM_ARM && eh.e_machine != EM_TRICORE) || ident[EI_CLASS] != ELFCLASS32 ||
	    ident[EI_DATA] != ELFDATA2LSB)
		return bench_fail(err, BENCH_E_ARCH,
		                  "%s is an ELF for another architecture (e_machine %u, %d-bit): build it for "
		                  "Arm Cortex-M (arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb) or TriCore",
		                  e->path, (unsigned)eh.e_machine, ident[EI_CLASS] == ELFCLASS64 ? 64 : 32);
	e->machine = eh.e_machine;
	/* libelf reads a file cut short (an interrupted copy or download) without complaint and just
	 * finds no sections, which would be reported as "no markers"; the header tables must lie
	 * inside the file (System V gABI, ELF header: e_phoff/e_shoff are file offsets). */
	if (elf_rawfile(elf, &size)) {
		uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
		uint64_t sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
		uint64_t end = ph_end > sh_end ? ph_end : sh_end;
		if (end > size)
			return bench_fail(err, BENCH_E_ELF,
			                  "%s is truncated (%zu bytes, its headers reach byte %llu): rebuild the "
			                  "firmware or copy it again",
			                  e->path, size, (unsigned long long)end);
	}
	e->entry = (uint32_t)eh.e_entry;
	e->flags = eh.e_flags;
	return 0;
}

int elf_open(const char *path, struct elf_file *out, struct bench_error *err)
{
	int fd, rc;
	Elf *elf;

	memset(out, 0, sizeof(*out));
	out->cpu_arch = -1;
	if (snprintf(out->path, sizeof(out->path), "%s", path) >= (int)sizeof(out->path))
		return bench_fail(err, BENCH_E_FILE,
		                  "firmware path %.100s... is longer than %zu bytes: give a shorter one", path,
		                  sizeof(out->path) - 1);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return bench_fail(err, BENCH_E_INTERNAL, "libelf is out of date: reinstall libelf1");
	/* O_NONBLOCK: a FIFO given as firmware would otherwise block this open until a writer came. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return bench_fail(err, BENCH_E_FILE, "cannot open firmware %s: %s: check the path", path,
		                  strerror(errno));
	{
		struct stat st;
		if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			close(fd);
			return bench_fail(err, BENCH_E_FILE, "%s is %s, not a firmware file: pass the firmware's .elf",
			                  path,
			                  S_ISFIFO(st.st_mode)  ? "a FIFO"
			                  : S_ISCHR(st.st_mode) ? "a character device"
			                                        : "not a regular file");
		}
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		close(fd);
		return bench_fail(err, BENCH_E_ELF, "%s is not an ELF file: %s: pass the firmware's .elf", path,
		                  elf_errmsg(-1));
	}
	rc = check_header(elf, out, err);
	if (!rc)
		rc = read_segments(elf, out, err);
	if (!rc)
		rc = read_sections(elf, out, err);
	if (!rc)
		rc = check_marker_code(elf, out, err);
	elf_end(elf);
	close(fd);
	if (!rc)
		rc = elf_sha256_file(path, out->sha256, err);
	if (rc)
		elf_close(out);
	return rc;
}

int elf_read_debug(const char *path, struct elf_debug *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		rc = -1;
	while (rc == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh))
			rc = -1;
		else if (sh.sh_type == SHT_PROGBITS && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		         !strncmp(name, ".debug_", 7))
			rc = keep_debug(scn, &sh, name, out);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (rc)
		elf_debug_free(out);
	return rc;
}

void elf_debug_free(struct elf_debug *d)
{
	free(d->info);
	free(d->abbrev);
	free(d->str);
	free(d->line_str);
	memset(d, 0, sizeof(*d));
}

void elf_close(struct elf_file *e)
{
	for (size_t i = 0; i < e->n_symbols; i++)
		free(e->symbols[i].name);
	free(e->symbols);
	free(e->segments);
	markers_free(&e->markers);
	e->symbols = NULL;
	e->segments = NULL;
	e->n_symbols = e->n_segments = 0;
}

const char *elf_arch(const struct elf_file *e)
{
	return e->machine == EM_TRICORE ? "tricore" : "cortex-m";
}

const struct elf_symbol *elf_symbol(const struct elf_file *e, const char *name)
{
	const struct elf_symbol *best = NULL;
	for (size_t i = 0; i < e->n_symbols; i++)
		if (!strcmp(e->symbols[i].name, name) && (!best || e->symbols[i].is_func > best->is_func))
			best = &e->symbols[i];
	return best;
}

bool elf_symbol_is_code(const struct elf_file *e, const struct elf_symbol *sym)
{
	if (sym->is_func)
		return true;
	if (sym->size) /* STT_OBJECT, or an untyped symbol with a size: data */
		return false;
	for (size_t i = 0; i < e->n_segments; i++) {
		const struct elf_segment *g = &e->segments[i];
		if (sym->addr >= g->vaddr && (uint64_t)sym->addr < (uint64_t)g->vaddr + g->memsz)
			return (g->flags & PF_X) != 0;
	}
	return true; /* an assembler label outside every segment: let the breakpoint say */
}

const struct elf_symbol *elf_symbol_at(const struct elf_file *e, uint32_t addr, uint32_t *offset)
{
	const struct elf_symbol *best = NULL, *label = NULL;

	/* A sized symbol covering addr (the innermost: the latest start) wins. Failing that, an
	 * assembly function without .size covers up to the next symbol. Linker-script labels (no type,
	 * no size: _estack, _sbss) name no code and are never used here. */
	for (size_t i = 0; i < e->n_symbols && e->symbols[i].addr <= addr; i++) {
		const struct elf_symbol *s = &e->symbols[i];
		if (s->size && addr - s->addr < s->size)
			best = s;
		if (s->size == 0 && s->is_func)
			label = s;
		else if (label && s->addr > label->addr)
			label = NULL;
	}
	if (!best)
		best = label;
	if (best && offset)
		*offset = addr - best->addr;
	return best;
}

void elf_describe_addr(const struct elf_file *e, uint32_t addr, char *out, size_t len)
{
	uint32_t off = 0;
	const struct elf_symbol *s = elf_symbol_at(e, addr, &off);

	if (!s)
		str_fmt_cut(out, len, "0x%08x", addr);
	else if (off)
		str_fmt_cut(out, len, "%s+0x%x", s->name, off);
	else
		str_fmt_cut(out, len, "%s", s->name);
}
