/* Flash wait states: run with bench-sim --wait-states 5. Sequential fetches are hidden by the
 * prefetch buffer; a refill into flash pays P + WS (docs/cycle-model.md). The `.ramcode` snippets
 * run from SRAM and pay no wait states. */
#include "snippet.h"
	.syntax unified
	.thumb
	.text
	.thumb_func
	.global snippets
snippets:
	push {r4, lr}
	BEGIN(10)                 /* NOPs in flash: sequential, no wait states */
	.rept 10
	nop
	.endr
	END
	BEGIN(9)                  /* taken branch in flash: 1 + P + WS */
	b 1f
	nop
1:	END
	movs r0, #10
	BEGIN(92)                 /* 10 x 2 + 9 taken x (P + WS) */
1:	subs r0, #1
	bne 1b
	END
	BEGIN(9)                  /* ISB in flash: 1 + P + WS */
	isb
	END
	movs r0, #0
	BEGIN(3)                  /* not taken: no refill, no wait states */
	cmp r0, #1
	beq 1f
	nop
1:	END
	bl ram_snippets
	pop {r4, pc}

	.section .ramcode, "ax", %progbits
	.thumb_func
ram_snippets:
	BEGIN(4)                  /* taken branch in SRAM: 1 + P */
	b 1f
	nop
1:	END
	movs r0, #10
	BEGIN(47)                 /* the loop in SRAM: 10 x 2 + 9 x P */
1:	subs r0, #1
	bne 1b
	END
	bx lr
