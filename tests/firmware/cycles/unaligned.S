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
	bx lr
