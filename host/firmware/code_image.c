/* The image's sections, mapping symbols and Berkeley sizes (firmware/code_image.h). */
#include "firmware/code_image.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

static int cmp_map(const void *a, const void *b)
{
	const struct code_map *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*len = buf ? (size_t)n : 0;
	(void)fclose(f);
	return buf;
}

static int read_maps(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct code_image *img)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = d && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	img->maps = calloc(count ? count : 1, sizeof(*img->maps));
	if (!img->maps)
		return -1;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym s;
		const char *name;
		if (!gelf_getsym(d, (int)i, &s) || !(name = elf_strptr(elf, sh->sh_link, s.st_name)))
			continue;
		if (name[0] != '$' || !strchr("tad", name[1]) || (name[2] && name[2] != '.'))
			continue;
		img->maps[img->n_maps].addr = (uint32_t)s.st_value;
		img->maps[img->n_maps++].data = name[1] == 'd';
	}
	qsort(img->maps, img->n_maps, sizeof(*img->maps), cmp_map);
	return 0;
}

/* One allocated section: kept, and counted as `size` counts it (binutils size.c berkeley_sum:
 * SEC_CODE or SEC_READONLY is text, else SEC_HAS_CONTENTS is data, else bss). */
static int add_section(struct code_image *img, const GElf_Shdr *sh, const char *name, size_t file_len)
{
	struct code_section *s = &img->sections[img->n_sections];
	bool nobits = sh->sh_type == SHT_NOBITS;

	if (!(sh->sh_flags & SHF_ALLOC) || !sh->sh_size)
		return 0;
	if (!nobits && (sh->sh_offset > file_len || sh->sh_size > file_len - sh->sh_offset))
		return -1;
	if ((sh->sh_flags & SHF_EXECINSTR) || !(sh->sh_flags & SHF_WRITE))
		img->text += sh->sh_size;
	else if (!nobits)
		img->data += sh->sh_size;
	else
		img->bss += sh->sh_size;
	str_fmt_cut(s->name, sizeof(s->name), "%s", name);
	s->addr = (uint32_t)sh->sh_addr;
	s->size = (uint32_t)sh->sh_size;
	s->exec = sh->sh_flags & SHF_EXECINSTR;
	s->data = nobits ? NULL : img->file + sh->sh_offset;
	img->n_sections++;
	return 0;
}

int code_image_open(const char *path, struct code_image *img, struct bench_error *err)
{
	size_t len, shstrndx, n;
	Elf *elf;
	Elf_Scn *scn = NULL;
	int bad = 0;

	memset(img, 0, sizeof(*img));
	if (elf_version(EV_CURRENT) == EV_NONE || !(img->file = slurp(path, &len)))
		return bench_fail(err, BENCH_E_FILE, "cannot read %s for its code size: check the file", path);
	elf = elf_memory((char *)img->file, len);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &n) ||
	    !(img->sections = calloc(n ? n : 1, sizeof(*img->sections)))) {
		if (elf)
			elf_end(elf);
		code_image_close(img);
		return bench_fail(err, BENCH_E_ELF, "%s: unreadable sections: rebuild the firmware", path);
	}
	while (!bad && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			bad = 1;
		else if (sh.sh_type == SHT_SYMTAB)
			bad = read_maps(elf, scn, &sh, img);
		else
			bad = add_section(img, &sh, name, len);
	}
	elf_end(elf);
	if (bad) {
		code_image_close(img);
		return bench_fail(err, BENCH_E_ELF, "%s: a section that does not fit the file: rebuild the firmware",
		                  path);
	}
	return 0;
}

void code_image_close(struct code_image *img)
{
	free(img->sections);
	free(img->maps);
	free(img->file);
	memset(img, 0, sizeof(*img));
}

const struct code_section *code_image_section(const struct code_image *img, uint32_t addr)
{
	for (size_t i = 0; i < img->n_sections; i++)
		if (addr >= img->sections[i].addr && addr - img->sections[i].addr < img->sections[i].size)
			return &img->sections[i];
	return NULL;
}

bool code_image_is_data(const struct code_image *img, uint32_t addr)
{
	size_t lo = 0, hi = img->n_maps;

	/* The last mapping symbol at or below addr decides. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->maps[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && img->maps[lo - 1].data;
}
