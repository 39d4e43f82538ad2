/* What the firmware's image holds, for code size (issue 24, docs/reports.md "Code size"): its
 * allocated sections with their bytes, the Arm mapping symbols that tell code from data inside
 * them, and the image's size as binutils' `size` prints it (Berkeley format). Read with libelf,
 * apart from elf.c, which keeps no section bytes. */
#ifndef HOST_FIRMWARE_CODE_IMAGE_H
#define HOST_FIRMWARE_CODE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct code_section {
	char name[32];
	uint32_t addr, size;
	bool exec;           /* SHF_EXECINSTR */
	const uint8_t *data; /* NULL for NOBITS */
};

/* An Arm mapping symbol (IHI 0044 "ELF for the Arm Architecture", 5.5.5): from addr on, the
 * section holds code ($t, $a) or data ($d). */
struct code_map {
	uint32_t addr;
	bool data;
};

struct code_image {
	struct code_section *sections;
	size_t n_sections;
	struct code_map *maps; /* sorted by addr */
	size_t n_maps;
	uint8_t *file; /* the whole file, which the sections point into */
	/* `size` (GNU binutils, Berkeley format): text = allocated code or read-only sections, data =
	 * the other allocated ones with contents, bss = allocated without (SHT_NOBITS). */
	uint64_t text, data, bss;
};

/* Reads PATH. BENCH_E_FILE / BENCH_E_ELF on an unreadable or broken file. */
int code_image_open(const char *path, struct code_image *img, struct bench_error *err);
void code_image_close(struct code_image *img);
/* The section holding ADDR; NULL when none. */
const struct code_section *code_image_section(const struct code_image *img, uint32_t addr);
/* Whether ADDR is data by the mapping symbols (a literal pool inside a function). */
bool code_image_is_data(const struct code_image *img, uint32_t addr);

#endif /* HOST_FIRMWARE_CODE_IMAGE_H */
