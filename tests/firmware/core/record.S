/* A known call tree for bench-sim --record (docs/sim-record.md; tests/sim/record_e2e.py):
 *   bkpt #1   record: reset to here (no instruction)
 *   main calls f twice, f calls g each time
 *   bkpt #2   record: nodes f (child of the root) and g (child of f), entered 2 times each;
 *             lowest MSP 0x20020000 - 8 (f's push) - 20 (g's push) - 12 (g's sub) = 0x2001ffd8
 *   svc #0    SVCall (exception 11): its handler calls g
 *   bkpt #3   record: nodes exc:11 (child of the root) and g (child of it), entered once each,
 *             one exception; lowest MSP 0x20020000 - 32 (the basic frame, Armv7-M ARM B1.5.6)
 *             - 8 (the handler's push) - 20 - 12 = 0x2001ffb8
 *   then thread mode moves to PSP (0x2001f000, CONTROL.SPSEL) and calls f, then SVCs again
 *   bkpt #5   record: lowest PSP 0x2001f000 - 8 - 20 - 12 = 0x2001efd8 (f, g), the SVC's frame
 *             on PSP (0x2001efe0) above it; lowest MSP the handler's 0x20020000 - 8 - 20 - 12 =
 *             0x2001ffd8 (no frame on MSP: Armv7-M ARM B1.5.6)
 *   bkpt #4   done
 * No FP instruction: CONTROL.FPCA stays 0, so the frame is the basic one. */
#define VECTORS_SVC svc_handler
#include "vectors.inc"
reset_handler:
	bkpt #1
	bl f
	bl f
	bkpt #2
	svc #0
	bkpt #3
	ldr r0, =0x2001f000
	msr psp, r0
	movs r0, #2
	msr control, r0
	isb
	bl f
	svc #0
	bkpt #5
	bkpt #4
	.thumb_func
hang:
	b hang
	.ltorg

	.thumb_func
f:
	push {r4, lr}
	bl g
	pop {r4, pc}

	.thumb_func
g:
	push {r4-r7, lr}
	sub sp, #12
	movs r0, #3
1:	subs r0, #1
	bne 1b
	add sp, #12
	pop {r4-r7, pc}

	.thumb_func
svc_handler:
	push {r4, lr}
	bl g
	pop {r4, pc}
