/* The memory-block and unaligned rules without a memory hook, at run time (core_mblocks.c): the
 * program timing/mblk.c built for a block (timing/mblk.h says what it is and why) is compiled into
 * one register read, run on the registers at each entry (mblk_decide); its pairs that read two
 * blocks charge their cycle back, its unaligned accesses their extra cycles (mblk_extra_before),
 * with those decided from the registers at the block's exit (mblk_exit). `bench-sim
 * --memory-blocks exact` and `--unaligned` (exact) use memory hooks instead (core_clock.c,
 * core_unaligned.c). */
#ifndef SIM_CORE_MBLOCKS_H
#define SIM_CORE_MBLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include <capstone/capstone.h>

#include "core/blk_types.h"
#include "timing/mblk.h"

struct sim_core;
struct core_blk;
struct cyc_memop;

/* Work done once per program rather than at every entry: the register reads (unicorn ids), and
 * which pairs can cross at all. 0, or -1 when memory ran out. */
int mblk_compile(struct sim_core *c, struct mblk_prog *p);
/* Memory block of a data address (core_soc.mem_blocks): 1.., or 0 outside every block. */
unsigned mblk_block_of(const struct sim_core *c, uint32_t addr);
/* At the block's entry: which of its pairs read two different blocks (sim_core.mb_mask), and
 * which of the accesses it decides at entry are unaligned (core_blk.mb.ua_extra). */
void mblk_decide(struct sim_core *c, struct core_blk *b);
/* After instruction upto - 1 of b ran (at its exit, or where it stopped): which of its accesses
 * before upto decided at the exit are unaligned, from the registers now (they are those the
 * accesses used: nothing after them writes them). Adds to core_blk.mb.ua_extra. */
void mblk_exit(struct sim_core *c, struct core_blk *b, unsigned upto);
/* The unaligned cycles of the decided accesses before instruction i of the current block. */
uint32_t mblk_ua_before(const struct sim_core *c, const struct core_blk *b, unsigned i);
/* The cycles the pairs and the decided unaligned accesses add before instruction i of the
 * current block. */
uint32_t mblk_extra_before(const struct sim_core *c, const struct core_blk *b, unsigned i);

#endif
