/* The core's per-block cache (core_blocks.c): what the cycle model and the core know of each
 * translated block, found by its start address. */
#ifndef SIM_CORE_BLOCKS_H
#define SIM_CORE_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include "core/blk_types.h"

struct sim_core;

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
const struct cyc_memop *blk_memop_at(const struct core_blk *b, int idx);
/* The same as blk_find_access among the block's loads only (a read hook's access is never a
 * store's). */
int blk_find_load(struct sim_core *c, struct core_blk *b, uint32_t addr, int from);
/* The value of capstone register capreg as instruction idx of b sees it (PC: its address
 * + 4, word-aligned, for a literal): for the memory operands and the divide hook. */
uint32_t blk_reg_value(struct sim_core *c, const struct core_blk *b, unsigned idx, unsigned capreg);
void blk_free_all(struct sim_core *c);
/* At core_free: the divide-hook address list too. */
void blk_cache_free(struct sim_core *c);
uint64_t blk_translated(const struct sim_core *c);

#endif /* SIM_CORE_BLOCKS_H */
