/* Snippets for bench-sim --memory-blocks (docs/cycle-model.md "Load/store pipelining"): two loads
 * pipeline only when they read the same memory block, SRAM1 (0x20000000, 112 KiB), SRAM2
 * (0x2001C000, 16 KiB) or the CCM (0x10000000); a read from flash pairs with any ("load
 * pipelining happens only when targeting the same memory block by all loads (e.g. SRAM1 vs SRAM2
 * (and CCM) on f407)", jnk0le's pipeline cycle tests). Under --memory-blocks=off the pairs that
 * cross blocks below pipeline (rules.S). Assembled twice: blocks.elf for --memory-blocks (exact:
 * every load's address) and blocks_entry.elf, with MB_ENTRY, for bench-sim's default (entry: the
 * registers at the block's entry), whose expectations differ only where the entry cannot tell
 * (EXACT_OR_ENTRY). */
#include "snippet.h"
#ifdef MB_ENTRY
#define EXACT_OR_ENTRY(exact, entry) (entry)
#else
#define EXACT_OR_ENTRY(exact, entry) (exact)
#endif
SNIPPETS_ENTRY
	push {r4-r11, lr}
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
	BEGIN(EXACT_OR_ENTRY(6, 5)) /* and the pair after such a load: SRAM1 2, SRAM1 1, SRAM2 2, */
	ldr r7, [r2, #8]          /* then SRAM2 1 after SRAM2; the entry knows the last load reads */
	ldr r0, [r1]              /* SRAM2 but not r7's, and must not pair it with SRAM1's before: */
	ldr r4, [r7]              /* 1 (the SRAM1/SRAM2 pair before it keeps pipelining, as above) */
	ldr r5, [r3, #4]
	END
	/* Addresses the block computes next to the SRAM1/SRAM2 boundary (0x2001C000, r3): each pair
	 * crosses blocks only if the step before it is followed exactly (sign, immediate, shift). */
	BEGIN(5)                  /* SUB: r3 - 4 is SRAM1, after SRAM2: 1 + 2 + 2 */
	sub r7, r3, #4
	ldr r0, [r3]
	ldr r4, [r7]
	END
	mov r7, r3
	BEGIN(5)                  /* a negative post-index write-back: r7 becomes 0x2001BFFC, SRAM1, */
	ldr r0, [r7], #-4         /* after SRAM2: 2 + 1 + 2 */
	ldr r4, [r3]
	ldr r5, [r7]
	END
	ldr r12, =0x7000
	BEGIN(5)                  /* ADD with LSL: r1 + (0x7000 << 2) = 0x2001C000, SRAM2: 1 + 2 + 2 */
	add.w r7, r1, r12, lsl #2
	ldr r0, [r1]
	ldr r4, [r7]
	END
	BEGIN(5)                  /* MOV: SRAM1, then SRAM2 through the copy: 1 + 2 + 2 */
	mov r7, r3
	ldr r0, [r1]
	ldr r4, [r7]
	END
	mov r10, sp
	mov sp, r3
	BEGIN(7)                  /* PUSH moves SP to 0x2001BFF8, SRAM1, read after SRAM2: 3 + 2 + 2 */
	push {r0, r2}
	ldr r0, [r3]
	ldr r4, [sp]
	END
	BEGIN(7)                  /* POP moves it back to 0x2001C000, SRAM2, read after SRAM1: 3 + 2 + 2 */
	pop {r0, r2}
	ldr r0, [r1]
	ldr r4, [sp]
	END
	push {r0, r2}
	BEGIN(7)                  /* POP's second word (0x2001BFFC) is the address `[sp, #4]` names */
	pop {r0, r2}              /* with SP not yet written back: the read is POP's; the next load */
	ldr r5, [r1]              /* reads SRAM1, then [sp, #4] = 0x2001C004, SRAM2: 3 + 2 + 2 */
	ldr r4, [sp, #4]
	END
	ldr r0, =0xE000ED88       /* CPACR: CP10, CP11 full access for VPUSH */
	ldr r4, [r0]
	orr r4, r4, #(0xF << 20)
	str r4, [r0]
	dsb
	isb
	BEGIN(7)                  /* VPUSH of a D register: SP 0x2001BFF8, SRAM1, after SRAM2: 3 + 2 + 2 */
	vpush {d8}
	ldr r0, [r3]
	ldr r4, [sp]
	END
	vpop {d8}
	vpush {d8, d9}
	BEGIN(9)                  /* VPOP reads a D register as one 8-byte access: its second one */
	vpop {d8, d9}             /* (0x2001BFF8) is the address `[sp, #8]` names with SP not yet */
	ldr r5, [r1]              /* written back; the read is VPOP's; then SRAM1, and 0x2001C008, */
	ldr r4, [sp, #8]          /* SRAM2: 5 + 2 + 2 */
	END
	mov sp, r10
	mov r7, r3
	cmp r0, r0                /* Z set: the ADDNE below does not run */
	BEGIN(6)                  /* a conditional write on the flags of the entry: the SUBNE fails, */
	it ne                     /* r7 stays SRAM2, read after SRAM1: 1 + 1 + 2 + 2 */
	subne r7, r7, #4
	ldr r0, [r1]
	ldr r4, [r7]
	END
	mov r7, r3
	movs r6, #1
	BEGIN(9)                  /* CMP in the block, then RSB and BIC: HI holds, so r7 = 0x2001C000 */
	cmp r6, #0                /* - 1, & ~3: 0x2001BFFC, SRAM1, after SRAM2 (the ADDLS fails): */
	ite hi                    /* the 8 cycles of --memory-blocks=off, + 1 */
	rsbhi r7, r6, r7
	addls r7, r7, #64
	bic r7, r7, #3
	ldr r0, [r3]
	ldr r4, [r7]
	END
	BEGIN(7)                  /* the block ends in a taken branch: the pair's cycle is charged at */
	ldr r0, [r1]              /* the block's end, not at the BKPT: 2 + 2 + B 3 */
	ldr r4, [r3]
	b 1f
	nop
1:	END
	/* The other operations and conditions the entry follows, each next to the boundary so that
	 * a wrong result reads another block (or none): a pair that crosses costs one more than
	 * with --memory-blocks=off (the figure before the + 1). */
	ldr r11, =0x2001C00C
	mvn r12, #15              /* 0xFFFFFFF0 */
	BEGIN(5)                  /* AND: 0x2001C000, SRAM2 (ORR or EOR: outside every block), */
	and r7, r11, r12          /* after SRAM1: 1 + 2 + 2 */
	ldr r0, [r1]
	ldr r4, [r7]
	END
	ldr r6, =0x2001C000
	BEGIN(5)                  /* ORR of 0x20000000 and 0x2001C000: SRAM2 (AND: SRAM1; EOR: */
	orr r7, r1, r6            /* outside), after SRAM1: 1 + 2 + 2 */
	ldr r0, [r1]
	ldr r4, [r7]
	END
	mov r6, #0x4000
	BEGIN(5)                  /* EOR: 0x2001C000 ^ 0x4000 = 0x20018000, SRAM1 (ORR: SRAM2), */
	eor r7, r3, r6            /* after SRAM2: 1 + 2 + 2 */
	ldr r0, [r3]
	ldr r4, [r7]
	END
	mov r6, #4
	BEGIN(5)                  /* SUB of a register: 0x2001BFFC, SRAM1 (as an ADD: SRAM2), after */
	sub r7, r3, r6            /* SRAM2: 1 + 2 + 2 */
	ldr r0, [r3]
	ldr r4, [r7]
	END
	mov r6, #-1
	mov r7, r3
	BEGIN(8)                  /* CMN -1, #1 carries (C set): SUBCS runs, r7 SRAM1 after SRAM2: 7 + 1 */
	cmn r6, #1
	ite cs
	subcs r7, r3, #4
	addcc r7, r3, #0
	ldr r0, [r3]
	ldr r4, [r7]
	END
	mov r6, #0x80000000
	mov r8, #1
	BEGIN(7)                  /* CMP INT_MIN, 1 overflows (V set, N clear): LT holds, SUBLT runs: 6 + 1 */
	cmp r6, r8
	ite lt
	sublt r7, r3, #4
	addge r7, r3, #0
	ldr r0, [r3]
	ldr r4, [r7]
	END
	BEGIN(7)                  /* CMP 1, 2 is negative (N set): SUBMI runs, r7 SRAM1 after SRAM2: 6 + 1 */
	cmp r8, #2
	it mi
	submi r7, r3, #4
	ldr r0, [r3]
	ldr r4, [r7]
	END
	mov r7, r3
	BEGIN(6)                  /* CMP r8, r8 is zero (Z set): SUBEQ runs, r7 SRAM1 after SRAM2: 5 + 1 */
	cmp r8, r8
	it eq
	subeq r7, r7, #4
	ldr r0, [r3]
	ldr r4, [r7]
	END
	mov r7, r3
	BEGIN(7)                  /* ADDS after the CMP sets the flags again (Z clear): SUBEQ fails, */
	cmp r8, r8                /* r7 stays SRAM2, read after SRAM2: 7, as without the rule; the */
	adds r8, r8, #0           /* entry does not follow ADDS's flags: r7 unknown, undecided, 7 */
	it eq
	subeq r7, r7, #4
	ldr r0, [r3]
	ldr r4, [r7]
	END
	sub r7, r3, #8
	BEGIN(7)                  /* LDMIA with write-back: r7 0x2001BFF8 -> 0x2001C000, SRAM2, read */
	ldmia r7!, {r0, r4}       /* after SRAM1: 6 + 1 */
	ldr r5, [r1]
	ldr r6, [r7]
	END
	/* A CYCCNT read after the pair, in the same block, sees its cycle: from the first read to the
	 * second, ldr 2 (its own data phase), SRAM1 1 (pipelined), SRAM2 1 + 1; a wrong count halts
	 * on BKPT #3, which fails the test. */
	ldr r11, =0xE0001004      /* DWT_CYCCNT */
	ldr r5, [r11]
	ldr r0, [r1]
	ldr r4, [r3]
	ldr r6, [r11]
	subs r6, r6, r5
	cmp r6, #5
	beq 2f
	bkpt #3
2:	pop {r4-r11, pc}
	.p2align 2
table:	.word 1, 2
	.ltorg
