/* The memory-block rule without a read hook, at run time (core_mblocks.c): the program
 * timing/mblk.c built for a block (timing/mblk.h says what it is and why) is compiled into one
 * register read, run on the registers at each entry (mblk_decide), and its pairs that read two
 * blocks charge their cycle back (mblk_extra_before). `bench-sim --memory-blocks exact` uses a
 * read hook instead (core_clock.c). */
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
int mblk_compile(struct mblk_prog *p);
/* Memory block of a data address (core_soc.mem_blocks): 1.., or 0 outside every block. */
unsigned mblk_block_of(const struct sim_core *c, uint32_t addr);
/* At the block's entry: which of its pairs read two different blocks (sim_core.mb_mask). */
void mblk_decide(struct sim_core *c, struct core_blk *b);
/* The cycles those pairs add before instruction i of the current block. */
uint32_t mblk_extra_before(const struct sim_core *c, const struct core_blk *b, unsigned i);

#endif
