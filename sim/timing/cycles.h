/* Cortex-M4 cycle model (Cortex-M4 TRM r0p1, section 3.3 "Processor instruction timings", and the
 * FPU instruction-timing table in section 7.2.3). The core calls it once per translated block to get
 * the block's static costs, decoded once with capstone and cached by address; dynamic parts (taken
 * branches, divide operands, exceptions) are charged through the calls below. */
#ifndef SIM_CYCLES_H
#define SIM_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/cycles_dyn.h"
#include "timing/cycles_why.h"

#define CYC_MAX_BLOCK_INSN 512

/* The prefetch buffer as a block is entered (cycles.c, the fetch model): how many of its three
 * words are missing (0..3), plus CYC_FETCH_STEAL when the fetch slot of the block's first cycle
 * went to the speculative fetch of a not-taken conditional branch's target. Full (0) is the state
 * a block's static costs assume. */
enum cyc_fetch {
	CYC_FETCH_FULL = 0,  /* execution ran into the block from one that left the buffer full */
	CYC_FETCH_EMPTY = 3, /* after a taken branch, an exception entry or return, a reset */
	CYC_FETCH_STEAL = 4,
	CYC_FETCH_STATES = 8,
};

/* One part of a block's static cost for the ledger: instruction `insn` of the block, `cycles`
 * under reason `why` (enum cyc_why). Every instruction has its CYC_WHY_ISSUE charge first (0
 * cycles for a folded IT: one per execution), then its other reasons in enum order, the fetch
 * waits last. */
struct cyc_charge {
	uint16_t insn;
	uint8_t why;
	uint8_t cycles;
};

/* The fields the core reads at every block come first, in one cache line (cycles.c allocates a
 * block 64-byte aligned); the per-instruction arrays and the DWT shares after them. */
struct cyc_block {
	uint32_t addr; /* address of the first instruction (Thumb bit clear) */
	uint32_t size; /* bytes */
	uint16_t n_insn;
	uint32_t total;              /* static cycles of the whole block, as if every branch falls through */
	uint32_t branch_taken_extra; /* refill cycles when the block's final branch is taken */
	uint32_t fallthrough;        /* address after the block */
	/* cyc_skip_saving() of the last instruction when it is conditional (else 0), from its rule
	 * cost without fetch stalls: what the core takes off when the block falls through
	 * (CYC_DYN_CONDITIONAL), worked out once. */
	uint32_t fallthrough_saving;
	/* entry_extra[s]: the fetch stalls of entering the block in state s (enum cyc_fetch) beyond
	 * those in its static costs, which assume a full buffer (entry_extra[CYC_FETCH_FULL] is 0):
	 * entered by a branch, a 32-bit first instruction that is not word aligned waits for its second
	 * word. The core adds it. exit_state[s]: the state the block, entered in state s, leaves to the
	 * block execution runs into after it (a not-taken B<cc> adds CYC_FETCH_STEAL). */
	uint8_t entry_extra[CYC_FETCH_STATES];
	uint8_t exit_state[CYC_FETCH_STATES];
	/* cost_before[i]: static cycles of instructions 0..i-1; cost_before[n_insn] == total.
	 * The cycle counter seen at instruction i is block_start_cycles + cost_before[i]. */
	uint32_t *cost_before;
	uint16_t *insn_offset; /* byte offset of instruction i from addr */
	uint8_t *dyn;          /* enum cyc_dyn per instruction */
	uint8_t *cond;         /* condition per instruction, Armv7-M ARM A7.3 (0 EQ .. 13 LE), 14 always */
	uint8_t *aux;          /* CYC_DYN_DIVIDE: dividend register << 4 | divisor register */
	/* DWT event counter contributions (Armv7-M ARM C1.8.6): the extra cycles the DWT's 8-bit
	 * counters see. Instructions folded (IT) count in FOLDCNT, load/store extra cycles in LSUCNT,
	 * multi-cycle instruction extras in CPICNT. */
	uint32_t cpi_extra, lsu_extra, fold_count;
	/* The ledger's view (cycles_why.h), read only when a ledger is on: instruction i's charges are
	 * charges[charge_first[i]] .. charges[charge_first[i + 1] - 1] (they sum to cost_before[i + 1]
	 * - cost_before[i]); by_why the block's total split the same way (sum_why: the n_sum_why
	 * reasons it has, for a cheap totals-only ledger). taken_why: the reason of
	 * branch_taken_extra (the final branch's kind). entry_why: of entry_extra (fetch-unaligned
	 * when the first instruction is 32-bit at an address 2 mod 4, else fetch-buffer), charged to
	 * the first instruction. fail_issue: the last instruction's ISSUE cycles when it fails its
	 * condition (fallthrough_saving taken off; its other rule reasons are then 0, its fetch waits
	 * stay). */
	struct cyc_charge *charges;
	uint16_t *charge_first;
	uint32_t by_why[CYC_WHY_N];
	uint8_t sum_why[CYC_WHY_N];
	uint8_t n_sum_why;
	uint8_t taken_why, entry_why, fail_issue;
};

/* Cycles of charge k of b when the block's conditional last instruction failed (fail_issue for
 * its ISSUE, 0 for its other rule reasons, the fetch waits as they are). */
static inline uint32_t cyc_failed_charge(const struct cyc_block *b, uint32_t k)
{
	const struct cyc_charge *ch = &b->charges[k];
	if (ch->insn + 1u != b->n_insn || ch->why == CYC_WHY_FETCH_BUFFER || ch->why == CYC_WHY_FETCH_UNALIGNED)
		return ch->cycles;
	return ch->why == CYC_WHY_ISSUE ? b->fail_issue : 0u;
}

struct cyc_model;

struct cyc_model *cyc_new(void);
void cyc_free(struct cyc_model *m);

/* Static costs of the block at addr; code points at its `size` bytes. Cached by (addr, size):
 * decoded once, a hit does not look at `code`. NULL when out of memory or code is NULL. */
const struct cyc_block *cyc_lookup(struct cyc_model *m, uint32_t addr, const uint8_t *code, uint32_t size);
/* Drop cached blocks overlapping [addr, addr+size): after flash or RAM code is rewritten. They are
 * freed: pointers cyc_lookup returned for them are invalid from here on. */
void cyc_invalidate(struct cyc_model *m, uint32_t addr, uint32_t size);

/* Cycles saved when instruction i of b fails its condition: it then costs 1 (table 3-1). */
uint32_t cyc_skip_saving(const struct cyc_block *b, unsigned i);

/* Exception entry / return (TRM 3.3: 12 cycles entry, 10 return with zero-wait-state memory;
 * more when the FPU context is stacked; tail-chaining 6). */
uint32_t cyc_exception_entry(const struct cyc_model *m, bool fp_stacked);
uint32_t cyc_exception_return(const struct cyc_model *m, bool fp_unstacked);
uint32_t cyc_tail_chain(const struct cyc_model *m);

#endif /* SIM_CYCLES_H */
