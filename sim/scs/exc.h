/* Exceptions, the NVIC's and the SCB's state of the virtual Cortex-M4F (Armv7-M ARM B1.5, B3.2,
 * B3.4): exc.c takes, returns and escalates them; scs.c is their register face. */
#ifndef SIM_CORE_EXC_H
#define SIM_CORE_EXC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct sim_core;

/* Exception numbers (Armv7-M ARM B1.5.2, table B1-4). */
enum {
	EXC_RESET = 1,
	EXC_NMI = 2,
	EXC_HARDFAULT = 3,
	EXC_MEMMANAGE = 4,
	EXC_BUSFAULT = 5,
	EXC_USAGEFAULT = 6,
	EXC_SVCALL = 11,
	EXC_DEBUGMON = 12,
	EXC_PENDSV = 14,
	EXC_SYSTICK = 15,
	EXC_IRQ0 = 16,
};

#define CORE_MAX_EXC (EXC_IRQ0 + CORE_MAX_IRQ)

/* CFSR (B3.2.15): MMFSR [7:0], BFSR [15:8], UFSR [31:16]. */
#define CFSR_IBUSERR     (1u << 8)
#define CFSR_PRECISERR   (1u << 9)
#define CFSR_IMPRECISERR (1u << 10)
#define CFSR_UNSTKERR    (1u << 11)
#define CFSR_STKERR      (1u << 12)
#define CFSR_LSPERR      (1u << 13)
#define CFSR_BFARVALID   (1u << 15)
#define CFSR_UNDEFINSTR  (1u << 16)
#define CFSR_INVSTATE    (1u << 17)
#define CFSR_INVPC       (1u << 18)
#define CFSR_NOCP        (1u << 19)
#define CFSR_UNALIGNED   (1u << 24)
#define CFSR_DIVBYZERO   (1u << 25)
/* HFSR (B3.2.16). */
#define HFSR_VECTTBL  (1u << 1)
#define HFSR_FORCED   (1u << 30)
#define HFSR_DEBUGEVT (1u << 31u)

/* The exception unit's state (B1.5): one entry per exception number, the NVIC's arrays (B3.4) for
 * the external interrupts, the SCB's system-handler entries. The arrays hold the most an
 * implementation may have; c->num_irq interrupts are wired (struct core_soc). */
struct exc_state {
	bool pending[CORE_MAX_EXC];
	bool active[CORE_MAX_EXC];
	bool enabled[CORE_MAX_EXC];
	uint8_t prio[CORE_MAX_EXC]; /* programmed priority byte (IPR/SHPR) */
	uint8_t prio_mask;          /* the implemented bits of a priority byte (core_soc.prio_bits) */
	bool tail_chain;            /* an exception return just happened: entry costs a tail-chain */
};

/* The SCB's stored words (B3.2): most are rows of the SCS table (scs.c), which resets them. */
struct scb_state {
	uint32_t vtor, aircr_prigroup, scr, ccr, shcsr, cfsr, hfsr, mmfar, bfar, afsr;
	uint32_t cpacr, fpccr, fpcar, fpdscr;
};

void exc_reset(struct sim_core *c);
int exc_current(struct sim_core *c);
int exc_execution_priority(struct sim_core *c);
/* Highest-priority pending exception that would preempt now, or 0. */
int exc_pending_preempting(struct sim_core *c);
bool exc_any_pending(const struct sim_core *c);
void exc_set_pending(struct sim_core *c, int exc);
/* Takes exception `exc` with return address `ret_pc`; returns cycles charged. */
void exc_take(struct sim_core *c, int exc, uint32_t ret_pc);
/* A synchronous exception (SVC): escalates to HardFault when it cannot be taken now (B1.5.4). */
void exc_take_sync(struct sim_core *c, int exc, uint32_t ret_pc);
void exc_return(struct sim_core *c, uint32_t exc_return);
/* A synchronous fault in the running code: sets the status bits, escalates, takes it. */
void exc_fault(struct sim_core *c, int exc, uint32_t cfsr_bits, uint32_t hfsr_bits, uint32_t pc);
void exc_preserve_lazy_fp(struct sim_core *c);
void exc_update_fp_trap(struct sim_core *c);
int exc_group_priority(const struct sim_core *c, int prio);
/* An exception's priority (B1.5.4): -3, -2, -1 for Reset, NMI, HardFault, else the implemented bits
 * of its priority byte. */
int exc_priority(const struct sim_core *c, int exc);
bool fp_access_allowed(const struct sim_core *c);
uint32_t core_read_s(struct sim_core *c, unsigned n);
void core_write_s(struct sim_core *c, unsigned n, uint32_t v);

/* VTOR (B3.2.5): where the vector table is. */
uint32_t exc_vtor(const struct sim_core *c);
/* CCR.DIV_0_TRP (B3.2.8): an integer divide by zero faults. */
bool exc_div0_trap(const struct sim_core *c);
/* A precise data BusFault's address (BFAR, B3.2.18), before exc_fault(..., CFSR_BFARVALID, ...). */
void exc_set_bfar(struct sim_core *c, uint32_t addr);
/* A buffered write answered with an error: IMPRECISERR, the BusFault pending (B3.2.15). */
void exc_imprecise_bus_fault(struct sim_core *c);

#endif /* SIM_CORE_EXC_H */
