/* Vector table and fault handler for the RSP test firmware on QEMU mps2-an386 (Armv7-M ARM B1.5.3).
 * QEMU's gdbstub does not stop on a guest BKPT: with no host breakpoint there, the BKPT escalates
 * to HardFault (Armv7-M ARM C1.7.1, DHCSR.C_DEBUGEN clear) or DebugMonitor; both handlers step
 * over a 16-bit BKPT at the stacked PC so the firmware also runs without a debugger. */
	.syntax unified
	.thumb

	.section .vectors, "a", %progbits
	.word _estack
	.word reset_handler
	.word skip_bkpt_handler  /* NMI */
	.word skip_bkpt_handler  /* HardFault */
	.word skip_bkpt_handler  /* MemManage */
	.word skip_bkpt_handler  /* BusFault */
	.word skip_bkpt_handler  /* UsageFault */
	.word 0, 0, 0, 0
	.word skip_bkpt_handler  /* SVCall */
	.word skip_bkpt_handler  /* DebugMonitor */
	.word 0
	.word skip_bkpt_handler  /* PendSV */
	.word skip_bkpt_handler  /* SysTick */

	.text
	.thumb_func
	.global skip_bkpt_handler
skip_bkpt_handler:
	tst lr, #4               /* EXC_RETURN bit 2: which stack holds the frame (B1.5.8) */
	ite eq
	mrseq r0, msp
	mrsne r0, psp
	ldr r1, [r0, #24]        /* stacked return address */
	ldrh r2, [r1]
	lsrs r2, r2, #8
	cmp r2, #0xbe            /* BKPT T1: 1011 1110 imm8 (A7.7.17) */
	bne 1f
	adds r1, r1, #2
	str r1, [r0, #24]
	bx lr
1:	b 1b                     /* any other fault: stop here for the debugger to see */
