/* FreeRTOS integration of the profile-point runtime: time a task does not run is left out of its
 * regions (PFP's pre-emption pause). Include this file at the END of FreeRTOSConfig.h, with
 * configUSE_TRACE_FACILITY 1 (it gives each TCB its uxTCBNumber), and put
 * PFP_FREERTOS_DEFINE_CONTEXTS() in one .c file of the application.
 *
 * FreeRTOS calls traceTASK_SWITCHED_OUT() and traceTASK_SWITCHED_IN() inside vTaskSwitchContext()
 * (tasks.c), with pxCurrentTCB the task leaving and then the task arriving; each task's open regions
 * are parked in the pfp_ctx slot of its task number. Interrupt handlers still call
 * pfp_isr_enter()/pfp_isr_exit() themselves (docs/regions.md "Interrupts").
 *
 * Slots are uxTCBNumber modulo PFP_FREERTOS_MAX_TASKS: an application that creates more tasks over
 * its life than that, with regions open across a switch, must raise it. */
#ifndef TARGET_INCLUDE_PFP_FREERTOS_H
#define TARGET_INCLUDE_PFP_FREERTOS_H

/* FreeRTOSConfig.h is also included by the ports' assembler files: C only below. */
#if !defined(__ASSEMBLER__) && !defined(__IAR_SYSTEMS_ASM__)

#include "pfp.h"

#ifndef PFP_FREERTOS_MAX_TASKS
#define PFP_FREERTOS_MAX_TASKS 16
#endif

extern struct pfp_ctx pfp_freertos_ctx[PFP_FREERTOS_MAX_TASKS];

#define PFP_FREERTOS_DEFINE_CONTEXTS() struct pfp_ctx pfp_freertos_ctx[PFP_FREERTOS_MAX_TASKS]

#define PFP_FREERTOS_CTX() (&pfp_freertos_ctx[pxCurrentTCB->uxTCBNumber % PFP_FREERTOS_MAX_TASKS])

#undef traceTASK_SWITCHED_OUT
#define traceTASK_SWITCHED_OUT() pfp_switch_out(PFP_FREERTOS_CTX())
#undef traceTASK_SWITCHED_IN
#define traceTASK_SWITCHED_IN() pfp_switch_in(PFP_FREERTOS_CTX())

#endif /* !__ASSEMBLER__ */
#endif /* TARGET_INCLUDE_PFP_FREERTOS_H */
