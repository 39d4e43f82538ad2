/* The core's per-block cache (core_blocks.c): what the cycle model and the core know of each
 * translated block, found by its start address. */
#ifndef SIM_CORE_BLOCKS_H
#define SIM_CORE_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include "core/core_mblocks.h"
#include "timing/cycles.h"

struct sim_core;

#define CORE_BLK_HASH 4096
/* The blocks the block hook looked up last, direct-mapped by address: a loop's few blocks stay
 * in a table that fits the host's L1 cache (the hash table does not). */
#define CORE_BLK_RECENT 256

static inline unsigned blk_recent_slot(uint32_t addr)
{
	return (addr >> 1) & (CORE_BLK_RECENT - 1u);
}

/* One memory-accessing instruction of a block, for finding which instruction caused an access:
 * unicorn 2.0.1 does not update PC before a load or store, so inside an MMIO callback or an
 * unmapped-access hook the PC is stale; the registers are current (TCG saves globals before a
 * memory operation that may fault). */
struct core_memop {
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

/* The core's view of one translated block: the cycle model's costs plus what the core needs. */
struct core_blk {
	uint32_t addr, size;
	const struct cyc_block *cb;
	uint8_t *copy; /* the bytes as analysed: rewritten code is detected by comparing */
	struct core_memop *memops;
	uint16_t n_memops;
	struct mblk_prog mb; /* the memory-block rule's program (core_mblocks.h) */
	uint16_t n_fp;       /* FP instructions (NOCP gating, lazy FP stacking) */
	uint32_t *fp_addr;
	uint16_t n_div;
	uint32_t *div_addr;
	/* Flash (core_soc.flash): the block's first line (-1: not in flash) and the static cycle at
	 * which it enters each of its n_lines lines. */
	int32_t flash_line;
	uint16_t n_lines;
	uint16_t *line_start;
	bool hooked_div; /* per-address code hooks added for the divides */
	bool fp_hooked;  /* per-address code hooks present for the FP instructions */
	uc_hook *fp_hooks;
	struct core_blk *next; /* hash chain */
};

/* The cache of analysed blocks, by start address. */
struct blk_cache {
	struct core_blk *hash[CORE_BLK_HASH];
	struct core_blk *recent[CORE_BLK_RECENT];
	uint64_t translated;
	bool fp_trap_on; /* CPACR denies CP10/CP11, or FPCCR.LSPACT: FP instructions trap */
	/* Addresses with a divide hook: one hook per address, kept when a block is dropped and
	 * analysed again (a second hook would charge the divide twice). */
	uint32_t *div_hooked;
	size_t n_div_hooked, cap_div_hooked;
};

/* The left shift of a memory operand's index register (`[rn, rm, lsl #2]`): capstone 4.0.2 leaves
 * mem.lshift 0 and gives the shift as the operand's shift, LSL being the only one Thumb allows. */
static inline unsigned blk_index_lshift(const cs_arm_op *op)
{
	return op->shift.type == ARM_SFT_LSL ? op->shift.value : (unsigned)op->mem.lshift;
}

struct core_blk *blk_get(struct sim_core *c, uint32_t addr, uint32_t size);
void blk_drop_range(struct sim_core *c, uint32_t addr, uint32_t size);
void blk_drop_all(struct sim_core *c);
/* Drops unicorn's translations of every known block (their code hooks changed). */
void blk_retranslate_all(struct sim_core *c);
/* Drops blocks whose bytes changed since they were analysed; returns how many. */
unsigned blk_check_rewritten(struct sim_core *c);
int blk_index_of(const struct core_blk *b, uint32_t pc);
int blk_find_access(struct sim_core *c, struct core_blk *b, uint32_t addr, int from);
/* The memory operation of instruction idx, or NULL. */
const struct core_memop *blk_memop_at(const struct core_blk *b, int idx);
/* The same as blk_find_access among the block's loads only (a read hook's access is never a
 * store's). */
int blk_find_load(struct sim_core *c, struct core_blk *b, uint32_t addr, int from);
void blk_set_fp_trap(struct sim_core *c, bool on);
void blk_install_hooks(struct sim_core *c, struct core_blk *b);
void blk_free_all(struct sim_core *c);
/* At core_free: the divide-hook address list too. */
void blk_cache_free(struct sim_core *c);
/* Block b about to run carries fewer code hooks than it needs (divides, trapped FP instructions):
 * its translation must be dropped and made again. */
bool blk_hooks_missing(const struct sim_core *c, const struct core_blk *b);
uint64_t blk_translated(const struct sim_core *c);

#endif /* SIM_CORE_BLOCKS_H */
