/* What type a firmware's global variable has, from the ELF's DWARF (.debug_info, .debug_abbrev,
 * .debug_str, .debug_line_str; versions 2 to 5, 32-bit DWARF), so `--arg` can refuse a value the
 * variable cannot hold (-100 into a uint8_t is stored as 156) and say the variable's range. Only
 * what that needs is read: variables, and the base, typedef, cv-qualified, enumeration and pointer
 * types they name. */
#ifndef HOST_FIRMWARE_DWARF_H
#define HOST_FIRMWARE_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_file;

enum dwarf_kind {
	DWARF_SIGNED,   /* DW_ATE_signed, DW_ATE_signed_char; an enumeration with a signed base */
	DWARF_UNSIGNED, /* DW_ATE_unsigned, DW_ATE_unsigned_char, a pointer, an enumeration */
	DWARF_BOOL,     /* DW_ATE_boolean: 0 or 1 */
	DWARF_FLOAT,    /* DW_ATE_float: --arg writes integers */
	DWARF_OTHER,    /* a struct, an array, ...: not an integer */
};

struct dwarf_type {
	char name[64]; /* as the variable is declared, e.g. "uint8_t" (the first named type) */
	unsigned size; /* bytes (DW_AT_byte_size) */
	enum dwarf_kind kind;
};

/* The type of the global variable NAME. 0 when the ELF's DWARF describes it; -1 when there is no
 * DWARF (built without -g), no such variable in it, or the DWARF is of a form not read here. */
int dwarf_var_type(const struct elf_file *e, const char *name, struct dwarf_type *out);
/* The values a type holds: [lo, hi]. false for a float or other non-integer type, or a size not
 * 1, 2, 4 or 8. */
bool dwarf_type_range(const struct dwarf_type *t, int64_t *lo, int64_t *hi);

/* The values --arg may write into the SIZE-byte variable NAME: from its DWARF type when there is
 * one of that size, else every value SIZE bytes hold signed or unsigned. WHAT describes the type
 * and where it came from ("uint8_t: 1 byte, unsigned, from the ELF's DWARF"). -1 when the type is
 * no integer (a float, a struct): WHAT names it. */
int dwarf_input_range(const struct elf_file *e, const char *name, unsigned size, int64_t *lo, int64_t *hi, char *what,
                      size_t len);

#endif /* HOST_FIRMWARE_DWARF_H */
