/* NOP sleds between BKPT markers (docs/markers.md), for the stand-alone debugger:
 *   bkpt #1, 100 NOPs, bkpt #2   -> cyccnt difference 100
 *   bkpt #1, 1000 NOPs, bkpt #2  -> 1000
 *   bkpt #1, bkpt #2 back to back -> both halt, difference 0
 *   bkpt #4                       -> done
 * Each NOP costs 1 cycle (Cortex-M4 TRM table 3-1, NOP); a BKPT halts before it executes. */
#include "vectors.inc"
reset_handler:
	bkpt #1
	.rept 100
	nop
	.endr
	bkpt #2
	bkpt #1
	.rept 1000
	nop
	.endr
	bkpt #2
	bkpt #1
	bkpt #2
	bkpt #4
	.thumb_func
hang:
	b hang
