/* A NOP sled of SLED_N instructions between one BEGIN/END pair named "sled": built twice under the
 * same file name (base/sled.elf with 50, new/sled.elf with 55, tests/ci/e2e_test.sh) to give
 * `bench compare` a real pair of reports of one firmware, one 10% slower. Cortex-M4 TRM 3.3.1:
 * NOP is 1 cycle, so the virtual board measures exactly SLED_N. With SLED_PENDSV (pendsv/sled.elf)
 * every stretch pends PendSV first: every sample takes an exception (issue 26's "no gate passes on
 * nothing"). */
#include "bench.h"

	.syntax unified
	.thumb
	.text

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
	BENCH_ASM_BEGIN(1, sled)
#ifdef SLED_PENDSV
	/* Every stretch takes an exception: ICSR.PENDSVSET (Armv7-M ARM B3.2.4) pends PendSV, which
	 * is taken at once (nothing masks it), so every sample is flagged interrupted. */
	ldr r2, =0xE000ED04
	mov r3, #0x10000000
	str r3, [r2]
	dsb
	isb
#endif
	.rept SLED_N
	nop
	.endr
	BENCH_ASM_END(1, sled)
	b 1b
2:
	bl bench_done
	movs r0, #0
	pop {r4, pc}
	.size main, . - main
#ifdef SLED_PENDSV
	.ltorg

	.global PendSV_Handler
	.type PendSV_Handler, %function
	.thumb_func
PendSV_Handler:
	bx lr
	.size PendSV_Handler, . - PendSV_Handler
#endif
