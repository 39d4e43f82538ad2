/* What the core keeps of each translated block (core_blocks.c builds it, core_mblocks.c its
 * memory-block program; the block hook and the run loop read it): the types alone, so that
 * core_internal.h can hold the cache in struct sim_core without including the headers of the
 * files that include it (scripts/check_layers.py --sim-cycles). */
#ifndef SIM_CORE_BLK_TYPES_H
#define SIM_CORE_BLK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <unicorn/unicorn.h>

#include "timing/cycles.h"
#include "timing/mblk.h"
#include "timing/memops.h"

/* What the entry reads, worked out once: unicorn's register ids, and where each value goes in the
 * program's register file (0..14; MBLK_FLAGS_SLOT: xPSR). */
#define MBLK_FLAGS_SLOT 16u
#define MBLK_MAX_READS  16u /* R0..R12, SP, LR and xPSR */
struct mblk_reads {
	unsigned n;
	int ids[MBLK_MAX_READS];
	void *ptrs[MBLK_MAX_READS]; /* into the core's register file for the programs, sim_core.mb_v */
};

#define CORE_BLK_HASH 4096
/* The blocks the block hook looked up last, direct-mapped by address: a loop's few blocks stay
 * in a table that fits the host's L1 cache (the hash table does not). */
#define CORE_BLK_RECENT 256

static inline unsigned blk_recent_slot(uint32_t addr)
{
	return (addr >> 1) & (CORE_BLK_RECENT - 1u);
}

/* The core's view of one translated block: the cycle model's costs plus what the core needs. */
struct core_blk {
	uint32_t addr, size;
	const struct cyc_block *cb;
	uint8_t *copy; /* the bytes as analysed: rewritten code is detected by comparing */
	struct cyc_memop *memops;
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
	bool hooked_ua;  /* ... and for the accesses the unaligned rule leaves to a hook (mb.ua_hook) */
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
	/* The same for the unaligned rule's hooked accesses. */
	uint32_t *ua_hooked;
	size_t n_ua_hooked, cap_ua_hooked;
};

#endif /* SIM_CORE_BLK_TYPES_H */
