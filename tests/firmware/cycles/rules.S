/* One snippet per rule of the cycle model (docs/cycle-model.md), run from flash with 0 wait
 * states. BEGIN(n): n is the CYCCNT difference the Cortex-M4 TRM r0p1 table 3-1 / FPU table 7-1
 * give for the code up to END, with P by branch kind (docs/cycle-model.md: 1 for B<cc> and the
 * return BX LR, 2 for B, BL and register branches, 3 for loads to PC and TBB). tests/sim/cycles_e2e.sh checks each. */
#include "snippet.h"
SNIPPETS_ENTRY
	push {r4-r8, lr}
	ldr r0, =0xE000ED88       /* CPACR: CP10, CP11 full access (Armv7-M ARM B3.2.20) */
	ldr r1, [r0]
	orr r1, r1, #(0xF << 20)
	str r1, [r0]
	dsb
	isb

	/* NOP sleds of N cost exactly N. */
	BEGIN(1)
	nop
	END
	BEGIN(10)
	.rept 10
	nop
	.endr
	END
	BEGIN(100)
	.rept 100
	nop
	.endr
	END

	/* Data processing and multiplies: 1 each (the 32-bit ones word aligned: no fetch stall). */
	movs r0, #3
	movs r1, #5
	.p2align 2
	BEGIN(6)
	adds r2, r0, r1
	mul r3, r0, r1
	mla r3, r0, r1, r2
	umull r4, r5, r0, r1
	smlal r4, r5, r0, r1
	clz r6, r1
	END

	/* Branches: 1 + P taken, 1 not taken. */
	BEGIN(3)                  /* B: 1 + P, P = 2 */
	b 1f
	nop
1:	END
	movs r0, #0
	BEGIN(3)                  /* cmp 1 + beq not taken 1 + nop 1 */
	cmp r0, #1
	beq 1f
	nop
1:	END
	BEGIN(3)                  /* cmp 1 + bne taken 1 + P, P = 1 */
	cmp r0, #1
	bne 1f
	nop
1:	END
	BEGIN(4)                  /* cbz taken: 1 + P (P = 2), plus movs */
	movs r0, #0
	cbz r0, 1f
	nop
1:	END
	BEGIN(3)                  /* cbnz not taken: 1, plus movs and nop */
	movs r0, #0
	cbnz r0, 1f
	nop
1:	END
	movs r0, #10
	BEGIN(29)                 /* 10 x (subs 1 + bne 1) + 9 taken x P (1) */
1:	subs r0, #1
	bne 1b
	END
	/* A B<cc> presents its target at decode, taken or not (M3 TRM 1.4): 32-bit code leaves no word
	 * ahead, so after a not-taken one the next instruction's word comes a cycle late (jnk0le: a
	 * not-taken bne.w "will also take 2 cycles if there is less than 2 compressed instructions").
	 * The loop of the next three: b.w 1 + P (2); 2 x 4, + P (1) taken once = 12. */
	.macro loop32_twice
	movs r0, #2
	b.w 2f
	.p2align 2
2:	add.w r1, r1, #1
	add.w r1, r1, #1
	subs.w r0, r0, #1
	bne.w 2b
	.endm
	.p2align 2
	nop
	BEGIN(16)                 /* movs 1, the loop 12, add.w x2 + 1 */
	loop32_twice
	add.w r1, r1, #1
	add.w r1, r1, #1
	END
	.p2align 2
	nop
	BEGIN(16)                 /* the slot is the first cycle's: add.w, then adds in the next word */
	loop32_twice
	add.w r1, r1, #1
	adds r1, #1
	END
	.p2align 2
	nop
	BEGIN(15)                 /* two 16-bit instructions after the loop: no wait */
	loop32_twice
	adds r1, #1
	adds r1, #1
	END
	.p2align 2
	nop
	BEGIN(19)                 /* a UDIV after it: bench-sim translates that block twice (its divide
	                           * hook), and the second entry keeps the state: 13, 1 + 1 + 1, 3 (r1/r1) */
	loop32_twice
	add.w r1, r1, #1
	add.w r1, r1, #1
	udiv r2, r1, r1
	END
	BEGIN(5)                  /* bl 1 + P (2), bx lr 1 + P (1) */
	bl leaf_bx
	END
	BEGIN(10)                 /* bl 3, push {lr} 2, pop {pc} 2 + P (3) */
	bl leaf_pop
	END
	BEGIN(13)                 /* bl 3, push {r4, lr} 3, add sp 1, ldr pc 2 + 1 (SP from the add) + P (3) */
	bl leaf_ldr_pc
	END
	movs r0, #1
	BEGIN(6)                  /* tbb 2 + P (3), then the nop at entry 1 */
	tbb [pc, r0]
1:	.byte 0, (2f - 1b) / 2
2:	nop
	END
	adr r3, 3f
	orr r3, r3, #1            /* Thumb bit: BLX to an even address is an INVSTATE UsageFault */
	BEGIN(3)                  /* blx r3 1 + P (2) (the target is END) */
	blx r3
	nop
	.p2align 2
3:	END
	adr r3, 3f
	BEGIN(3)                  /* mov pc, r3: 1 + P (2) */
	mov pc, r3
	nop
	.p2align 2
3:	END

	/* Loads and stores (3.3.2). */
	mov r1, r9
	add r3, r9, #8
	BEGIN(2)
	ldr r0, [r1]
	END
	BEGIN(3)                  /* independent loads pipeline: N + 1 */
	ldr r0, [r1]
	ldr r2, [r3]
	END
	BEGIN(5)                  /* four independent loads */
	ldr r0, [r1]
	ldr r2, [r3]
	ldrb r4, [r1, #4]
	ldrh r5, [r3, #2]
	END
	/* Groups of 32-bit instructions at addresses 2 mod 4 (BEGIN's BKPT word aligned): the fetch
	 * model gives a homogeneous group at most one stall, "Groups of three or more unaligned wide
	 * instructions will take one extra cycle", stores only from four, a mix of memory and other
	 * instructions more ("can cause more than one delay cycle"; compendium, "Alignment rules"). */
	.p2align 2
	BEGIN(7)                  /* six add.w: 6 + 1 */
	add.w r0, r0, #1
	add.w r2, r2, #1
	add.w r4, r4, #1
	add.w r5, r5, #1
	add.w r6, r6, #1
	add.w r7, r7, #1
	END
	.p2align 2
	BEGIN(3)                  /* three str.w: 3, no stall */
	str.w r0, [r1, #4]
	str.w r0, [r1, #8]
	str.w r0, [r1, #12]
	END
	.p2align 2
	BEGIN(5)                  /* four str.w: 4 + 1 */
	str.w r0, [r1, #4]
	str.w r0, [r1, #8]
	str.w r0, [r1, #12]
	str.w r0, [r1, #16]
	END
	.p2align 2
	BEGIN(7)                  /* five independent ldr.w: 2 + 1 + 1 + 1 + 1, + 1 */
	ldr.w r0, [r1, #4]
	ldr.w r2, [r1, #8]
	ldr.w r4, [r1, #12]
	ldr.w r5, [r1, #16]
	ldr.w r6, [r1, #20]
	END
	.p2align 2
	BEGIN(10)                 /* add.w, add.w, ldr.w 2, four add.w: 9, + 2 - the mix */
	add.w r0, r0, #1
	add.w r2, r2, #1
	ldr.w r4, [r1, #4]
	add.w r5, r5, #1
	add.w r6, r6, #1
	add.w r7, r7, #1
	add.w r8, r8, #1
	END
	BEGIN(4)                  /* the second load's address is the first's result: no pipelining */
	ldr r0, [r1]
	ldr r2, [r0]
	END
	BEGIN(3)                  /* LDR then STR: 2 + 1 */
	ldr r0, [r1]
	str r0, [r3, #4]
	END
	BEGIN(4)                  /* STR then LDR: the load waits for the store's data phase (jnk0le) */
	str r0, [r3, #4]
	ldr r2, [r1]
	END
	BEGIN(5)                  /* STR then LDM: the same, 1 + 1 + (1 + 2) */
	str r0, [r3, #4]
	ldm r1, {r4, r5}
	END
	BEGIN(2)                  /* STR then STR: 1 each */
	str r0, [r3, #4]
	str r2, [r3, #8]
	END
	BEGIN(5)                  /* STR then LDRD: 1 + (3 + 1) */
	str r0, [r3, #4]
	ldrd r4, r5, [r1]
	END
	BEGIN(6)                  /* a STR that waited for its base still delays the LDR after it: 1 + 2 + 3 */
	adds r3, r3, #0
	str r0, [r3, #4]
	ldr r2, [r1]
	END
	BEGIN(3)                  /* a write-back load pipelines with the load before it (jnk0le) */
	ldr r0, [r1]
	ldr r2, [r3, #4]!
	END
	sub r3, r3, #4
	BEGIN(3)                  /* and with the load after it, on another base */
	ldr r0, [r3], #4
	ldr r2, [r1]
	END
	sub r3, r3, #4
	BEGIN(4)                  /* but not with a write-back load on the same base */
	ldr r0, [r3], #4
	ldr r2, [r3], #4
	END
	sub r3, r3, #8
	BEGIN(3)                  /* write-back stores on the same base do not chain */
	str r0, [r3], #4
	str r2, [r3], #4
	END
	sub r3, r3, #8
	movs r2, #0
	BEGIN(3)                  /* 3.3.2: LDR R0,[R1,R2]; STR R1,[R3,R2]: 3 */
	ldr r0, [r1, r2]
	str r0, [r3, r2]
	END
	BEGIN(4)                  /* a register-offset STR not after a load: 2, then LDR 2 */
	str r0, [r3, r2]
	ldr r4, [r1]
	END
	BEGIN(2)                  /* stores: 1 each */
	str r0, [r3, #4]
	strb r0, [r3, #5]
	END
	BEGIN(6)                  /* LDRD, STRD: 1 + N each */
	ldrd r4, r5, [r3]
	strd r4, r5, [r3, #8]
	END
	BEGIN(5)                  /* LDM 1 + N */
	ldm r3, {r4, r5, r6, r7}
	END
	BEGIN(10)                 /* PUSH, POP 1 + N */
	push {r4-r7}
	pop {r4-r7}
	END
	BEGIN(5)                  /* STMDB 1 + N */
	stmdb sp!, {r4-r6, lr}
	END
	add sp, #16

	/* Divide: 2 + ceil(q / 3), q the quotient's bits. */
	movs r1, #100
	movs r2, #10
	BEGIN(4)                  /* q = 4 */
	udiv r0, r1, r2
	END
	movs r1, #5
	movs r2, #7
	BEGIN(2)                  /* quotient 0 */
	udiv r0, r1, r2
	END
	movs r2, #0
	BEGIN(2)                  /* divide by zero: 0, DIV_0_TRP off */
	udiv r0, r1, r2
	END
	mov r1, #0xffffffff
	movs r2, #1
	BEGIN(12)                 /* q = 32: the maximum */
	udiv r0, r1, r2
	END
	movw r1, #0xffff
	BEGIN(8)                  /* q = 16 */
	udiv r0, r1, r2
	END
	ldr r1, =-1000
	movs r2, #3
	BEGIN(5)                  /* SDIV by magnitudes: q = 9 */
	sdiv r0, r1, r2
	END

	/* IT folding (note d). */
	movs r0, #0
	BEGIN(2)                  /* cmp 1, it folded 0, moveq 1 */
	cmp r0, #0
	it eq
	moveq r0, #1
	END
	BEGIN(3)                  /* after a 32-bit instruction IT is not folded */
	cmp.w r0, #0
	it eq
	moveq r0, #1
	END

	/* A conditional instruction that fails costs 1; a conditional POP PC ends its block. */
	movs r0, #1
	BEGIN(13)                 /* bl 3, push 3, cmp 1, it 0 (folded), popne taken 1 + N + P = 6 */
	bl leaf_popne
	END
	movs r0, #0
	BEGIN(14)                 /* bl 3, push 3, cmp 1, it 0, popne fails 1, pop 6 */
	bl leaf_popne
	END

	/* Barriers and special registers. */
	BEGIN(3)                  /* ISB: 1 + P, P = 2 */
	isb
	END
	BEGIN(2)                  /* DMB, DSB: 1 */
	dmb
	dsb
	END
	BEGIN(3)                  /* MRS 1, MSR 2 */
	mrs r0, primask
	msr primask, r0
	END

	/* Exceptions (TRM 3.3 / 2.3): entry 12, return 10 (its refill included), tail-chain 6. */
	movs r0, #0
	BEGIN(27)                 /* svc 1, entry 12, handler (cbz taken 3, bx lr 1), return 10 */
	svc #0
	END
	movs r0, #1
	BEGIN(36)                 /* svc 1, entry 12, handler 6 pends PendSV, tail-chain 6, bx lr 1, return 10 */
	svc #0
	END
	ldr r0, =0xE000E010       /* SysTick: CTRL, LOAD, VAL (Armv7-M ARM B3.3) */
	movs r1, #50
	str r1, [r0, #4]          /* LOAD: fires about 50 cycles into the loop */
	str r1, [r0, #8]          /* VAL: any write clears it */
	movs r1, #7
	movs r2, #20
	str r1, [r0]              /* ENABLE | TICKINT | CLKSOURCE (processor clock) */
	/* A loop of 20 x (subs 1 + bne 1) + 19 x P (1) = 59 cycles; the interrupt comes about 50
	 * cycles in, wherever it lands: + entry 12, handler 5 (it disables SysTick), return 10. */
	BEGIN(86)
1:	subs r2, #1
	bne 1b
	END
	/* FPU (table 7-1). Each BKPT #1 at an address 2 mod 4, so the 32-bit FP instructions after
	 * it are word aligned (no fetch stall; the fetch model has its own snippets). */
	.p2align 2
	nop
	BEGIN(3)
	vadd.f32 s0, s1, s2
	vsub.f32 s0, s1, s2
	vmul.f32 s0, s1, s2
	END
	BEGIN(6)
	vmla.f32 s0, s1, s2
	vfma.f32 s0, s1, s2
	END
	BEGIN(14)
	vdiv.f32 s0, s1, s2
	END
	BEGIN(14)
	vsqrt.f32 s0, s1
	END
	.p2align 2
	nop
	BEGIN(4)                  /* vcvt 1, vmov s<-r 1, vmov r<-s 1, vmrs 1 */
	vcvt.f32.s32 s0, s0
	vmov s1, r0
	vmov r0, s1
	vmrs APSR_nzcv, fpscr
	END
	BEGIN(2)                  /* VMOV of two core registers */
	vmov r0, r1, d0
	END
	/* The FPU result-use stall (TRM 7.2.3): arithmetic and conversions take a cycle longer when
	 * the next instruction reads the result, except as the addend of a multiply-accumulate.
	 * Pairs look one instruction back inside a unicorn block, which a 1 KiB page boundary ends
	 * (docs/cycle-model.md "Block boundaries"): a snippet that straddles 0x08000400 loses its
	 * pairing, so this group starts on a 16-byte line, past it. */
	.p2align 4
	BEGIN(3)                  /* vadd 1, vmul 1 + 1 (reads s0) */
	vadd.f32 s0, s1, s2
	vmul.f32 s3, s0, s4
	END
	BEGIN(4)                  /* vmul 1, vmla onto s0: 3, the addend is taken late */
	vmul.f32 s0, s1, s2
	vmla.f32 s0, s3, s4
	END
	BEGIN(5)                  /* vmul 1, vmla with s0 as a multiplicand: 3 + 1 */
	vmul.f32 s0, s1, s2
	vmla.f32 s3, s0, s4
	END
	BEGIN(3)                  /* vcvt 1, vmov r<-s 1 + 1 */
	vcvt.s32.f32 s0, s0
	vmov r0, s0
	END
	BEGIN(4)                  /* vadd s1 1, vmov r0, r1, d0 (s0, s1) 2 + 1 */
	vadd.f32 s1, s2, s3
	vmov r0, r1, d0
	END
	BEGIN(2)                  /* vabs and vneg are not late: vadd 1 */
	vabs.f32 s0, s1
	vadd.f32 s2, s0, s3
	END
	mov r1, r9
	add r3, r9, #8
	BEGIN(2)
	vldr s0, [r1]
	END
	BEGIN(3)                  /* VLDR.32 pipelines like LDR */
	vldr s0, [r1]
	vldr s1, [r3]
	END
	BEGIN(5)                  /* VSTR.32 2, VLDR.64 3 */
	vstr s0, [r3]
	vldr d1, [r3]
	END
	BEGIN(10)                 /* VPUSH/VPOP .32: 1 + N */
	vpush {s16-s19}
	vpop {s16-s19}
	END
	movs r0, #7
	/* seed 001 fut(): BL 3 + the body 10 (7 by table 7-1, and 3 FPU result-use stalls: each
	 * vcvt/vmul result is read by the next instruction, TRM 7.2.3) + BX LR 2: the 15 the article
	 * measured on silicon (docs/cycle-model.md "P, the pipeline refill"). The layout is
	 * fut-hardfp.elf's: BL word aligned, fut word aligned. */
	.p2align 2
	nop
	BEGIN(15)
	bl fut
	END

	/* Last, as it leaves lazy stacking off: the FP context is stacked (CONTROL.FPCA is set, the
	 * FP snippets above ran), FPCCR.LSPEN = 0 (Armv7-M ARM B3.2.22): 18 more words each way. */
	ldr r0, =0xE000EF34       /* FPCCR */
	ldr r1, [r0]
	bic r1, r1, #(1 << 30)    /* LSPEN */
	str r1, [r0]
	vmov s0, r1               /* an FP instruction: CONTROL.FPCA = 1 */
	movs r0, #0
	BEGIN(61)                 /* svc 1, entry 12 + 17, handler 4 (cbz taken 3, bx lr 1), return 10 + 17 */
	svc #0
	END

	/* A divide that fails its IT condition does not execute (Armv7-M ARM A7.3.3): no cycles by
	 * operands (100 / 10 would add 2). IT folded onto the cmp 0; the failed UDIV costs what a
	 * conditional instruction in the middle of a block costs in this model (its issue cost). */
	movs r1, #100
	movs r2, #10
	BEGIN(3)                  /* cmp 1, it 0, udivne 2 */
	cmp r1, r1                /* Z = 1: NE fails */
	it ne
	udivne r0, r1, r2
	END

	/* A taken B<cc> resolves at decode from the forwarded flags, whatever wrote them: cmemu's
	 * silicon tests of a Cortex-M4 (TI CC2652; cmemu-tests/tests/cc2652/instructions/
	 * control_flow/bcond.asm, makeAPSRDirty) time a taken bne with `movs.n r7, #1` right before
	 * it as an unconditional b with the same movs, in every memory they ran from: no refill of
	 * its own after a flag setter, and one instruction between them saves nothing. */
	BEGIN(3)                  /* movs 1, bne taken 1 + P (1) */
	movs r7, #1
	bne 1f
	nop
1:	END
	BEGIN(4)                  /* movs 1, nop 1, bne taken 2 */
	movs r7, #1
	nop
	bne 1f
	nop
1:	END
	movs r0, #10
	BEGIN(39)                 /* 10 x (subs, nop, bne) + 9 taken x P (1): the subs; bne loop above, + 10 */
1:	subs r0, #1
	nop
	bne 1b
	END

	/* jnk0le's loop template ("pipeline cycle test", CM3_pipetest_tmpl.S, run on the STM32F407,
	 * the board's own chip): 17 nop.w, subs.w, bne.w, word aligned, "20 cycles per loop", the
	 * bne.w "2 cycles taken": P = 1 after a 32-bit flag setter in a loop of 32-bit instructions,
	 * the form of pqm4's assembly loops. 10 rounds: 10 x 19 + 9 x P (1) = 199. */
	mov r8, #10
	.p2align 2
	nop
	BEGIN(199)
1:	.rept 17
	nop.w
	.endr
	subs.w r8, #1
	bne.w 1b
	END
	/* Eight add.w closed by a 16-bit bne after subs.w: 10 x 10 + 9 = 109. */
	mov r8, #10
	.p2align 2
	nop
	BEGIN(109)
1:	.rept 8
	add.w r1, r1, #1
	.endr
	subs.w r8, r8, #1
	bne 1b
	END
	/* The same two loops at 2 mod 4, every instruction a 32-bit one that is not word aligned.
	 * The branch to an unaligned 32-bit target waits a cycle for its second word (compendium
	 * "Branch timing": 3 cycles), and that is the cycle of the group it starts ("Alignment
	 * rules": one a group): the buffer is empty after the refill and the words come one a cycle,
	 * one ahead of decode. The first round, run into with the buffer full, takes its group's
	 * wait. 199 + 9 + 1 = 209 and 109 + 9 + 1 = 119 (218 and 128 when both were counted). */
	mov r8, #10
	.p2align 2
	BEGIN(209)
1:	.rept 17
	nop.w
	.endr
	subs.w r8, #1
	bne.w 1b
	END
	mov r8, #10
	.p2align 2
	BEGIN(119)
1:	.rept 8
	add.w r1, r1, #1
	.endr
	subs.w r8, r8, #1
	bne 1b
	END

	pop {r4-r8, pc}

	.thumb_func
leaf_bx:
	bx lr

	.thumb_func
leaf_pop:
	push {lr}
	pop {pc}

	/* push {r4, lr} 3, add sp 1, ldr pc, [sp, #-4] 2 + P: a return through LDR PC */
	.thumb_func
leaf_ldr_pc:
	push {r4, lr}
	add sp, #8
	ldr pc, [sp, #-4]

	.thumb_func
leaf_popne:
	push {r4, lr}
	cmp r0, #0
	it ne
	popne {r4, pc}
	pop {r4, pc}

	/* fut(int) of the barebench article, as gcc -O2 compiles it with the FPU. */
	.p2align 2
	.thumb_func
fut:
	vmov s15, r0
	vldr.32 s14, 1f
	vcvt.f32.s32 s15, s15
	vmul.f32 s15, s15, s14
	vcvt.s32.f32 s15, s15
	vmov r0, s15
	bx lr
	.p2align 2
1:	.word 1078530011          /* 3.14159265f */

	/* r0 = 0: return at once; else pend PendSV (ICSR.PENDSVSET, B3.2.4), which has the same
	 * priority, so it runs tail-chained after this handler returns. */
	.thumb_func
	.global svc_handler
svc_handler:
	cbz r0, 1f
	ldr r0, =0xE000ED04       /* ICSR */
	mov r1, #(1 << 28)
	str r1, [r0]
1:	bx lr

	.thumb_func
	.global pendsv_handler
pendsv_handler:
	bx lr

	.thumb_func
	.global systick_handler
systick_handler:
	ldr r0, =0xE000E010
	movs r1, #0
	str r1, [r0]              /* SysTick off: it fires once */
	bx lr
