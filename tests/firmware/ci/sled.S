/* A NOP sled of SLED_N instructions between one BEGIN/END pair named "sled": built twice under the
 * same file name (base/sled.elf with 50, new/sled.elf with 55, tests/ci/e2e_test.sh) to give
 * `bench compare` a real pair of reports of one firmware, one 10% slower. Cortex-M4 TRM 3.3.1:
 * NOP is 1 cycle, so the virtual board measures exactly SLED_N. */
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
