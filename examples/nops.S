/* NOP sleds of 1, 10, 100 and 1000 instructions, each between a BEGIN/END pair: on the virtual board
 * each measures exactly its length in cycles (Cortex-M4 TRM 3.3.1: NOP 1 cycle), a check of the
 * whole chain (markers, DWT_CYCCNT, calibration). Pair ids 1-4 and names nop1..nop1000. */
#include "bench.h"

	.syntax unified
	.thumb
	.text

	.macro SLED id, name, n
	BENCH_ASM_BEGIN(\id, \name)
	.rept \n
	nop
	.endr
	BENCH_ASM_END(\id, \name)
	.endm

	.global main
	.type main, %function
	.thumb_func
main:
	push {r4, lr}
	bl bench_init
1:
	BENCH_ASM_SYNC
	cmp r0, #0
	beq 2f
	SLED 1, nop1, 1
	SLED 2, nop10, 10
	SLED 3, nop100, 100
	SLED 4, nop1000, 1000
	b 1b
2:
	bl bench_done
	movs r0, #0
	pop {r4, pc}
	.size main, . - main
