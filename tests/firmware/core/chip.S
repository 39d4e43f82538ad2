/* Core-and-chip test cases (tests/sim/core_test.c, chip part): bit-banding from the core (Cortex-M4 TRM 3.7), the
 * DebugMonitor exception on BKPT (Armv7-M ARM C1.7), and STM32F4 interrupts reaching the NVIC (TIM6 update, EXTI
 * software trigger). The test writes `test_id` in SRAM; reset_handler dispatches on it. */
	.syntax unified
	.thumb
#define DEMCR     0xE000EDFC
#define DWT_CTRL  0xE0001000
#define NVIC_ISER0 0xE000E100
#define NVIC_ISER1 0xE000E104
#define RCC_CFGR  0x40023808
#define RCC_APB1ENR 0x40023840
#define TIM6      0x40001000
#define EXTI      0x40013C00
#define BB_SRAM(byte, bit) (0x22000000 + ((byte) - 0x20000000) * 32 + (bit) * 4)
#define BB_PERIPH(byte, bit) (0x42000000 + ((byte) - 0x40000000) * 32 + (bit) * 4)

	.section .vectors, "a"
vectors:
	.word 0x20020000
	.word reset_handler
	.word hang                /* NMI */
	.word hardfault_handler
	.rept 8
	.word hang
	.endr
	.word debugmon_handler    /* 12 DebugMonitor */
	.word hang, hang, hang
	.rept 6                   /* IRQ 0-5 */
	.word hang
	.endr
	.word exti0_handler       /* IRQ 6 EXTI0 */
	.rept 47                  /* IRQ 7-53 */
	.word hang
	.endr
	.word tim6_handler        /* IRQ 54 TIM6_DAC */

	.section .noinit, "aw", %nobits
	.global test_id
test_id: .space 4
	.global count
count: .space 4
	.global dfsr_seen
dfsr_seen: .space 4
	.global after
after: .space 4

	.text
	.thumb_func
	.global reset_handler
reset_handler:
	ldr r0, =count
	mov r1, #0
	str r1, [r0]
	str r1, [r0, #4]
	str r1, [r0, #8]
	ldr r0, =test_id
	ldr r0, [r0]
	adr r1, cases
	ldr pc, [r1, r0, lsl #2]
	.align 2
cases:
	.word hang + 1, case_bitband + 1, case_bitband_timing + 1, case_debugmon + 1
	.word case_debugmon_masked + 1, case_tim6 + 1, case_exti_swier + 1

	.thumb_func
case_bitband:                     /* 1: every alias access size, SRAM and peripheral */
	ldr r0, =0x20000100
	mov r1, #0
	str r1, [r0]
	mov r1, #0xFF             /* bits [31:1] of the value do not matter: bit 0 set writes 1 */
	ldr r0, =BB_SRAM(0x20000100, 5)
	str r1, [r0]              /* word: 0x20000100 bit 5 */
	ldr r0, =BB_SRAM(0x20000102, 1)
	strh r1, [r0]             /* halfword: byte 0x20000102 bit 1 = word bit 17 */
	ldr r0, =BB_SRAM(0x20000103, 7)
	strb r1, [r0]             /* byte: word bit 31 */
	ldr r0, =BB_SRAM(0x20000100, 5)
	ldr r2, [r0]              /* 1 */
	ldr r0, =BB_SRAM(0x20000102, 1)
	ldrh r3, [r0]             /* 1 */
	ldr r0, =BB_SRAM(0x20000103, 7)
	ldrb r4, [r0]             /* 1 */
	ldr r0, =BB_SRAM(0x20000100, 4)
	ldr r5, [r0]              /* 0 */
	mov r1, #0x0E             /* bit 0 clear writes 0 */
	ldr r0, =BB_SRAM(0x20000103, 7)
	str r1, [r0]              /* word access to byte 0x20000103's bit 7: word bit 31 cleared */
	ldr r0, =BB_PERIPH(0x40023800, 24)
	mov r1, #1
	str r1, [r0]              /* RCC_CR.PLLON, as HAL_RCC_OscConfig does (0x42470060) */
	ldr r0, =BB_PERIPH(0x40023800, 25)
	ldr r6, [r0]              /* RCC_CR.PLLRDY: 1 */
	bkpt #1
	b hang

	.thumb_func
case_bitband_timing:              /* 2: ten alias stores and loads against ten plain ones */
	ldr r0, =DEMCR
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	mov r1, #1
	str r1, [r0]
	ldr r0, =BB_SRAM(0x20000200, 0)
	ldr r2, =0x20000200
	mov r1, #1
	bkpt #1
	.rept 10
	str r1, [r0]
	ldr r3, [r0]
	.endr
	bkpt #2
	.rept 10
	str r1, [r2]
	ldr r3, [r2]
	.endr
	bkpt #3
	b hang

	.thumb_func
case_debugmon:                    /* 3: DEMCR.MON_EN, no debugger: BKPT enters DebugMonitor */
	ldr r0, =DEMCR
	mov r1, #(1 << 16)
	str r1, [r0]
	bkpt #9
	ldr r0, =after
	mov r1, #1
	str r1, [r0]
	b hang

	.thumb_func
case_debugmon_masked:             /* 4: the same with PRIMASK set: it cannot preempt, HardFault DEBUGEVT */
	ldr r0, =DEMCR
	mov r1, #(1 << 16)
	str r1, [r0]
	cpsid i
	bkpt #9
	b hang

	.thumb_func
case_tim6:                        /* 5: TIM6 update interrupt every 2000 cycles, five of them */
	ldr r0, =DEMCR
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	mov r1, #1
	str r1, [r0]
	ldr r0, =RCC_CFGR
	mov r1, #(5 << 10)        /* PPRE1 = /4: APB1 timers at HCLK / 2 */
	str r1, [r0]
	ldr r0, =NVIC_ISER1
	mov r1, #(1 << (54 - 32))
	str r1, [r0]
	ldr r0, =TIM6
	mov r1, #0
	str r1, [r0, #0x28]       /* PSC 0 */
	ldr r1, =999
	str r1, [r0, #0x2C]       /* ARR 999: 1000 timer ticks = 2000 core cycles */
	mov r1, #1
	str r1, [r0, #0x0C]       /* DIER.UIE */
	ldr r4, =count
	bkpt #1
	str r1, [r0]              /* CR1.CEN */
1:	wfi
	ldr r2, [r4]
	cmp r2, #5
	blt 1b
	bkpt #2
	b hang

	.thumb_func
case_exti_swier:                  /* 6: EXTI line 0 by software: IRQ 6 */
	ldr r0, =NVIC_ISER0
	mov r1, #(1 << 6)
	str r1, [r0]
	ldr r0, =EXTI
	mov r1, #1
	str r1, [r0]              /* IMR0 */
	str r1, [r0, #0x10]       /* SWIER0 */
	dsb
	isb
	ldr r0, =count
	ldr r2, [r0]              /* 1: the handler ran */
	ldr r0, =EXTI
	ldr r3, [r0, #0x14]       /* PR: 0, the handler cleared it */
	bkpt #1
	b hang

	.thumb_func
debugmon_handler:                 /* records DFSR, steps over the BKPT (its return address) */
	ldr r0, =0xE000ED30
	ldr r1, [r0]
	ldr r2, =dfsr_seen
	str r1, [r2]
	ldr r2, =count
	ldr r3, [r2]
	add r3, r3, #1
	str r3, [r2]
	ldr r1, [sp, #24]
	add r1, r1, #2
	str r1, [sp, #24]
	bx lr

	.thumb_func
tim6_handler:
	ldr r2, =TIM6
	mov r3, #0
	str r3, [r2, #0x10]       /* SR.UIF is rc_w0 */
	ldr r2, =count
	ldr r3, [r2]
	add r3, r3, #1
	str r3, [r2]
	bx lr

	.thumb_func
exti0_handler:
	ldr r2, =EXTI
	mov r3, #1
	str r3, [r2, #0x14]       /* PR is rc_w1 */
	ldr r2, =count
	ldr r3, [r2]
	add r3, r3, #1
	str r3, [r2]
	bx lr

	.thumb_func
hardfault_handler:
	ldr r2, =after
	mov r3, #2
	str r3, [r2]
	b hang

	.thumb_func
hang:
	b hang
