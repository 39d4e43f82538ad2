/* See core_check.h. Which architectures each core executes, as data: Cortex-M0/M0+ ARMv6-M
 * (DDI 0432C, 1.3), M3 ARMv7-M (DDI 0337I, 1.2), M4 and M7 ARMv7E-M (DDI 0439B, 1.2), M23
 * ARMv8-M baseline, M33/M35P ARMv8-M mainline, M55/M85 ARMv8.1-M. Each architecture is a
 * superset of the ones below it on its line (ARMv7-M ARM A1.2: ARMv6-M code runs on ARMv7-M). */
#include "firmware/core_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/str.h"

/* Tag_CPU_arch values (elf.h) */
#define ARCH_V7   10
#define ARCH_V6M  11
#define ARCH_V6SM 12
#define ARCH_V7EM 13
#define ARCH_V8MB 16
#define ARCH_V8MM 17
#define ARCH_V81M 21

static const struct core_arch {
	const char *core; /* board.json "core", compared up to its length ("cortex-m4" covers "cortex-m4f") */
	int native;
	int runs[6]; /* architectures whose code it executes, 0-terminated */
} cores[] = {
    {"cortex-m0", ARCH_V6M, {ARCH_V6M, ARCH_V6SM}},
    {"cortex-m1", ARCH_V6M, {ARCH_V6M, ARCH_V6SM}},
    {"cortex-m3", ARCH_V7, {ARCH_V6M, ARCH_V6SM, ARCH_V7}},
    {"cortex-m4", ARCH_V7EM, {ARCH_V6M, ARCH_V6SM, ARCH_V7, ARCH_V7EM}},
    {"cortex-m7", ARCH_V7EM, {ARCH_V6M, ARCH_V6SM, ARCH_V7, ARCH_V7EM}},
    {"cortex-m23", ARCH_V8MB, {ARCH_V6M, ARCH_V6SM, ARCH_V8MB}},
    {"cortex-m33", ARCH_V8MM, {ARCH_V6M, ARCH_V6SM, ARCH_V7, ARCH_V7EM, ARCH_V8MB, ARCH_V8MM}},
    {"cortex-m35p", ARCH_V8MM, {ARCH_V6M, ARCH_V6SM, ARCH_V7, ARCH_V7EM, ARCH_V8MB, ARCH_V8MM}},
    {"cortex-m55", ARCH_V81M, {ARCH_V6M, ARCH_V6SM, ARCH_V7, ARCH_V7EM, ARCH_V8MB, ARCH_V8MM}},
};

static const struct core_arch *find_core(const char *core)
{
	const struct core_arch *best = NULL;
	for (size_t i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		if (!strncmp(core, cores[i].core, strlen(cores[i].core)) &&
		    (!best || strlen(cores[i].core) > strlen(best->core)))
			best = &cores[i];
	return best;
}

static bool runs(const struct core_arch *c, int arch)
{
	if (arch == c->native)
		return true;
	for (size_t i = 0; i < sizeof(c->runs) / sizeof(c->runs[0]) && c->runs[i]; i++)
		if (c->runs[i] == arch)
			return true;
	return false;
}

int core_check_firmware(const struct elf_file *e, const struct board *b, char *warning, size_t len,
                        struct bench_error *err)
{
	const struct core_arch *c = find_core(b->core);

	warning[0] = '\0';
	if (e->machine != EM_ARM)
		return 0; /* a TriCore image: run.c's check_arch matches it with the board */
	if (e->cpu_profile && e->cpu_profile != 'M' && e->cpu_profile != 'S')
		return bench_fail(err, BENCH_E_ARCH,
		                  "%s is built for an Arm %c-profile core, board %s has a %s: build it for Cortex-M "
		                  "(-mcpu=%s -mthumb)",
		                  e->path, e->cpu_profile, b->name, b->core, c ? c->core : "cortex-m4");
	/* The reset handler's address is a Thumb function's: bit 0 set (B1.5.3). 0 and 0xFFFFFFFF are
	 * no vector table (erased flash, an image that starts elsewhere). Only checked when the
	 * lowest loaded section starts the board's flash, where the core fetches its vectors. */
	if (e->has_vectors && e->vectors_addr == b->flash_base && e->vectors[1] && e->vectors[1] != 0xFFFFFFFFu &&
	    !(e->vectors[1] & 1u))
		return bench_fail(
		    err, BENCH_E_ARCH,
		    "%s: the reset vector 0x%08x at 0x%08x has no Thumb bit (bit 0): a Cortex-M core faults "
		    "(INVSTATE) before its first instruction; put the handler's function symbol in the "
		    "vector table",
		    e->path, e->vectors[1], e->vectors_addr + 4u);
	if (!c || e->cpu_arch < 0)
		return 0; /* a core or an image this table does not know: nothing to say */
	if (!runs(c, e->cpu_arch))
		return bench_fail(
		    err, BENCH_E_ARCH,
		    "%s is built for %s, which the %s of board %s does not execute (its instructions would "
		    "fault): build it with -mcpu=%s",
		    e->path, elf_arch_name(e->cpu_arch), b->core, b->name, c->core);
	if (e->cpu_arch != c->native && !(c->native == ARCH_V7EM && e->cpu_arch == ARCH_V7))
		str_fmt_cut(warning, len,
		            "%s is built for %s but board %s has a %s (%s): the cycles are this core's, not those of a "
		            "core the image was built for",
		            e->path, elf_arch_name(e->cpu_arch), b->name, b->core, elf_arch_name(c->native));
	return 0;
}
