/* Per-address code hooks of a block's divides, undecided unaligned accesses and FP instructions
 * (core_blk_hooks.c). */
#ifndef SIM_CORE_BLK_HOOKS_H
#define SIM_CORE_BLK_HOOKS_H

#include <stdbool.h>

struct sim_core;
struct core_blk;

/* Adds the code hooks block b needs: one per divide and per access the unaligned rule cannot
 * decide at entry or exit (kept for good, see blk_cache.div_hooked, ua_hooked), one per FP
 * instruction while FP instructions trap. */
void blk_install_hooks(struct sim_core *c, struct core_blk *b);
/* FP instructions trap (CPACR denies CP10/CP11, or FPCCR.LSPACT) or not: hooks added or removed. */
void blk_set_fp_trap(struct sim_core *c, bool on);
/* Block b about to run carries fewer code hooks than it needs (divides, undecided accesses, trapped
 * FP instructions):
 * its translation must be dropped and made again. */
bool blk_hooks_missing(const struct sim_core *c, const struct core_blk *b);

#endif /* SIM_CORE_BLK_HOOKS_H */
