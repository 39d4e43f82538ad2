/* Cortex-M4 cycle model (Cortex-M4 TRM r0p1, section 3.3 "Processor instruction timings", and the
 * FPU instruction-timing table in section 7.2.3). The core calls it once per translated block to get
 * the block's static costs, decoded once with capstone and cached by address; dynamic parts (taken
 * branches, divide operands, exceptions) are charged through the calls below. */
#ifndef SIM_CYCLES_H
#define SIM_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

#define CYC_MAX_BLOCK_INSN 512

/* Flags of an instruction whose cost is only known at run time. */
enum cyc_dyn {
	CYC_DYN_NONE = 0,
	CYC_DYN_DIVIDE = 1 << 0,        /* UDIV/SDIV: 2..12 cycles by operand values */
	CYC_DYN_BRANCH = 1 << 1,        /* block ends in a branch: refill when taken */
	CYC_DYN_CONDITIONAL = 1 << 2,   /* executes in an IT block or with a condition */
	CYC_DYN_EXCEPTION = 1 << 3,     /* may raise an exception (SVC, BKPT, UDF) */
};

struct cyc_block {
	uint32_t addr;   /* address of the first instruction (Thumb bit clear) */
	uint32_t size;   /* bytes */
	uint16_t n_insn;
	uint32_t total;  /* static cycles of the whole block, as if every branch falls through */
	/* cost_before[i]: static cycles of instructions 0..i-1; cost_before[n_insn] == total.
	 * The cycle counter seen at instruction i is block_start_cycles + cost_before[i]. */
	uint32_t *cost_before;
	uint16_t *insn_offset; /* byte offset of instruction i from addr */
	uint8_t *dyn;          /* enum cyc_dyn per instruction */
	uint32_t branch_taken_extra; /* refill cycles when the block's final branch is taken */
	uint32_t fallthrough;        /* address after the block */
	/* DWT event counter contributions (Armv7-M ARM C1.8.6): the extra cycles the DWT's 8-bit
	 * counters see. Instructions folded (IT) count in FOLDCNT, load/store extra cycles in LSUCNT,
	 * multi-cycle instruction extras in CPICNT. */
	uint32_t cpi_extra, lsu_extra, fold_count;
};

struct cyc_model;

struct cyc_model *cyc_new(unsigned flash_wait_states);
void cyc_free(struct cyc_model *m);
void cyc_set_wait_states(struct cyc_model *m, unsigned flash_wait_states);
unsigned cyc_wait_states(const struct cyc_model *m);

/* Static costs of the block at addr; code points at its `size` bytes. Cached: decoded once. */
const struct cyc_block *cyc_lookup(struct cyc_model *m, uint32_t addr, const uint8_t *code, uint32_t size);
/* Drop cached blocks overlapping [addr, addr+size): after flash or RAM code is rewritten. */
void cyc_invalidate(struct cyc_model *m, uint32_t addr, uint32_t size);

/* Divide cost by operands (TRM 3.3.1, note on UDIV/SDIV: 2-12 cycles, early termination by
 * the number of leading zeros). Returns the cycles beyond the static cost charged already. */
uint32_t cyc_divide_extra(uint32_t dividend, uint32_t divisor, bool is_signed);

/* Exception entry / return (TRM 3.3: 12 cycles entry, 10 return with zero-wait-state memory;
 * more when the FPU context is stacked; tail-chaining 6). */
uint32_t cyc_exception_entry(const struct cyc_model *m, bool fp_stacked);
uint32_t cyc_exception_return(const struct cyc_model *m, bool fp_unstacked);
uint32_t cyc_tail_chain(const struct cyc_model *m);

#endif /* SIM_CYCLES_H */
