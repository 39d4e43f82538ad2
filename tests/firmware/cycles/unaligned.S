/* Unaligned loads and stores (Cortex-M4 TRM r0p1 3.3.2, docs/cycle-model.md "Unaligned
 * accesses"): an unaligned word or halfword access is done as aligned ones, "a byte, a halfword,
 * and a byte" for a word at an odd address (+2), two halfwords at 2 mod 4 (+1), two bytes for a
 * halfword at an odd address (+1). r9 points at a word-aligned scratch buffer in SRAM
 * (vectors.S). BEGIN(n): the TRM's cycles with those extras; tests/sim/cycles_e2e.sh checks each
 * and that the ledger's total (its `unaligned` line among them) is the final CYCCNT. */
#include "snippet.h"
SNIPPETS_ENTRY
	BEGIN(2)                  /* ldr.w aligned: 2 */
	ldr.w r0, [r9, #0]
	END
	BEGIN(4)                  /* word at 1 mod 4: 2 + 2 */
	ldr.w r0, [r9, #1]
	END
	BEGIN(3)                  /* word at 2 mod 4: 2 + 1 */
	ldr.w r0, [r9, #2]
	END
	BEGIN(4)                  /* word at 3 mod 4: 2 + 2 */
	ldr.w r0, [r9, #3]
	END
	BEGIN(2)                  /* halfword at 2 mod 4: aligned, 2 */
	ldrh.w r0, [r9, #2]
	END
	BEGIN(3)                  /* halfword at an odd address: 2 + 1 */
	ldrh.w r0, [r9, #1]
	END
	BEGIN(3)                  /* ldrsh at 3 mod 4 (the halfword crosses a word): 2 + 1 */
	ldrsh.w r0, [r9, #3]
	END
	BEGIN(2)                  /* ldrb at an odd address: a byte is always aligned, 2 */
	ldrb.w r0, [r9, #1]
	END
	BEGIN(4)                  /* two loads pipelined (2 + 1), the second unaligned at 2 mod 4: + 1 */
	ldr.w r0, [r9, #0]
	ldr.w r1, [r9, #6]
	END
	BEGIN(3)                  /* str at 1 mod 4: 1 + 2 */
	str.w r0, [r9, #1]
	END
	BEGIN(2)                  /* str at 2 mod 4: 1 + 1 */
	str.w r0, [r9, #2]
	END
	BEGIN(2)                  /* strh at an odd address: 1 + 1 */
	strh.w r0, [r9, #5]
	END
	BEGIN(6)                  /* movs 1; ldr through the index it wrote (+1, 3.3.2) at 3 mod 4: 2 + 1 + 2 */
	movs r1, #3
	ldr r0, [r9, r1]
	END
/* How bench-sim decides each access by default (docs/cycle-model.md "Unaligned accesses"), the
 * same cycles as the exact hook: from the registers at the block's entry (above, and a
 * conditional one whose flags a CMP of known registers gives), lazily (flags it cannot know: a
 * hook once the address is found unaligned), from the registers at the block's exit (a base the
 * block loads: untouched after, moved by a write-back or an ADD), and by a hook (a loaded base
 * loaded again after). [r9, #64] holds 0, [r9, #68] the address r9 + 1. */
	movs r3, #0
	str r3, [r9, #64]
	add r3, r9, #1
	str r3, [r9, #68]
	BEGIN(4)                  /* entry, conditional, passes: + 1 (2 mod 4) */
	cmp r9, r9
	it eq
	ldreq.w r0, [r9, #2]
	END
	BEGIN(3)                  /* entry, conditional, fails: not run, no extra */
	cmp r9, r9
	it ne
	ldrne.w r0, [r9, #2]
	END
	BEGIN(6)                  /* lazy: the flags come from a load: + 1 (odd) */
	ldr.w r3, [r9, #64]
	cmp r3, #0
	it eq
	ldrheq.w r0, [r9, #1]
	END
	BEGIN(6)                  /* exit: a loaded base: + 2 (1 mod 4) */
	ldr.w r2, [r9, #68]
	ldr.w r0, [r2, #0]
	END
	BEGIN(5)                  /* exit: a loaded base written back: + 1 (odd) */
	ldr.w r2, [r9, #68]
	ldrh.w r0, [r2], #2
	END
	BEGIN(6)                  /* exit: the base moved by an ADD after: + 1 (2 mod 4) */
	ldr.w r2, [r9, #68]
	ldr.w r0, [r2, #1]
	adds r2, #4
	END
	BEGIN(7)                  /* hook: a loaded base loaded again after: + 2 (3 mod 4) */
	ldr.w r2, [r9, #68]
	ldr.w r0, [r2, #2]
	ldr.w r2, [r9, #0]
	END
/* An exit-decided access whose base a later ADD moves, in a block asked the time between the two:
 * the MMIO read of DWT_CYCCNT (r12) decides it there (core_now), before the ADD has run, from the
 * address before it: r9 + 1 + 3, aligned. Taking the ADD back from the registers then would give
 * r9 + 3 (3 mod 4): + 2 cycles that are not there. */
	ldr r12, =0xE0001004      /* DWT_CYCCNT */
	BEGIN(6)                  /* exit, asked the time before the ADD: aligned, 2 + 2 + 1 + 1 */
	ldr.w r2, [r9, #68]
	ldr.w r0, [r2, #3]
	ldr.w r1, [r12]
	adds r2, #1
	END
	bx lr
