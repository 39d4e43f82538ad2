/* Per-instruction cost rules of the Cortex-M4 cycle model (cycles_rules.c), used by the block
 * decoder in cycles.c. Internal to the simulator: the core only sees cycles.h. */
#ifndef SIM_CYCLES_RULES_H
#define SIM_CYCLES_RULES_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdint.h>

#include "timing/cycles_why.h"

/* What the rules remember about the previous instruction of the same block: load/store
 * pipelining, the address-dependency stall and IT folding look one instruction back. */
struct cyc_rules_state {
	uint32_t block_addr;
	unsigned prev_size;      /* bytes of the previous instruction, 0 at block start */
	bool prev_single_load;   /* previous instruction was a single load (LDR-class, VLDR.32) */
	uint32_t prev_load_dest; /* core registers (bit n = Rn) the previous single load wrote */
	uint32_t prev_alu_dest;  /* core registers the previous data-processing instruction wrote */
	bool prev_store_overlap; /* previous instruction was a 1-cycle store: its data phase is this cycle */
	uint32_t prev_store_wb;  /* base register (bit n = Rn) the previous store wrote back, 0: none */
	uint64_t prev_fp_result; /* FP registers (bit n = Sn) the previous FP arithmetic wrote a cycle late */
};

struct cyc_cost {
	uint32_t cycles;      /* static cycles, as if a branch falls through */
	uint32_t taken_extra; /* refill cycles when the branch is taken */
	/* cycles split by reason (enum cyc_why): their sum is `cycles`; CYC_WHY_ISSUE holds what no
	 * other rule added (cyc_rules_cost works it out last). */
	uint8_t by_why[CYC_WHY_N];
	uint8_t taken_why; /* the reason of taken_extra: the branch's kind (CYC_WHY_BRANCH_*) */
	uint32_t cpi_extra, lsu_extra, folded;
	uint8_t dyn;  /* enum cyc_dyn */
	uint8_t cond; /* Armv7-M condition, A7.3: 0 EQ .. 13 LE, 14 always */
	uint8_t aux;  /* CYC_DYN_DIVIDE: dividend register << 4 | divisor register */
	uint8_t mem;  /* enum cyc_mem: whether it is a memory instruction, for the fetch model */
};

/* Memory instructions, for the fetch model's groups of unaligned 32-bit instructions (cycles.c). */
enum cyc_mem { CYC_MEM_NONE = 0, CYC_MEM_LOAD, CYC_MEM_STORE };

void cyc_rules_begin(struct cyc_rules_state *st, uint32_t block_addr);
void cyc_rules_cost(struct cyc_rules_state *st, const cs_insn *insn, struct cyc_cost *c);
void cyc_rules_unknown(struct cyc_rules_state *st, struct cyc_cost *c);

#endif /* SIM_CYCLES_RULES_H */
