/* Statistical profiles (bench run --profile, docs/profile.md): the PC sampled without halting the
 * core while a BEGIN..END stretch runs, through DWT_PCSR (Armv7-M ARM C1.8.8), kept per marker pair,
 * then counted per function (the ELF's symbols) and per source line (DWARF, elfutils libdw) with
 * the binomial standard error of each share. The writers put the result on the console, in folded
 * stacks (flamegraph.pl, speedscope) and in a callgrind file (callgrind_annotate, KCachegrind). */
#ifndef HOST_PROFILE_PROFILE_H
#define HOST_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "firmware/board.h"
#include "firmware/elf.h"
#include "results/results.h"

/* DWT_PCSR: the address of a recently executed instruction, read while the core runs; it reads
 * 0xFFFFFFFF while the core is halted or in Debug state (Armv7-M ARM C1.8.8, table C1-21). */
#define PROFILE_PCSR_ADDR   0xE000101Cu
#define PROFILE_PCSR_HALTED 0xFFFFFFFFu

/* The raw samples of one marker pair. */
struct profile_stretch {
	char name[BENCH_NAME_MAX];
	uint32_t *pcs;
	size_t n, cap;
	uint64_t discarded; /* reads of PROFILE_PCSR_HALTED */
	double seconds;     /* host time spent sampling it */
};

struct profile {
	struct profile_stretch *stretches;
	size_t n;
};

void profile_init(struct profile *p);
void profile_free(struct profile *p);
/* The stretch of that name, added when new; NULL when out of memory. */
struct profile_stretch *profile_stretch(struct profile *p, const char *name);
/* Keeps one PCSR read: PROFILE_PCSR_HALTED counts as discarded. -1 when out of memory. */
int profile_add(struct profile_stretch *s, uint32_t pcsr);

/* Where the board can sample its PC without halting: 0, or BENCH_E_USAGE naming what is missing
 * (a board whose counter is not the DWT's, a QEMU or TriCore board). */
int profile_check_board(const struct board *b, struct bench_error *err);

/* Source lines from the ELF's DWARF (profile_lines.c); lines_open fails soft: without DWARF (or
 * without libdw in the build) every lookup answers "" and 0. */
struct profile_lines;
struct profile_lines *profile_lines_open(const char *elf_path);
void profile_lines_close(struct profile_lines *l);
/* The file and line of the instruction at addr; false when unknown. */
bool profile_lines_find(struct profile_lines *l, uint32_t addr, const char **file, unsigned *line);

/* Counts one stretch per function and per line into out (which the caller frees with
 * results_profile_free): functions most samples first (ties by name), each with its share, its
 * binomial standard error and cycles scaled to mean_cycles; lines with integer cycles that add up to
 * round(mean_cycles). mean_cycles < 0: unknown (out->cycles_known false, cycles 0). lines may be
 * NULL. -1 when out of memory. */
int profile_aggregate(const struct profile_stretch *s, const struct elf_file *elf, struct profile_lines *lines,
                      double mean_cycles, struct bench_profile *out);
/* profile_aggregate for every stretch of p into rep->profiles, each scaled to the mean of rep's
 * results of that name. 0 or a negated bench_err. */
int profile_to_report(const struct profile *p, const char *elf_path, const struct elf_file *elf,
                      struct bench_report *rep, struct bench_error *err);

/* The writers (profile_write.c). Each returns 0 or -1 on a failed write. */
/* The top `top` functions: function, samples, share +- error, cycles. */
int profile_print_top(FILE *out, const struct bench_profile *p, size_t top);
/* Folded stacks, one "pair;function samples" a line: leaf frames only (a PC sample has no stack). */
int profile_write_folded(FILE *out, const struct bench_profile *p);
/* Callgrind format (valgrind docs, "Callgrind Format Specification"): events Samples Cycles, one
 * fn= record per function with its lines' costs. */
int profile_write_callgrind(FILE *out, const struct bench_profile *p, const char *cmd);
/* Exact profiles (source "ledger", profile_write_exact.c): the top `top` functions by exclusive
 * cycles with share, inclusive cycles, calls, instructions and their three main reasons; folded
 * stacks "label;frame;...;frame cycles" (the label: pair[input=V]); callgrind with events Cycles, Ir
 * and one per reason, positions "instr line", and calls with their inclusive costs. */
int profile_print_top_exact(FILE *out, const struct bench_profile *p, size_t top);
int profile_write_folded_exact(FILE *out, const struct bench_profile *p);
int profile_write_callgrind_exact(FILE *out, const struct bench_profile *p, const char *cmd);
/* Fills p's instructions' disassembly from the ELF at elf_path (profile_disasm.c); -1 when the
 * ELF cannot be read (the instructions keep "" then). */
int profile_disasm(struct bench_profile *p, const char *elf_path);
/* "fut[input=3]", or the pair's name without inputs. */
void profile_label(const struct bench_profile *p, char *out, size_t len);
/* Profiles (and per-input differences) the console shows at most; the files and the JSON have all. */
#define PROFILE_CONSOLE_MAX 8
/* For each pair with exact profiles of several inputs, each input's cycles per function beside the
 * first input's, and the difference (profile_diff.c), at most PROFILE_CONSOLE_MAX of them. */
int profile_print_input_diffs(FILE *out, const struct bench_report *rep);

/* PREFIX.folded and PREFIX.callgrind for every profile of rep (PREFIX.<pair>.* when there are
 * several; PREFIX.<pair>.<name>=<value>.* for an exact profile of an input), and the top-10 table
 * on out unless out is NULL. 0 or a negated bench_err (BENCH_E_IO). */
int profile_write_all(const struct bench_report *rep, const char *prefix, FILE *out, struct bench_error *err);

#endif /* HOST_PROFILE_PROFILE_H */
