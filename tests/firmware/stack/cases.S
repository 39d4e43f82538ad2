/* The stack frames of tests/firmware/stack/stack.c, to the byte (see there). Each function writes
 * its lowest stack word, so painting sees the same depth as the core's lowest SP. */
	.syntax unified
	.thumb
	.text

	.global frame_fn
	.type frame_fn, %function
	.thumb_func
frame_fn:
	push {r4, lr}
	sub sp, sp, #256
	str r4, [sp]
	add sp, sp, #256
	pop {r4, pc}
	.size frame_fn, . - frame_fn

/* rec(n): n more levels; 8 bytes each, the last included. */
	.global rec
	.type rec, %function
	.thumb_func
rec:
	push {r4, lr}
	cbz r0, 1f
	subs r0, r0, #1
	bl rec
1:	pop {r4, pc}
	.size rec, . - rec

/* Calls frame_fn through a register: the static call graph cannot follow it (an unknown call),
 * the virtual board sees frame_fn run. 8 bytes here and frame_fn's 264: 272. */
	.global ind_fn
	.type ind_fn, %function
	.thumb_func
ind_fn:
	push {r4, lr}
	ldr r0, =frame_fn
	blx r0
	pop {r4, pc}
	.size ind_fn, . - ind_fn
	.ltorg

/* Pends PendSV (ICSR.PENDSVSET, Armv7-M ARM B3.2.4) and waits for it to be taken. */
	.global irq_fn
	.type irq_fn, %function
	.thumb_func
irq_fn:
	push {r4, lr}
	ldr r0, =0xE000ED04
	mov r1, #0x10000000
	str r1, [r0]
	dsb
	isb
	pop {r4, pc}
	.size irq_fn, . - irq_fn

	.global PendSV_Handler
	.type PendSV_Handler, %function
	.thumb_func
PendSV_Handler:
	push {r4, lr}
	sub sp, sp, #64
	str r4, [sp]
	add sp, sp, #64
	pop {r4, pc}
	.size PendSV_Handler, . - PendSV_Handler
	.ltorg
