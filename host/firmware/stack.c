/* The stack's limit from the firmware's linker symbols or the command line (firmware/stack.h). */
#include "firmware/stack.h"

#include <errno.h>
#include <stdlib.h>

#include "base/str.h"

/* Symbols that are the limit itself, in the order they are tried. */
static const char *const limit_syms[] = {"_sstack", "__StackLimit", "__stack_limit", "_stack_limit"};

/* A stack grows down in full-descending words (Armv7-M ARM B1.5.6; AAPCS 5.2.1.1): the lowest
 * whole word at or above ADDR. */
static uint32_t word_up(uint32_t addr)
{
	return addr > UINT32_MAX - 3u ? addr & ~3u : (addr + 3u) & ~3u;
}

int stack_limit_from_elf(const struct elf_file *elf, const char *firmware, struct stack_limit *out,
                         struct bench_error *err)
{
	const struct elf_symbol *top, *size;

	for (size_t i = 0; i < sizeof(limit_syms) / sizeof(limit_syms[0]); i++) {
		const struct elf_symbol *s = elf_symbol(elf, limit_syms[i]);
		if (s) {
			out->addr = word_up(s->addr);
			(void)str_copy(out->source, sizeof(out->source), limit_syms[i]);
			return 0;
		}
	}
	/* CubeMX: `_estack = ORIGIN(RAM) + LENGTH(RAM); _Min_Stack_Size = 0x400;` (an absolute symbol
	 * whose value is the size) and ._user_heap_stack reserves it above the heap. */
	top = elf_symbol(elf, "_estack");
	size = elf_symbol(elf, "_Min_Stack_Size");
	if (top && size && size->addr <= top->addr) {
		out->addr = word_up(top->addr - size->addr);
		(void)str_copy(out->source, sizeof(out->source), "_estack - _Min_Stack_Size");
		return 0;
	}
	return bench_fail(err, BENCH_E_USAGE,
	                  "--stack: %s names no stack limit (none of _sstack, __StackLimit, __stack_limit, "
	                  "_stack_limit, or _estack with _Min_Stack_Size): give the lowest stack address "
	                  "with --stack-limit ADDR",
	                  firmware);
}

int stack_limit_parse(const char *text, struct stack_limit *out, struct bench_error *err)
{
	char *end = NULL;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || !end || end == text || *end || text[0] == '-' || v > UINT32_MAX)
		return bench_fail(err, BENCH_E_USAGE,
		                  "--stack-limit '%s': expected an address, e.g. --stack-limit 0x2001e000", text);
	out->addr = word_up((uint32_t)v);
	(void)str_copy(out->source, sizeof(out->source), "--stack-limit");
	return 0;
}
