/* Core test cases (tests/sim/core_test.c). The test writes `test_id` in SRAM before the core
 * runs; reset_handler dispatches on it. Fault handlers halt with a BKPT whose immediate names them
 * (0x20 HardFault, 0x21 UsageFault, 0x22 BusFault, 0x23 SVCall, 0x24-0x25 PendSV), so the test
 * reads CFSR/HFSR/BFAR and the stacked frame at that halt. */
	.syntax unified
	.thumb
#define SCB_ICSR 0xE000ED04
#define SCB_SHCSR 0xE000ED24
#define SCB_CPACR 0xE000ED88
#define DEMCR 0xE000EDFC
#define DWT_CTRL 0xE0001000
#define DWT_CYCCNT 0xE0001004
#define SYST_CSR 0xE000E010

	.section .vectors, "a"
	.word 0x20020000          /* initial MSP: top of SRAM */
	.word reset_handler
	.word hang                /* NMI */
	.word hardfault_handler
	.word hang                /* MemManage */
	.word busfault_handler
	.word usagefault_handler
	.word hang, hang, hang, hang
	.word svc_handler
	.word hang, hang
	.word pendsv_handler
	.word systick_handler

	.section .rodata.vectors2, "a"
	.align 7                  /* VTOR alignment: 128 bytes for up to 32 entries */
vectors2:
	.word 0x20020000
	.rept 15
	.word plain_handler + 1
	.endr

	.align 7
vectors3:
	.word 0x20020000
	.rept 13
	.word plain_handler + 1
	.endr
	.word nested_pendsv + 1   /* 14 PendSV */
	.word plain_handler + 1   /* 15 SysTick */
	.rept 5
	.word plain_handler + 1
	.endr
	.word nested_irq5 + 1     /* 16 + 5 */

	.align 7
vectors4:                         /* counting handlers for PendSV, SysTick, IRQ 0 (cases 18-20) */
	.word 0x20020000
	.rept 13
	.word plain_handler + 1
	.endr
	.word counting_handler + 1    /* 14 PendSV */
	.word counting_handler + 1    /* 15 SysTick */
	.word counting_handler + 1    /* 16 + 0 */

	.align 7
vectors5:                         /* case 22: SysTick records its stacked return address */
	.word 0x20020000
	.rept 14
	.word plain_handler + 1
	.endr
	.word pc_handler + 1          /* 15 SysTick */

	.align 7
vectors6:                         /* case 23: SysTick records its latest stacked return address */
	.word 0x20020000
	.rept 14
	.word plain_handler + 1
	.endr
	.word last_pc_handler + 1     /* 15 SysTick */

	.section .noinit, "aw", %nobits
	.global test_id
test_id: .space 4
	.global tick_count
tick_count: .space 4
	.global tick_pc
tick_pc: .space 4

	.text
	.thumb_func
	.global reset_handler
reset_handler:
	ldr r0, =test_id
	ldr r0, [r0]
	adr r1, cases
	ldr pc, [r1, r0, lsl #2]
	.align 2
cases:
	.word hang + 1, case_bad_read + 1, case_bad_read_busfault + 1, case_udf + 1
	.word case_udf_usagefault + 1, case_fp_off + 1, case_bkpt + 1, case_systick + 1
	.word case_fp_stacking + 1, case_svc + 1, case_cyccnt_ldr + 1, case_lockup + 1
	.word case_wfi + 1, case_tail_chain + 1, case_slices + 1, case_nested + 1
	.word case_watch + 1, case_sleep_on_exit + 1, case_pend_sw + 1, case_pend_sw + 1
	.word case_pend_sw + 1, case_pend_loop + 1, case_tick_mid_block + 1, case_pend_exact + 1

	.thumb_func
case_bad_read:                    /* 1: unmapped load, BusFault disabled: HardFault FORCED */
	ldr r0, =0x30000000
	ldr r1, [r0]
	b hang

	.thumb_func
case_bad_read_busfault:           /* 2: the same with SHCSR.BUSFAULTENA: BusFault */
	ldr r0, =SCB_SHCSR
	mov r1, #(1 << 17)
	str r1, [r0]
	ldr r0, =0x30000004
	.global bad_read_insn
bad_read_insn:
	ldr r1, [r0]
	b hang

	.thumb_func
case_udf:                         /* 3: UDF, UsageFault disabled: HardFault FORCED */
	.global udf_insn
udf_insn:
	udf #7
	b hang

	.thumb_func
case_udf_usagefault:              /* 4: UDF with SHCSR.USGFAULTENA: UsageFault UNDEFINSTR */
	ldr r0, =SCB_SHCSR
	mov r1, #(1 << 18)
	str r1, [r0]
	dsb
	isb
	udf #8
	b hang

	.thumb_func
case_fp_off:                      /* 5: FP instruction with CPACR CP10/CP11 off: NOCP */
	mov r0, #0
	.global fp_insn
fp_insn:
	vmov s0, r0
	b hang

	.thumb_func
case_bkpt:                        /* 6: BKPT without a debugger: HardFault DEBUGEVT */
	.global bkpt_insn
bkpt_insn:
	bkpt #0x30
	b hang

	.thumb_func
case_systick:                     /* 7: one SysTick interrupt inside a 1000-NOP stretch */
	ldr r0, =DEMCR
	mov r1, #(1 << 24)        /* TRCENA */
	str r1, [r0]
	ldr r0, =DWT_CTRL
	ldr r1, =((1 << 18) | 1)  /* EXCEVTENA, CYCCNTENA */
	str r1, [r0]
	ldr r0, =SYST_CSR
	ldr r1, =800
	str r1, [r0, #4]          /* RVR: an event every 801 cycles */
	mov r1, #0
	str r1, [r0, #8]          /* CVR */
	mov r1, #7                /* CLKSOURCE processor, TICKINT, ENABLE */
	str r1, [r0]
	isb
	bkpt #1
	.rept 1000
	nop
	.endr
	bkpt #2
	ldr r0, =SYST_CSR
	mov r1, #0
	str r1, [r0]
	bkpt #4
	b hang

	.thumb_func
case_fp_stacking:                 /* 8: FP context, lazy stacking, restore on return */
	ldr r0, =SCB_CPACR
	mov r1, #(0xF << 20)
	str r1, [r0]
	dsb
	isb
	mov r0, #0x100
	mov r2, #0
1:	vmov s0, r0               /* s0..s15 = 0x100..0x10F, in reverse through s0 shifts */
	vmov s1, s0
	vmov s2, s1
	vmov s3, s2
	vmov s4, s3
	vmov s5, s4
	vmov s6, s5
	vmov s7, s6
	vmov s8, s7
	vmov s9, s8
	vmov s10, s9
	vmov s11, s10
	vmov s12, s11
	vmov s13, s12
	vmov s14, s13
	vmov s15, s14
	ldr r0, =SCB_ICSR
	mov r1, #(1 << 28)        /* PENDSVSET */
	str r1, [r0]
	dsb
	isb
	bkpt #0x26                /* back in thread mode: s0 restored from the frame */
	bkpt #4
	b hang

	.thumb_func
case_svc:                         /* 9: SVC: handler with the return address after the SVC */
	.global svc_insn
svc_insn:
	svc #5
	bkpt #0x28
	bkpt #4
	b hang

	.thumb_func
case_cyccnt_ldr:                  /* 10: LDR of DWT_CYCCNT inside a block is exact per instruction */
	ldr r0, =DEMCR
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	mov r1, #1
	str r1, [r0]
	ldr r1, =DWT_CYCCNT
	ldr r2, [r1]
	.rept 10
	nop
	.endr
	ldr r3, [r1]
	subs r4, r3, r2
	ldr r2, [r1]
	.rept 20
	nop
	.endr
	ldr r3, [r1]
	subs r5, r3, r2
	bkpt #0x27
	bkpt #4
	b hang

	.thumb_func
case_lockup:                      /* 11: a fault inside HardFault: lockup */
	udf #9
	b hang

	.thumb_func
case_wfi:                         /* 12: WFI sleeps until SysTick; time skips, SLEEPCNT counts */
	ldr r0, =DEMCR
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	ldr r1, =((1 << 19) | (1 << 18) | 1) /* SLEEPEVTENA, EXCEVTENA, CYCCNTENA */
	str r1, [r0]
	ldr r0, =SYST_CSR
	ldr r1, =1999
	str r1, [r0, #4]
	mov r1, #0
	str r1, [r0, #8]
	mov r1, #7
	str r1, [r0]
	bkpt #1                   /* the test reads SYST_CVR here */
	wfi
	bkpt #2
	bkpt #4
	b hang

	.thumb_func
case_tail_chain:                  /* 13: SysTick and PendSV pending under PRIMASK; CPSIE takes */
	ldr r0, =DEMCR            /* SysTick, then PendSV tail-chained (priority 0xF0) */
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	ldr r1, =((1 << 18) | 1)
	str r1, [r0]
	ldr r0, =0xE000ED08       /* VTOR: the second table, plain handlers */
	ldr r1, =vectors2
	str r1, [r0]
	ldr r0, =0xE000ED20       /* SHPR3: PendSV 0xF0, SysTick 0x00 */
	mov r1, #0x00F00000
	str r1, [r0]
	cpsid i
	ldr r0, =SCB_ICSR
	mov r1, #((1 << 28) | (1 << 26)) /* PENDSVSET | PENDSTSET */
	str r1, [r0]
	dsb
	isb
	bkpt #1
	cpsie i
	bkpt #2
	bkpt #4
	b hang

	.thumb_func
case_slices:                      /* 14: a loop whose block reads DWT_CYCCNT (MMIO) and counts */
	ldr r0, =DEMCR            /* in memory; the result must not depend on how it is sliced */
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	mov r1, #1
	str r1, [r0]
	ldr r1, =DWT_CYCCNT
	ldr r5, =tick_count
	mov r3, #0
	str r3, [r5]
	mov r4, #0
	bkpt #1
1:	ldr r2, [r1]              /* block A: the MMIO read and the memory count */
	ldr r3, [r5]
	adds r3, r3, #1
	str r3, [r5]
	cmp r3, #0
	bne 2f                    /* taken: a conditional exit, as in pfp_isr_enter */
	nop
2:	adds r4, r4, #1           /* block B: the register count and the loop */
	cmp r4, #200
	bne 1b
	bkpt #2
	bkpt #4
	b hang

	.thumb_func
case_nested:                      /* 15: PendSV (priority 0xF0) pends IRQ 5 (0x40) by STIR: */
	ldr r0, =0xE000ED08       /* IRQ 5 preempts it, then PendSV resumes, then thread mode */
	ldr r1, =vectors3
	str r1, [r0]
	ldr r0, =0xE000ED20       /* SHPR3: PendSV 0xF0 */
	mov r1, #0x00F00000
	str r1, [r0]
	ldr r0, =0xE000E405       /* NVIC_IPR5 byte */
	mov r1, #0x40
	strb r1, [r0]
	ldr r0, =0xE000E100       /* NVIC_ISER0: IRQ 5 */
	mov r1, #(1 << 5)
	str r1, [r0]
	ldr r0, =SCB_ICSR
	mov r1, #(1 << 28)        /* PENDSVSET */
	str r1, [r0]
	dsb
	isb
	bkpt #2                   /* back in thread mode */
	bkpt #4
	b hang

	.thumb_func
nested_pendsv:
	ldr r0, =0xE000EF00       /* STIR: IRQ 5 */
	mov r1, #5
	str r1, [r0]
	dsb
	isb
	bkpt #0x2B                /* IRQ 5 has run and returned here */
	bx lr

	.thumb_func
nested_irq5:
	bkpt #0x2A                /* nested inside PendSV */
	bx lr

	.thumb_func
case_watch:                       /* 16: data watchpoints on tick_count: a store, then a load */
	ldr r5, =tick_count
	mov r3, #7
	bkpt #1                   /* the test sets DWT comparator 0 here */
	nop
	.global watched_store
watched_store:
	str r3, [r5]
	nop
	nop
	b 1f
1:	bkpt #0x2C                /* not reached before the watchpoint halts */
	ldr r4, [r5]
	b 2f
2:	bkpt #0x2D
	bkpt #4
	b hang

	.thumb_func
case_sleep_on_exit:               /* 17: SCR.SLEEPONEXIT: after PendSV returns, the core sleeps */
	ldr r0, =0xE000ED08
	ldr r1, =vectors2
	str r1, [r0]
	ldr r0, =0xE000ED10       /* SCR */
	mov r1, #2                /* SLEEPONEXIT */
	str r1, [r0]
	ldr r0, =SCB_ICSR
	mov r1, #(1 << 28)
	str r1, [r0]
	dsb
	isb
	bkpt #2                   /* reached only once something wakes the core */
	bkpt #4
	b hang

	.thumb_func
case_pend_sw:                     /* 18-20: a store of ICSR.PENDSTSET (18), ICSR.PENDSVSET (19) or */
	ldr r0, =0xE000ED08       /* NVIC_ISPR0 bit 0 (20) in the middle of a block, no DSB/ISB: the */
	ldr r1, =vectors4         /* handler runs once, then the rest of the block once */
	str r1, [r0]
	ldr r0, =0xE000E100       /* NVIC_ISER0: IRQ 0 */
	mov r1, #1
	str r1, [r0]
	ldr r5, =tick_count
	mov r3, #0
	str r3, [r5]
	mov r4, #0
	ldr r0, =test_id
	ldr r2, [r0]
	ldr r0, =SCB_ICSR
	mov r1, #(1 << 26)        /* PENDSTSET */
	cmp r2, #19
	it eq
	moveq r1, #(1 << 28)      /* PENDSVSET */
	cmp r2, #20
	itt eq
	ldreq r0, =0xE000E200     /* NVIC_ISPR0 */
	moveq r1, #1
	bkpt #1
	str r1, [r0]
	adds r4, r4, #1
	adds r4, r4, #1
	adds r4, r4, #1
	b 1f
1:	bkpt #2
	bkpt #4
	b hang

	.thumb_func
case_pend_loop:                   /* 21: PENDSTSET stored in a loop's only block, 5 passes: the */
	ldr r0, =0xE000ED08       /* handler runs once per pass */
	ldr r1, =vectors4
	str r1, [r0]
	ldr r5, =tick_count
	mov r3, #0
	str r3, [r5]
	mov r4, #0
	ldr r0, =SCB_ICSR
	mov r1, #(1 << 26)        /* PENDSTSET */
	bkpt #1
1:	str r1, [r0]
	adds r4, r4, #1
	cmp r4, #5
	bne 1b
	bkpt #2
	bkpt #4
	b hang

	.thumb_func
case_tick_mid_block:              /* 22: SysTick expires inside a 400-NOP block: taken there */
	ldr r0, =0xE000ED08
	ldr r1, =vectors5
	str r1, [r0]
	ldr r0, =DEMCR
	mov r1, #(1 << 24)
	str r1, [r0]
	ldr r0, =DWT_CTRL
	mov r1, #1
	str r1, [r0]
	ldr r5, =tick_pc
	mov r3, #0
	str r3, [r5]
	ldr r0, =SYST_CSR
	mov r1, #99               /* RVR 99: expires every 100 cycles */
	str r1, [r0, #4]
	str r1, [r0, #8]          /* CVR cleared */
	bkpt #1
	mov r1, #7                /* ENABLE | TICKINT | CLKSOURCE (processor clock) */
	str r1, [r0]
	b tick_sled
	.balign 1024              /* the sled is one block: inside one 1 KiB translation page */
	.global tick_sled
tick_sled:
	.rept 400
	nop
	.endr
	mov r1, #0
	str r1, [r0]              /* SysTick off */
	bkpt #2
	bkpt #4
	b hang

	.thumb_func
case_pend_exact:                  /* 23: PENDSTSET stored in a loop's block, 2 passes: the first */
	ldr r0, =0xE000ED08       /* pend is taken at the block's end, the second right after the */
	ldr r1, =vectors6         /* store (core_learn_pend_site, Armv7-M ARM B1.5.6) */
	str r1, [r0]
	ldr r5, =tick_pc
	mov r3, #0
	str r3, [r5]
	mov r4, #0
	ldr r0, =SCB_ICSR
	mov r1, #(1 << 26)        /* PENDSTSET */
	bkpt #1
1:	str r1, [r0]              /* bkpt #1 + 2 */
	adds r4, r4, #1           /* bkpt #1 + 4: where the second pend is taken */
	cmp r4, #2
	bne 1b
	bkpt #2                   /* bkpt #1 + 10: the block's end */
	bkpt #4
	b hang

	.thumb_func
last_pc_handler:                  /* every SysTick: the stacked PC, frame word 6 */
	ldr r0, =tick_pc
	ldr r1, [sp, #24]
	str r1, [r0]
	bx lr

	.thumb_func
pc_handler:                       /* the first SysTick only: the stacked PC, frame word 6 */
	ldr r0, =tick_pc
	ldr r1, [r0]
	cmp r1, #0
	bne 1f
	ldr r1, [sp, #24]
	str r1, [r0]
1:	ldr r0, =SYST_CSR
	bx lr

	.thumb_func
counting_handler:
	ldr r0, =tick_count
	ldr r1, [r0]
	adds r1, r1, #1
	str r1, [r0]
	bx lr

	.thumb_func
plain_handler:
	bx lr

	.thumb_func
hardfault_handler:
	ldr r0, =test_id
	ldr r0, [r0]
	cmp r0, #11
	beq 1f
	bkpt #0x20
	b hang
1:	udf #10                   /* a fault at priority -1: lockup */

	.thumb_func
usagefault_handler:
	bkpt #0x21
	b hang

	.thumb_func
busfault_handler:
	bkpt #0x22
	b hang

	.thumb_func
svc_handler:
	bkpt #0x23
	bx lr

	.thumb_func
pendsv_handler:
	bkpt #0x24                /* lazy state pending: FPCCR.LSPACT, nothing written yet */
	vmov r0, s0               /* first FP instruction in the handler: the lazy state is stacked */
	bkpt #0x25
	mov r1, #0
	vmov s0, r1               /* clobbered here, restored by the exception return */
	bx lr

	.thumb_func
systick_handler:
	bx lr

	.thumb_func
hang:
	b hang
