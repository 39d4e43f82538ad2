/* The firmware ELF, read with libelf: the architecture check (EM_ARM, 32-bit little-endian),
 * symbols (for inputs, `bench_ctl`, --start/--stop and fault decoding), the `.bench_markers`
 * section (decoded by markers.c), the loadable segments, and the SHA-256 of the file for the
 * report's context. Nothing from the firmware is ever run on the host. TriCore ELFs (EM_TRICORE)
 * are read the same way: 32-bit little-endian, no Thumb bit. */
#ifndef HOST_FIRMWARE_ELF_H
#define HOST_FIRMWARE_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "firmware/markers.h"

struct elf_symbol {
	char *name;
	uint32_t addr; /* st_value; for functions with the Thumb bit cleared */
	uint32_t size;
	bool is_func;
};

struct elf_segment {
	uint32_t paddr, vaddr; /* load (LMA) and run (VMA) addresses */
	uint32_t filesz, memsz;
	uint32_t flags; /* PF_X | PF_W | PF_R */
};

/* The DWARF sections dwarf.c reads (a variable's type for --arg), copied; NULL when absent. Read
 * only when asked (elf_read_debug): a run without --arg copies none of them. */
struct elf_debug {
	uint8_t *info, *abbrev, *str, *line_str;
	size_t info_len, abbrev_len, str_len, line_str_len;
};

struct elf_file {
	char path[1024];
	char sha256[65]; /* lowercase hex */
	uint32_t entry;
	uint32_t flags;             /* e_flags: EF_ARM_ABI_FLOAT_HARD / _SOFT */
	uint16_t machine;           /* e_machine: EM_ARM or EM_TRICORE */
	struct elf_symbol *symbols; /* sorted by addr */
	size_t n_symbols;
	struct marker_set markers; /* empty when the ELF has no .bench_markers section */
	struct elf_segment *segments;
	size_t n_segments;
	/* Tag_CPU_arch of .ARM.attributes (IHI 0045 "Addenda to the ABI", 2.4): 11 v6-M, 10 v7(-M),
	 * 13 v7E-M, 16 v8-M.base, 17 v8-M.main, 21 v8.1-M.main; -1 when the ELF has none. */
	int cpu_arch;
	char cpu_profile; /* Tag_CPU_arch_profile: 'M', 'A', 'R', or 0 */
	/* The first two words of the lowest loaded section (the vector table in a Cortex-M image:
	 * initial SP and reset handler, Armv7-M ARM B1.5.3); has_vectors false when none has 8 bytes. */
	uint32_t vectors[2];
	uint32_t vectors_addr;
	bool has_vectors;
};

/* Opens and reads everything above. Errors: BENCH_E_FILE (missing/unreadable), BENCH_E_ELF (not an
 * ELF, or broken), BENCH_E_ARCH (not 32-bit little-endian EM_ARM or EM_TRICORE), BENCH_E_NO_MARKERS (a marker
 * section that does not decode). A firmware with no marker section opens fine (n == 0): the caller
 * decides whether it needs markers. Returns 0 or a negated bench_err. */
int elf_open(const char *path, struct elf_file *out, struct bench_error *err);
/* Copies PATH's DWARF sections into OUT (elf_debug_free() frees them); -1 when the file cannot
 * be read again or memory runs out, with OUT empty. A section absent or compressed stays NULL. */
int elf_read_debug(const char *path, struct elf_debug *out);
void elf_debug_free(struct elf_debug *d);
void elf_close(struct elf_file *e);
/* Lookup by exact name; NULL when absent. */
const struct elf_symbol *elf_symbol(const struct elf_file *e, const char *name);
/* "cortex-m" or "tricore": the core family of e_machine, as board.json's "arch" names it. */
const char *elf_arch(const struct elf_file *e);
/* The function or object containing addr, *offset set to addr - start; NULL when none. */
const struct elf_symbol *elf_symbol_at(const struct elf_file *e, uint32_t addr, uint32_t *offset);
/* Whether SYM can be a breakpoint's place (--start/--stop): a function, or a label without a size
 * in an executable segment; not an object (a size without STT_FUNC) nor anything in .data/.bss. */
bool elf_symbol_is_code(const struct elf_file *e, const struct elf_symbol *sym);
/* "fut+0x12", "main", or "0x08000123" when no symbol covers addr. */
void elf_describe_addr(const struct elf_file *e, uint32_t addr, char *out, size_t len);
/* "ARMv6-M", "ARMv7E-M", ... for cpu_arch; "unknown" otherwise. */
const char *elf_arch_name(int cpu_arch);
/* SHA-256 of a file as 64 lowercase hex digits + NUL. Returns 0 or a negated bench_err. */
int elf_sha256_file(const char *path, char out[65], struct bench_error *err);
/* SHA-256 of a buffer (FIPS 180-4), for tests and callers with bytes in memory. */
void elf_sha256(const void *data, size_t len, uint8_t digest[32]);

#endif /* HOST_FIRMWARE_ELF_H */
