/* Flash wait states and the ART accelerator (RM0090 3.4.2, docs/cycle-model.md): the firmware
 * writes FLASH_ACR itself, as at 168 MHz, and bench-sim follows it (run with --wait-states auto).
 * Each snippet starts on a 128-bit line (.p2align 4) so the lines it crosses are known: BEGIN's
 * BKPT is the line's first halfword. The `.ramcode` snippets run from SRAM and wait for nothing. */
#include "snippet.h"
#define FLASH_ACR 0x40023C00
#define LATENCY5  5
#define PRFTEN    (1 << 8)
#define ICEN      (1 << 9)
#define DCEN      (1 << 10)
#define ICRST     (1 << 11)
#define DCRST     (1 << 12)
SNIPPETS_ENTRY
	push {r4, lr}
	ldr r4, =FLASH_ACR

	/* 5 wait states, no prefetch, no caches: every new line is a miss. */
	movs r0, #LATENCY5
	str r0, [r4]
	.p2align 4
	BEGIN(25)                 /* 15 NOPs, then END on the third line: 2 new lines x 5 */
	.rept 15
	nop
	.endr
	END
	.p2align 4
	BEGIN(5)                  /* a taken branch to the current line: no wait (B 1 + P 2, 2 nops) */
	b 1f
	nop
1:	nop
	nop
	END
	movs r0, #4
	.p2align 4
	/* 4 passes of subs, 6 nops, bne (the bne on the second line): 3 x 9 + 8 = 35 cycles; each pass
	 * misses the second line (5), each taken bne misses the first again (5): 7 x 5. */
	BEGIN(70)
1:	subs r0, #1
	.rept 6
	nop
	.endr
	bne 1b
	END

	/* Prefetch on: the next line is read while the core runs the current one. */
	ldr r0, =(LATENCY5 | PRFTEN)
	str r0, [r4]
	.p2align 4
	BEGIN(15)                 /* 15 NOPs: 7 and 8 cycles in a line hide the next line's 6-cycle read */
	.rept 15
	nop
	.endr
	END

	/* Instruction cache on (after a reset of it): the loop's lines miss once, then hit. */
	ldr r0, =(LATENCY5 | PRFTEN | ICRST)
	str r0, [r4]
	ldr r0, =(LATENCY5 | PRFTEN | ICEN)
	str r0, [r4]
	movs r0, #4
	.p2align 4
	/* The same loop, 35 cycles: the second line comes prefetched (7 cycles in the first hide its
	 * read); the first bne misses the loop head once (5), which the cache then holds. */
	BEGIN(40)
1:	subs r0, #1
	.rept 6
	nop
	.endr
	bne 1b
	END

	/* Data cache: a literal load waits for flash once, then hits. */
	ldr r0, =(LATENCY5 | PRFTEN | ICEN | DCEN)
	str r0, [r4]
	.p2align 4
	BEGIN(8)                  /* ldr literal 2 + 5 (miss), ldr the same 1 (pipelined, hit) */
	ldr r1, lit
	ldr r2, lit
	END
	BEGIN(3)                  /* both again: hits */
	ldr r1, lit
	ldr r2, lit
	END
	/* A constant table in flash read through a register takes the same D-code path. */
	adr r5, table
	.p2align 4
	BEGIN(7)                  /* ldr 2 + 5 (miss) */
	ldr r1, [r5]
	END
	BEGIN(2)                  /* the same line again: a hit */
	ldr r1, [r5, #4]
	END
	BEGIN(7)                  /* the table's next 128-bit line: a miss */
	ldr r1, [r5, #16]
	END
	ldr r0, =(LATENCY5 | PRFTEN | ICEN)
	str r0, [r4]
	.p2align 4
	BEGIN(7)                  /* without the data cache every read waits */
	ldr r1, [r5]
	END
	BEGIN(7)
	ldr r1, [r5]
	END
	BEGIN(8)                  /* nop 1, ldr 2 + 5: the ledger charges the wait to the ldr */
	nop
	ldr r1, [r5]
	END

	/* Back to reset values: no wait states, a miss costs nothing. */
	movs r0, #0
	str r0, [r4]
	.p2align 4
	BEGIN(15)
	.rept 15
	nop
	.endr
	END
	bl ram_snippets
	pop {r4, pc}
	.p2align 2
lit:	.word 0x12345678
	.ltorg
	.p2align 4
table:	.word 1, 2, 3, 4, 5, 6, 7, 8

	.section .ramcode, "ax", %progbits
	.thumb_func
ram_snippets:
	movs r0, #LATENCY5
	str r0, [r4]
	BEGIN(3)                  /* taken branch in SRAM: 1 + P, no flash waits */
	b 1f
	nop
1:	END
	movs r0, #10
	BEGIN(29)                 /* the loop in SRAM: 10 x 2 + 9 x P */
1:	subs r0, #1
	bne 1b
	END
	movs r0, #0
	str r0, [r4]
	bx lr
