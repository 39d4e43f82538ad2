/* Exact profiles on the virtual board (bench run --profile, docs/profile.md): the cycle ledger bench-sim
 * writes at every halt (docs/sim-record.md), routed to the marker pairs it belongs to and summed per
 * result (pair and input), then counted per instruction, function, call stack and source line. The
 * run loop hands over each halt's record (profile_exact_node/_cell/_enter) and then says which marker
 * it halted on (profile_exact_halt); the record reader itself is the session's. */
#ifndef HOST_PROFILE_PROFILE_EXACT_H
#define HOST_PROFILE_PROFILE_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "firmware/elf.h"
#include "firmware/markers.h"
#include "profile/profile.h"
#include "profile/profile_ledger.h"
#include "results/results.h"

#define PROFILE_EXACT_PAIRS 64 /* open marker pairs at once, as the loop's LOOP_MAX_PENDING */

/* What was summed for one result. */
struct profile_exact_result {
	char name[BENCH_NAME_MAX];
	struct bench_arg args[BENCH_MAX_ARGS];
	size_t n_args;
	struct profile_ledger l;     /* every stretch summed */
	struct profile_ledger first; /* the first stretch alone */
	uint64_t stretches;
	bool differ;    /* a stretch ran otherwise than the first: the profile is of the sum */
	char note[256]; /* the first thing not exact about it, "" when none */
};

struct profile_exact_pair {
	bool open;
	uint16_t id;
	uint32_t begin_addr; /* the BEGIN marker's BKPT */
	struct profile_ledger l;
};

struct profile_exact {
	char (*reasons)[32];
	size_t n_reasons;
	struct profile_node *nodes; /* by id */
	size_t n_nodes;
	struct profile_ledger since; /* the records since the last marker halt */
	struct profile_ledger cal;   /* the first calibration pair's (CAL_BEGIN..CAL_END) */
	bool have_cal;
	struct profile_exact_pair pairs[PROFILE_EXACT_PAIRS];
	struct profile_exact_result *results;
	size_t n_results;
};

void profile_exact_init(struct profile_exact *x);
void profile_exact_free(struct profile_exact *x);
/* The ledger's reason names, in the order of every record's cycles (the record's header). -1 when
 * out of memory or more than PROFILE_REASONS_MAX. */
int profile_exact_reasons(struct profile_exact *x, const char *const *names, size_t n);
/* A calling-context node (ids from 0, each once, parent before child; parent -1: the root). */
int profile_exact_node(struct profile_exact *x, uint32_t id, int64_t parent, uint32_t entry, int exc);
/* One record line: instruction addr ran execs times in node with cycles[n_reasons]; node entered. */
int profile_exact_cell(struct profile_exact *x, uint32_t node, uint32_t addr, uint64_t execs, const uint64_t *cycles);
int profile_exact_enter(struct profile_exact *x, uint32_t node, uint64_t count);
/* The halt the records so far end at was marker m (NULL: no marker, e.g. a --stop breakpoint: see
 * profile_exact_span). The records go to every pair open; a BEGIN opens its pair; an END closes it,
 * takes the calibration off and, unless `warm`, adds it to the result (m's name, args). -1 when out
 * of memory. */
int profile_exact_halt(struct profile_exact *x, const struct marker *m, bool warm, const struct bench_arg *args,
                       size_t n_args);
/* --start/--stop: the records since the last halt are one stretch of result `name` (no calibration:
 * nothing is subtracted there, as the loop subtracts nothing). */
int profile_exact_span(struct profile_exact *x, const char *name, bool warm);
/* The records since the last halt belong to no stretch (a reset, the --start halt): dropped. */
void profile_exact_drop(struct profile_exact *x);

/* Every result's profile into rep->profiles (after those already there), counted with the ELF's
 * symbols and lines (elf_path's DWARF). 0 or a negated bench_err. */
int profile_exact_to_report(const struct profile_exact *x, const char *elf_path, const struct elf_file *elf,
                            struct bench_report *rep, struct bench_error *err);
/* One result's profile (profile_exact_agg.c). -1 when out of memory. */
int profile_exact_aggregate(const struct profile_exact *x, const struct profile_exact_result *res,
                            const struct elf_file *elf, struct profile_lines *lines, struct bench_profile *out);

#endif /* HOST_PROFILE_PROFILE_EXACT_H */
