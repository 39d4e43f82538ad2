/* A recursion 10000 calls deep for bench-sim --record (tests/sim/record_e2e.py, case deep): a
 * real program's depth, past any fixed frame stack. rec pushes 8 bytes a level, so at bkpt #2 the
 * lowest MSP is 0x20020000 - 8 * 10000 = 0x2000c780, and the record has 10000 nested contexts of
 * rec, each entered once. */
#include "vectors.inc"
reset_handler:
	bkpt #1
	ldr r0, =10000
	bl rec
	bkpt #2
	bkpt #4
	.thumb_func
hang:
	b hang
	.ltorg

	.thumb_func
rec:
	push {r4, lr}
	subs r0, #1
	beq 1f
	bl rec
1:	pop {r4, pc}
