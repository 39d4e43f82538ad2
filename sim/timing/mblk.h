/* The memory-block rule without a read hook (timing/mblk.c builds the program, core/core_mblocks.c runs it): "load
 * pipelining happens only when targeting the same memory block by all loads (e.g. SRAM1 vs SRAM2 (and CCM) on f407)"
 * (jnk0le's pipeline cycle tests, measured on an STM32F407; docs/cycle-model.md "Load/store pipelining").
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
 * path. `bench-sim --memory-blocks exact` uses that hook instead.
 *
 * The same program decides the unaligned-access rule (Cortex-M4 TRM 3.3.2, memops.h
 * cyc_unaligned_extra) for every LDR, LDRH, LDRSH, STR, STRH that may be unaligned: at entry when
 * it can follow its registers (lazily for a conditional one whose flags it cannot know), else at
 * the block's exit when nothing after the access changes its registers but by constants
 * (exit_steps), else the core hooks the instruction (ua_hook). docs/cycle-model.md "Unaligned
 * accesses". */
#ifndef SIM_TIMING_MBLK_H
#define SIM_TIMING_MBLK_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdint.h>

#include "timing/cycles.h"
#include "timing/memops.h"

struct mblk_reads; /* what the core reads at entry (core/blk_types.h) */

/* One step: an access's address, a register update or a comparison, in the block's order.
 * Registers are 0..12, 13 SP, 14 LR; MBLK_NONE reads as 0. */
enum { MBLK_LOAD = 0, MBLK_SET = 1, MBLK_FLAGS = 2, MBLK_NONE = 15 };
/* The operation of an MBLK_SET. ADD (ADD, SUB, MOV): rn + sign * (rm << lshift) + imm, the
 * immediate carrying its own sign; the others: rn op ((rm << lshift) + imm), RSB op2 - rn. */
enum { MBLK_ADD = 0, MBLK_RSB, MBLK_AND, MBLK_ORR, MBLK_EOR, MBLK_BIC };
struct mblk_step {
	uint8_t kind;   /* MBLK_LOAD (any access, a store too): ea = rn + sign * (rm << lshift) + imm;
	                 * MBLK_SET: rd = rn op op2; MBLK_FLAGS: NZCV of rn + sign * op2 (CMP: sign -1,
	                 * CMN: +1) */
	uint8_t rd;     /* MBLK_SET */
	uint8_t rn, rm; /* MBLK_NONE: none */
	uint8_t lshift;
	int8_t sign;
	int8_t pair;      /* MBLK_LOAD of a pipelined load: its pair's bit in the mask; -1 for any other load,
	                   * and for a pair that cannot cross (its first load is not the step before) */
	int16_t ua;       /* MBLK_LOAD the unaligned rule decides: its number (ua_idx); -1: none */
	uint8_t size;     /* with ua: the access's bytes, 2 or 4 */
	uint8_t op;       /* MBLK_SET */
	uint8_t cond;     /* MBLK_SET, or an MBLK_LOAD with ua, in an IT block: its capstone condition
	                   * (ARM_CC_EQ..LE); 0: always */
	uint8_t need_blk; /* MBLK_LOAD of a pair, or the load before one: its memory block is needed */
	uint8_t lazy;     /* MBLK_LOAD with ua, conditional on flags the program cannot know: aligned at
	                   * entry it costs nothing run or not; unaligned, the core hooks it from then on */
	uint16_t idx;     /* MBLK_LOAD: instruction index */
	uint16_t adj_at;  /* an exit step: the later instruction whose constant imm takes back, or
	                   * MBLK_NO_ADJ; before it has run, the address is imm_pre's */
	int32_t imm;
	int32_t imm_pre;
};
#define MBLK_NO_ADJ 0xFFFFu

/* What a block keeps: the program run at entry, the accesses decided at its exit, the
 * instruction index of each pair's pipelined load and of each decided access, and the accesses
 * neither can decide (the core hooks those). */
struct mblk_prog {
	struct mblk_step *steps;
	uint16_t n_steps;
	uint8_t n_pairs;     /* at most 32 */
	uint16_t n_ua;       /* accesses decided at entry or exit */
	uint16_t entry_regs; /* the registers it reads at entry (bit r) */
	bool entry_flags;    /* a conditional step needs the flags of the entry (xPSR) */
	uint16_t *pair_idx;
	uint16_t *ua_idx;
	/* The core's decision for the last run (core_mblocks.c): each access's extra cycles (0, 1, 2),
	 * and whether any is not 0. */
	uint8_t *ua_extra;
	bool ua_dirty;
	/* Accesses whose address needs a register the block writes before them, and after them only
	 * by adding a constant: from the registers at the block's exit (or at any point after them). */
	struct mblk_step *exit_steps;
	uint16_t n_exit;
	uint16_t exit_regs;
	uint16_t *ua_hook; /* instruction indices of the accesses left to a code hook */
	uint16_t n_ua_hook;
	/* Run right after itself, the block's accesses are unaligned as in that run (mblk.c
	 * loop_invariant): the core keeps the decision rather than reading the registers again. */
	bool ua_loop;
	/* Only unaligned-rule accesses, none conditional or lazy, no pairs (the core's fast path;
	 * set by core/core_mblocks.c mblk_compile). */
	bool ua_only;
	struct mblk_reads *reads;      /* entry_regs and the flags as one uc_reg_read_batch */
	struct mblk_reads *exit_reads; /* exit_regs */
};

/* Where the flags a conditional step reads come from while the program is built. */
enum { MBLK_FLAGS_ENTRY = 0, MBLK_FLAGS_STEP, MBLK_FLAGS_UNKNOWN };

/* Building the program while the block is analysed, one instruction at a time. */
struct mblk_build {
	struct mblk_prog *prog;
	const struct cyc_block *cb;
	unsigned (*block_of)(const void *ctx, uint32_t addr); /* memory block of an address, 0: none */
	const void *ctx;
	unsigned cap;
	uint16_t unknown;   /* registers whose value the program cannot know from here on */
	unsigned last_pair; /* steps up to the last pipelined load or decided access are kept */
	unsigned last_load; /* steps up to the last load pushed */
	bool pairs;         /* the memory-block rule's pairs */
	bool ua;            /* the unaligned rule's accesses */
	uint16_t *exit_src; /* the registers each exit step reads */
	uint32_t net[15];   /* what the block adds to each register from entry to exit ... */
	uint16_t net_bad;   /* ... unless it writes it otherwise */
	uint8_t flags;      /* MBLK_FLAGS_*: where the condition flags come from */
	bool failed;        /* no program for this block */
	bool oom;
};

/* Nothing is built for a rule not enabled: pairs, the memory-block rule (the core runs it this
 * way: sim_core.mb_entry); ua, the unaligned rule (sim_core.ua_entry). block_of names the memory
 * block of a literal address (1.., 0 outside every block). */
void mblk_begin(struct mblk_build *bd, struct mblk_prog *prog, const struct cyc_block *cb, bool pairs, bool ua,
                unsigned (*block_of)(const void *ctx, uint32_t addr), const void *ctx);
/* Bytes of a single access the unaligned rule must decide (TRM 3.3.2; memops.h
 * cyc_unaligned_extra): 2 or 4 for LDR, LDRH, LDRSH, STR, STRH and their T forms, 0 for any
 * other, and for one aligned whatever the registers: SP plus a multiple of the size (SP is word
 * aligned, Armv7-M ARM B1.4.7), a literal at an aligned address. */
unsigned mblk_ua_size(const cs_insn *in, const struct cyc_memop *mo);
/* Instruction i of the block, as capstone decoded it (NULL: not decoded, every register unknown),
 * and its memory operation (core_blocks.c; NULL when it has none). */
void mblk_insn(struct mblk_build *bd, csh cs, const cs_insn *in, unsigned i, const struct cyc_memop *mo);
/* 0, or -1 when memory ran out (the program is then empty). The core compiles what is left
 * (n_steps not 0) into its register reads (core_mblocks.c, mblk_compile). */
int mblk_end(struct mblk_build *bd);
void mblk_free(struct mblk_prog *prog);

#endif /* SIM_TIMING_MBLK_H */
