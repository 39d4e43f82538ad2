/* Exceptions, the NVIC's and the SCB's state of the virtual Cortex-M4F (Armv7-M ARM B1.5, B3.2,
 * B3.4): exc.c takes, returns and escalates them; scs.c is their register face. */
#ifndef SIM_CORE_EXC_H
#define SIM_CORE_EXC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scs;

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

/* The exception state at a local reset (B1.5.5); scs_reset(s, false) first resets the SCB's rows. */
void exc_reset(struct scs *s);
/* Exceptions entered (tail-chains included) since power-on: bench's `stats` exceptions=. */
uint64_t exc_taken(const struct scs *s);
int exc_current(struct scs *s);
int exc_execution_priority(struct scs *s);
/* Highest-priority pending exception that would preempt now, or 0. */
int exc_pending_preempting(struct scs *s);
bool exc_any_pending(const struct scs *s);
/* True when `exc`, once pending, would preempt what runs now (enabled, higher group priority). */
bool exc_may_preempt(struct scs *s, int exc);
void exc_set_pending(struct scs *s, int exc);
/* Takes exception `exc` with return address `ret_pc`; returns cycles charged. */
void exc_take(struct scs *s, int exc, uint32_t ret_pc);
/* A synchronous exception (SVC): escalates to HardFault when it cannot be taken now (B1.5.4). */
void exc_take_sync(struct scs *s, int exc, uint32_t ret_pc);
void exc_return(struct scs *s, uint32_t exc_return);
/* A synchronous fault in the running code: sets the status bits, escalates, takes it. */
void exc_fault(struct scs *s, int exc, uint32_t cfsr_bits, uint32_t hfsr_bits, uint32_t pc);
void exc_preserve_lazy_fp(struct scs *s);
void exc_update_fp_trap(struct scs *s);
int exc_group_priority(const struct scs *s, int prio);
/* An exception's priority (B1.5.4): -3, -2, -1 for Reset, NMI, HardFault, else the implemented bits
 * of its priority byte. */
int exc_priority(const struct scs *s, int exc);
bool fp_access_allowed(const struct scs *s);

/* VTOR (B3.2.5): where the vector table is. */
uint32_t exc_vtor(const struct scs *s);
/* CCR.DIV_0_TRP (B3.2.8): an integer divide by zero faults. */
bool exc_div0_trap(const struct scs *s);
/* A precise data BusFault's address (BFAR, B3.2.18), before exc_fault(..., CFSR_BFARVALID, ...). */
void exc_set_bfar(struct scs *s, uint32_t addr);
/* A buffered write answered with an error: IMPRECISERR, the BusFault pending (B3.2.15). */
void exc_imprecise_bus_fault(struct scs *s);

#endif /* SIM_CORE_EXC_H */
