/* The memory-block rule without a read hook (core_mblocks.c): "load pipelining happens only when
 * targeting the same memory block by all loads (e.g. SRAM1 vs SRAM2 (and CCM) on f407)" (jnk0le's
 * pipeline cycle tests, measured on an STM32F407; docs/cycle-model.md "Load/store pipelining").
 *
 * A load the rules pipelined (CYC_DYN_PIPELINED) gets its cycle back when it and the load before
 * it read different blocks. Their addresses come from the registers at the block's entry: when the
 * block is analysed, its instructions up to its last pipelined load become a short program of
 * steps, the loads' addresses and the simple register updates between them (MOV, ADD, SUB, RSB,
 * AND, ORR, EOR, BIC with an immediate or a register shifted left, write-back bases, PUSH/POP),
 * conditional ones too after a CMP/CMN or on the entry's flags. A register any other instruction
 * writes is unknown from there on, and a load whose address needs one is not decided: the pair
 * keeps its pipelined cost, as without the rule. At each entry the core runs the program on the
 * registers it needs (mblk_decide), which costs a few register reads only in blocks that have
 * pipelined loads, where a read hook would send every load of the whole run through unicorn's slow
 * path. `bench-sim --memory-blocks exact` uses that hook instead. */
#ifndef SIM_CORE_MBLOCKS_H
#define SIM_CORE_MBLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include <capstone/capstone.h>

#include "core/blk_types.h"

struct sim_core;
struct core_blk;
struct cyc_memop;

/* Where the flags a conditional step reads come from while the program is built. */
enum { MBLK_FLAGS_ENTRY = 0, MBLK_FLAGS_STEP, MBLK_FLAGS_UNKNOWN };

/* Building the program while the block is analysed, one instruction at a time. */
struct mblk_build {
	struct mblk_prog *prog;
	const struct core_blk *b;
	const struct sim_core *c;
	unsigned cap;
	uint16_t unknown;   /* registers whose value the program cannot know from here on */
	unsigned last_pair; /* steps up to the last pipelined load are kept */
	unsigned last_load; /* steps up to the last load pushed */
	uint8_t flags;      /* MBLK_FLAGS_*: where the condition flags come from */
	bool failed;        /* no program for this block */
	bool oom;
};

/* Nothing is built unless the core runs the rule this way (sim_core.mb_entry). */
void mblk_begin(struct mblk_build *bd, struct mblk_prog *prog, const struct sim_core *c, const struct core_blk *b);
/* Instruction i of the block, as capstone decoded it (NULL: not decoded, every register unknown),
 * and its memory operation (core_blocks.c; NULL when it has none). */
void mblk_insn(struct mblk_build *bd, csh cs, const cs_insn *in, unsigned i, const struct cyc_memop *mo);
/* 0, or -1 when memory ran out (the program is then empty). */
int mblk_end(struct mblk_build *bd);
void mblk_free(struct mblk_prog *prog);

/* Memory block of a data address (core_soc.mem_blocks): 1.., or 0 outside every block. */
unsigned mblk_block_of(const struct sim_core *c, uint32_t addr);
/* At the block's entry: which of its pairs read two different blocks (sim_core.mb_mask). */
void mblk_decide(struct sim_core *c, struct core_blk *b);
/* The cycles those pairs add before instruction i of the current block. */
uint32_t mblk_extra_before(const struct sim_core *c, const struct core_blk *b, unsigned i);

#endif
