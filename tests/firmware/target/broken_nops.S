/* Broken on purpose (tests/target): the "nop10" sled holds 9 NOPs. Otherwise examples/nops.S.
 */
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
	SLED 2, nop10, 9
	SLED 3, nop100, 100
	SLED 4, nop1000, 1000
	b 1b
2:
	bl bench_done
	movs r0, #0
	pop {r4, pc}
	.size main, . - main
