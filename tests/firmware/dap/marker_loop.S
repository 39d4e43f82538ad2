/* Test firmware for the debug-port end-to-end tests (tests/sim/e2e_openocd.sh): a marker pair
 * around NNOPS NOPs in an endless loop, as the prototype's prog.S, plus labels the tests set
 * breakpoints on. Unconditional BKPTs: these tests always run under a debugger.
 * Expected: CYCCNT(marker_end) - CYCCNT(marker_begin) == NNOPS (one cycle per NOP, Cortex-M4 TRM
 * 3.3.1; OpenOCD skips the BKPT on resume, so the BKPT itself costs nothing). */
	.syntax unified
	.cpu cortex-m4
	.thumb

	.section .vectors, "a"
	.word 0x20020000            /* initial MSP: top of the 128 KiB SRAM */
	.word _start + 1
	.rept 14
	.word hang + 1              /* NMI, faults, SVC, PendSV, SysTick: all park in hang */
	.endr

	.text
	.global _start
	.thumb_func
_start:
	/* DEMCR.TRCENA (Armv7-M ARM C1.6.5) then DWT_CTRL.CYCCNTENA (C1.8.7): CYCCNT counts. */
	ldr r0, =0xE000EDFC
	ldr r1, [r0]
	orr r1, r1, #0x01000000
	str r1, [r0]
	ldr r0, =0xE0001000
	ldr r1, [r0]
	orr r1, r1, #1
	str r1, [r0]
	movs r4, #0
	.global loop
loop:
	.global marker_begin
marker_begin:
	bkpt #1
	.rept NNOPS
	nop
	.endr
	.global marker_end
marker_end:
	bkpt #2
	adds r4, r4, #1             /* r4 counts the passes: the tests read it */
	.global bp_here
bp_here:
	nop
	b loop

	.global hang
	.thumb_func
hang:
	b hang
	.pool

	/* For the watchpoint tests (tests/sim/e2e_stlink.c): placed after the pool above, so no
	 * address the other tests know moves. The debugger resumes at wp_store with a DWT write
	 * watchpoint on WP_ADDR; the core halts after the store completes (Armv7-M ARM C1.8.1), at
	 * wp_after. */
	.global wp_store
	.thumb_func
wp_store:
	ldr r0, =0x20000200         /* WP_ADDR: SRAM the stack (top of SRAM) never reaches */
	str r4, [r0]
	.global wp_after
wp_after:
	b hang
	.pool
