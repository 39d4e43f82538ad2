/* The ends of a stand-alone run (tests/sim/run_end.sh, docs/sim.md "The end of a stand-alone
 * run"): one source, one ELF per CASE.
 *   1 ret_fault  main returns into a reset handler that returns as libopencm3's does (LR is
 *                0xFFFFFFFF from reset, Armv7-M ARM B1.5.5): the fetch from 0xFFFFFFFE faults,
 *                HardFault's handler is a `b .` (libopencm3's blocking_handler). Ends: spin.
 *   2 spin       thread mode `b .` with nothing enabled. Ends: spin.
 *   3 wfi_tick   an idle WFI loop with SysTick (TICKINT) running: must not end while it runs;
 *                the 5th tick's handler stops SysTick, the next WFI sleeps for good. Ends: sleep.
 *   4 spin_tick  the same idle loop as a `b .`: must not end while SysTick can preempt it.
 *   5 uart       USART2: a line, an empty line, a 300-character line, then `done#` with no
 *                newline and a `b .` (pqm4's speed tests end so).
 */
	.syntax unified
	.thumb
#define SYST_CSR    0xE000E010
#define SYST_RVR    0xE000E014
#define SYST_CVR    0xE000E018
#define RCC_APB1ENR 0x40023840
#define USART2_DR   0x40004404
#define USART2_CR1  0x4000440C

	.section .vectors, "a"
	.word 0x20020000
	.word reset_handler
	.word blocking_handler    /* NMI */
	.word blocking_handler    /* HardFault */
	.rept 11
	.word blocking_handler
	.endr
	.word systick_handler     /* 15 */

	.section .noinit, "aw", %nobits
ticks: .space 4

	.text
	.thumb_func
	.global reset_handler
reset_handler:
	push {lr}
	ldr r0, =ticks
	movs r1, #0
	str r1, [r0]
	bl main
	pop {pc}                  /* LR 0xFFFFFFFF: returns into 0xFFFFFFFE, which faults */

	.thumb_func
	.global blocking_handler
blocking_handler:
	b blocking_handler

	.thumb_func
	.global systick_handler
systick_handler:
	ldr r0, =ticks
	ldr r1, [r0]
	adds r1, #1
	str r1, [r0]
	cmp r1, #5
	bne 1f
	ldr r0, =SYST_CSR
	movs r1, #0               /* ENABLE = TICKINT = 0: nothing will wake the core again */
	str r1, [r0]
1:	bx lr

	.thumb_func
	.global main
main:
#if CASE == 1
	movs r0, #100
1:	subs r0, #1
	bne 1b
	bx lr
#elif CASE == 2
	.global spin_here
spin_here:
	b spin_here
#elif CASE == 3 || CASE == 4
	ldr r0, =SYST_RVR
	ldr r1, =999              /* a tick every 1000 cycles */
	str r1, [r0]
	ldr r0, =SYST_CVR
	movs r1, #0
	str r1, [r0]
	ldr r0, =SYST_CSR
	movs r1, #7               /* CLKSOURCE (core clock), TICKINT, ENABLE */
	str r1, [r0]
	.global idle
idle:
#if CASE == 3
	wfi
#endif
	b idle
#elif CASE == 5
	ldr r0, =RCC_APB1ENR
	ldr r1, [r0]
	orr r1, r1, #(1 << 17)    /* USART2EN */
	str r1, [r0]
	ldr r0, =USART2_CR1
	ldr r1, =0x2008           /* UE, TE */
	str r1, [r0]
	ldr r2, =USART2_DR
	adr r3, hello
	bl puts
	adr r3, empty
	bl puts
	movs r4, #0               /* 300 characters, 'a' to 'y' over and over, then a newline */
2:	movs r0, r4
	movs r1, #25
	udiv r5, r0, r1
	mls r0, r5, r1, r0
	adds r0, #'a'
	str r0, [r2]
	adds r4, #1
	cmp r4, #300
	bne 2b
	movs r0, #'\n'
	str r0, [r2]
	adr r3, done
	bl puts
	.global after_mark
after_mark:
	b after_mark
puts:
	ldrb r0, [r3], #1
	cbz r0, 3f
	str r0, [r2]
	b puts
3:	bx lr
	.p2align 2
hello: .asciz "hello\r\n"
	.p2align 2
empty: .asciz "\r\n"
	.p2align 2
done: .asciz "done#"
#endif
