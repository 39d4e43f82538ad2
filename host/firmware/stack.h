/* Where the stack may grow to (bench run --stack, docs/run.md "Stack depth"): the lowest address a
 * stretch's stack may reach, from the linker symbols the usual scripts define or from
 * --stack-limit. bench paints the stack from there up to the stack pointer at BEGIN and scans it at
 * END (run/loop_stack.c). */
#ifndef HOST_FIRMWARE_STACK_H
#define HOST_FIRMWARE_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "firmware/elf.h"

struct stack_limit {
	uint32_t addr;   /* the lowest byte the stack may use */
	char source[64]; /* "--stack-limit", "_sstack", "_estack - _Min_Stack_Size", ... */
};

/* The limit from ELF's symbols, in this order: _sstack (this project's target/port/cortex-m/
 * sections.ld), __StackLimit (CMSIS's gcc_arm.ld), __stack_limit, _stack_limit, then
 * _estack - _Min_Stack_Size (STM32CubeMX scripts: newlib's _sbrk in CubeMX's sysmem.c stops the
 * heap there). BENCH_E_USAGE (exit 2) when none is there, naming --stack-limit. */
int stack_limit_from_elf(const struct elf_file *elf, const char *firmware, struct stack_limit *out,
                         struct bench_error *err);
/* Parses --stack-limit ADDR (0x... or decimal, word-aligned up). BENCH_E_USAGE when not a 32-bit number. */
int stack_limit_parse(const char *text, struct stack_limit *out, struct bench_error *err);

#endif /* HOST_FIRMWARE_STACK_H */
