/* The memory operands of decoded Thumb instructions (memops.c), for finding which instruction of
 * a block made an access and for the memory-block rule. Part of the cycle model's analysis
 * (sim/timing): capstone in, no unicorn, no core. */
#ifndef SIM_TIMING_MEMOPS_H
#define SIM_TIMING_MEMOPS_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdint.h>

/* One memory-accessing instruction of a block, for finding which instruction caused an access:
 * unicorn 2.0.1 does not update PC before a load or store, so inside an MMIO callback or an
 * unmapped-access hook the PC is stale; the registers are current (TCG saves globals before a
 * memory operation that may fault). */
struct cyc_memop {
	uint16_t idx;   /* instruction index in the block */
	uint8_t base;   /* capstone ARM register id of the base (0: none) */
	uint8_t index;  /* index register (0: none) */
	int8_t scale;   /* +1 / -1 */
	uint8_t lshift; /* index shift */
	uint16_t span;  /* bytes accessed from the lowest address */
	int32_t disp;
	bool down;  /* LDMDB/STMDB/PUSH: the lowest address is base - span */
	bool store; /* writes memory (STR.., STM.., PUSH, VSTR, VSTM, VPUSH) */
};

/* An FP instruction: Thumb-2 coprocessor space with coprocessor 10 or 11 (A6.3, A7.9). */
bool cyc_is_fp(uint16_t hw1, uint16_t hw2);
/* UDIV/SDIV (A7.7.125, A7.7.178). */
bool cyc_is_div(uint16_t hw1, uint16_t hw2);
/* Does it access memory (a memory operand, PUSH/POP, LDM/STM)? */
bool cyc_is_memory_insn(const cs_insn *in);
/* The memory operand of load/store `in`, instruction idx of its block, into *out; false when
 * capstone's detail names none. */
bool cyc_memop_decode(const cs_insn *in, unsigned idx, struct cyc_memop *out);

/* Cycles an access of `size` bytes at `addr` adds for being unaligned (Cortex-M4 TRM r0p1 3.3.2:
 * "Unaligned word or halfword loads or stores add penalty cycles. A byte aligned halfword load or
 * store adds one extra cycle to perform the operation as two bytes. A halfword aligned word load
 * or store adds one extra cycle to perform the operation as two halfwords. A byte-aligned word
 * load or store adds two extra cycles to perform the operation as a byte, a halfword, and a
 * byte"): 0, 1 or 2. Only LDR, LDRH, LDRSH, STR, STRH (and their T forms) may be unaligned
 * (Armv7-M ARM A3.2.1); the others fault first. */
unsigned cyc_unaligned_extra(unsigned size, uint32_t addr);

#endif /* SIM_TIMING_MEMOPS_H */
