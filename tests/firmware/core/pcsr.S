/* DWT_PCSR sampling (tests/sim/pcsr_test.c): a loop over two functions of known cycle shares. The
 * test reads the regions' bounds from R4-R9 at bkpt #1, then lets the loop run and reads PCSR
 * between slices: every sample must be an instruction of the loop, fa's and fb's shares of the
 * samples their shares of the cycles (the core's ledger), and instructions other than block
 * starts must be seen (fa and fb are one block each). */
#include "vectors.inc"
reset_handler:
	ldr r4, =loop
	ldr r5, =loop_end
	ldr r6, =fa
	ldr r7, =fa_end
	ldr r8, =fb
	ldr r9, =fb_end
	ldr r3, =0x20000100  /* fb's loads: SRAM1 */
	bkpt #1
loop:                 /* the loop's own three blocks: bl, bl, b */
	bl fa
	bl fb
	b loop
loop_end:
fa:                   /* about three quarters of the cycles */
	.rept 60
	nop
	.endr
	bx lr
fa_end:
fb:                   /* about a quarter: a different mix of one- and two-cycle instructions */
	.rept 8
	adds r0, r0, #1
	ldr r1, [r3]
	.endr
	bx lr
fb_end:
	.thumb_func
hang:
	b hang
	.ltorg
