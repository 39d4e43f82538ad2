/* NOP sleds between bench markers, for QEMU mps2-an386 through RSP with host-planted breakpoint
 * markers: the host must halt at every marker in order and see the right addresses. */
#include "bench.h"

	.syntax unified
	.thumb
	.text
	.thumb_func
	.global reset_handler
reset_handler:
	movs r0, #0
	BENCH_ASM_MARKER BENCH_KIND_CAL_BEGIN, 0, cal
	BENCH_ASM_MARKER BENCH_KIND_CAL_END, 0, cal
	BENCH_ASM_BEGIN(1, nop10)
	.rept 10
	nop
	.endr
	BENCH_ASM_END(1, nop10)
	BENCH_ASM_BEGIN(2, nop100)
	.rept 100
	nop
	.endr
	BENCH_ASM_END(2, nop100)
	BENCH_ASM_MARKER BENCH_KIND_DONE, 0, done
	.global halt_loop
	.thumb_func
halt_loop:
	b halt_loop
