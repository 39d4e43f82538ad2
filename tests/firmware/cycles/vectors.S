/* Vector table and start-up shared by the cycle-model snippets: enables the cycle counter
 * (DEMCR.TRCENA, DWT_CTRL.CYCCNTENA: Armv7-M ARM C1.6.5, C1.8.7), points r9 at a scratch buffer
 * in SRAM whose first word holds its own address (for the address-dependency snippets), then runs
 * `snippets`. Snippets that need the FPU enable it themselves. */
	.syntax unified
	.thumb
	.section .vectors, "a"
	.word 0x20020000          /* initial MSP: top of the 128 KiB SRAM */
	.word reset_handler
	.rept 9
	.word fault_handler       /* NMI, HardFault, MemManage, BusFault, UsageFault, reserved x4 */
	.endr
	.word svc_handler         /* SVCall, 11 */
	.word fault_handler, fault_handler /* DebugMonitor, reserved */
	.word pendsv_handler      /* PendSV, 14 */
	.word systick_handler     /* SysTick, 15 */

	.text
	.thumb_func
	.global reset_handler
reset_handler:
	ldr r0, =0xE000EDFC       /* DEMCR */
	ldr r1, [r0]
	orr r1, r1, #(1 << 24)    /* TRCENA */
	str r1, [r0]
	ldr r0, =0xE0001000       /* DWT_CTRL */
	ldr r1, [r0]
	orr r1, r1, #1            /* CYCCNTENA */
	str r1, [r0]
	ldr r9, =scratch
	str r9, [r9]
	bl snippets
	bkpt #4
1:	b 1b

	.thumb_func
	.weak svc_handler, pendsv_handler, systick_handler
svc_handler:
pendsv_handler:
systick_handler:
	.thumb_func
fault_handler:
	bkpt #0xfe                /* an unexpected exception: the test fails on this marker */
	bkpt #4                   /* and the run ends */
	b fault_handler

	.data
	.p2align 3
	.global scratch
scratch:
	.space 256
