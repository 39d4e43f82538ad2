/* Snippets for bench-sim --memory-blocks (docs/cycle-model.md "Load/store pipelining"): two loads
 * pipeline only when they read the same memory block, SRAM1 (0x20000000, 112 KiB), SRAM2
 * (0x2001C000, 16 KiB) or the CCM (0x10000000); a read from flash pairs with any ("load
 * pipelining happens only when targeting the same memory block by all loads (e.g. SRAM1 vs SRAM2
 * (and CCM) on f407)", jnk0le's pipeline cycle tests). Without the option the pairs that cross
 * blocks below pipeline (rules.S). Assembled twice: blocks.elf for --memory-blocks (exact: every
 * load's address) and blocks_entry.elf, with MB_ENTRY, for --memory-blocks=entry (the registers at
 * the block's entry), whose expectations differ only where the entry cannot tell (EXACT_OR_ENTRY). */
#include "snippet.h"
#ifdef MB_ENTRY
#define EXACT_OR_ENTRY(exact, entry) (entry)
#else
#define EXACT_OR_ENTRY(exact, entry) (exact)
#endif
SNIPPETS_ENTRY
	push {r4-r8, lr}
	ldr r1, =0x20000000       /* SRAM1 */
	ldr r2, =0x20000100       /* SRAM1 */
	ldr r3, =0x2001C000       /* SRAM2 */
	ldr r5, =0x10000000       /* CCM */
	adr r6, table             /* flash */
	BEGIN(3)                  /* SRAM1, SRAM1: pipelined, 2 + 1 */
	ldr r0, [r1]
	ldr r4, [r2]
	END
	BEGIN(4)                  /* SRAM1, SRAM2: 2 + 2 */
	ldr r0, [r1]
	ldr r4, [r3]
	END
	BEGIN(4)                  /* SRAM2, CCM: 2 + 2 */
	ldr r0, [r3]
	ldr r4, [r5]
	END
	BEGIN(3)                  /* SRAM2, SRAM2 */
	ldr r0, [r3]
	ldr r4, [r3, #4]
	END
	BEGIN(3)                  /* flash, SRAM1: flash pairs with either */
	ldr r0, [r6]
	ldr r4, [r1]
	END
	BEGIN(5)                  /* SRAM1, SRAM1, SRAM2: 2 + 1 + 2 */
	ldr r0, [r1]
	ldr r4, [r2]
	ldr r7, [r3]
	END
	BEGIN(6)                  /* a store, a load of its address (+1 after the store), then SRAM2: */
	str r0, [r1]              /* 1 + 3 + 2; the read is the load's, not the store's */
	ldr r4, [r1]
	ldr r7, [r3]
	END
	BEGIN(6)                  /* SRAM2 twice on the base written back (2 + 2, rules.S), then */
	ldr r0, [r3], #4          /* SRAM1 after SRAM2: 2 */
	ldr r4, [r3]
	ldr r7, [r1]
	END
	sub r3, r3, #4
	BEGIN(5)                  /* LDRD from SRAM2 (3), then SRAM1: not pipelined after LDRD, 2 */
	ldrd r0, r4, [r3]
	ldr r7, [r1]
	END
	ldr r8, =0x20010000       /* SRAM1; + 0x3000 << 2 = 0x2001C000, SRAM2 */
	ldr r12, =0x3000
	BEGIN(4)                  /* SRAM1, then SRAM2 through a scaled index: 2 + 2 */
	ldr r0, [r1]
	ldr r4, [r8, r12, lsl #2]
	END
	BEGIN(5)                  /* an address the block computes (the entry follows the ADD): */
	add r7, r1, #64           /* 1, SRAM2 2, SRAM1 2 */
	ldr r0, [r3]
	ldr r4, [r7]
	END
	str r3, [r2, #8]          /* a word in SRAM1 holding the SRAM2 address */
	BEGIN(EXACT_OR_ENTRY(5, 4)) /* a base the block loads: SRAM1 2, SRAM1 1, then SRAM2: 2 when */
	ldr r7, [r2, #8]          /* every load's address is known; the entry cannot know r7, so */
	ldr r0, [r1]              /* the pair keeps pipelining: 1 */
	ldr r4, [r7]
	END
	pop {r4-r8, pc}
	.p2align 2
table:	.word 1, 2
	.ltorg
