/* Exact profiles (docs/profile.md "On the virtual board: exact"): the virtual board's cycle ledger as
 * bench keeps it. bench-sim writes, at every halt, what ran since the resume before: per calling-
 * context node and instruction address the executions and the cycles under each reason, and the
 * times each node was entered (docs/sim-record.md). A profile_ledger sums such intervals: one
 * stretch, then all the stretches of a result. It knows neither the record file nor the ELF. */
#ifndef HOST_PROFILE_PROFILE_LEDGER_H
#define HOST_PROFILE_PROFILE_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROFILE_REASONS_MAX 32u

/* A calling context: the root (the reset handler), a function entered by BL/BLX, or an exception's
 * handler (exc > 0, its exception number), below the context it was entered from. */
struct profile_node {
	int64_t parent; /* -1 for the root */
	uint32_t entry; /* the function's (or handler's) first instruction, Thumb bit clear */
	int exc;        /* 0: a call or the root; N: exception N's handler */
	int depth;      /* nodes from the root (the root: 0) */
	uint64_t enters;
};

/* One (node, instruction) of a ledger. */
struct profile_cell {
	uint32_t node, addr;
	uint64_t execs;
};

struct profile_ledger {
	size_t n_reasons;
	struct profile_cell *cells;
	uint64_t *cycles; /* n_reasons a cell, cell i's at cycles[i * n_reasons] */
	size_t n, cap;
	size_t *slots; /* open addressing: cell index + 1, 0 empty */
	size_t n_slots;
	uint64_t *enters; /* by node id */
	size_t n_enters;
	uint64_t total; /* every cycle of every cell */
};

void profile_ledger_init(struct profile_ledger *l, size_t n_reasons);
void profile_ledger_free(struct profile_ledger *l);
/* Empties l, keeping its memory. */
void profile_ledger_clear(struct profile_ledger *l);
/* Adds execs and cycles[n_reasons] at (node, addr). -1 when out of memory. */
int profile_ledger_add(struct profile_ledger *l, uint32_t node, uint32_t addr, uint64_t execs, const uint64_t *cycles);
/* Node `node` was entered count more times. -1 when out of memory. */
int profile_ledger_enter(struct profile_ledger *l, uint32_t node, uint64_t count);
/* dst += src (the same reasons). -1 when out of memory. */
int profile_ledger_merge(struct profile_ledger *dst, const struct profile_ledger *src);
/* Whether a and b hold the same cells with the same executions and cycles, and the same entries:
 * two stretches that ran alike. */
bool profile_ledger_equal(const struct profile_ledger *a, const struct profile_ledger *b);
/* The cycles of cell i under reason r. */
uint64_t profile_ledger_cycles(const struct profile_ledger *l, size_t i, size_t r);

/* Takes the calibrated empty pair's ledger `cal` off a stretch's, reason by reason, so that the
 * stretch's total is its sample (the END count minus the BEGIN count minus the calibration, as the
 * marker loop computes it). The empty pair runs only its END BKPT after the resume, so its cycles are
 * the marker's own and the resume's (the prefetch refill after Debug state): they come off the
 * stretch's END marker at end_addr first, then off its first instruction at first_addr (where the
 * resume's refill lands), then off any instruction in address order. A marker instruction left with
 * no cycle is dropped. Returns 0; 1 when the stretch had fewer cycles under a reason than the
 * calibration, so some came off other reasons (the total is still the sample's; the reasons are
 * flagged); 2, l untouched, when the stretch has fewer cycles than the calibration at all (a
 * negative sample); -1 when out of memory. */
int profile_ledger_take(struct profile_ledger *l, const struct profile_ledger *cal, uint32_t end_addr,
                        uint32_t first_addr);

#endif /* HOST_PROFILE_PROFILE_LEDGER_H */
