/* The values --arg may write into a variable (dwarf.h): its DWARF type's range, or what its symbol
 * size holds when the ELF has no type for it; a type that is no integer is refused by its name. */
#include <stdio.h>

#include "firmware/dwarf.h"

bool dwarf_type_range(const struct dwarf_type *t, int64_t *lo, int64_t *hi)
{
	unsigned bits = 8 * t->size;

	if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
		return false;
	switch (t->kind) {
	case DWARF_BOOL:
		*lo = 0, *hi = 1;
		return true;
	case DWARF_SIGNED:
		*lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
		*hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
		return true;
	case DWARF_UNSIGNED: /* the values --arg takes are int64s */
		*lo = 0;
		*hi = bits == 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << bits) - 1);
		return true;
	case DWARF_FLOAT:
	case DWARF_OTHER:
		break;
	}
	return false;
}

int dwarf_input_range(const struct elf_file *e, const char *name, unsigned size, int64_t *lo, int64_t *hi, char *what,
                      size_t len)
{
	static const char *const kinds[] = {"signed", "unsigned", "bool", "floating point", "not an integer"};
	struct dwarf_type t;

	/* A type that is no integer is refused whatever the sizes say (an array has no DW_AT_byte_size). */
	if (dwarf_var_type(e, name, &t) == 0 && (t.size == size || t.kind == DWARF_OTHER || t.kind == DWARF_FLOAT)) {
		(void)snprintf(what, len, "%s: %u byte%s, %s, from the ELF's DWARF", t.name[0] ? t.name : "?", size,
		               size == 1 ? "" : "s", kinds[t.kind]);
		return dwarf_type_range(&t, lo, hi) ? 0 : -1;
	}
	/* No type: SIZE bytes hold -2^(8 SIZE - 1) .. 2^(8 SIZE) - 1, one way or the other. */
	*lo = size >= 8 ? INT64_MIN : -((int64_t)1 << (8 * size - 1));
	*hi = size >= 8 ? INT64_MAX : (int64_t)(((uint64_t)1 << (8 * size)) - 1);
	(void)snprintf(what, len, "%u byte%s by its symbol size; no DWARF type for it in the ELF says whether signed",
	               size, size == 1 ? "" : "s");
	return 0;
}
