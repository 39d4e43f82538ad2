/* Halting debug of the virtual Cortex-M4F (Armv7-M ARM C1.5, C1.6): DHCSR, DCRSR, DCRDR, DEMCR,
 * DFSR and entering debug state. Other units ask through the functions below. */
#ifndef SIM_CORE_DEBUG_H
#define SIM_CORE_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus/bus.h"

struct scs;

/* DHCSR (Armv7-M ARM C1.6.3). */
#define DHCSR_DBGKEY      0xA05F0000u
#define DHCSR_C_DEBUGEN   (1u << 0)
#define DHCSR_C_HALT      (1u << 1)
#define DHCSR_C_STEP      (1u << 2)
#define DHCSR_C_MASKINTS  (1u << 3)
#define DHCSR_C_SNAPSTALL (1u << 5)
#define DHCSR_S_REGRDY    (1u << 16)
#define DHCSR_S_HALT      (1u << 17)
#define DHCSR_S_SLEEP     (1u << 18)
#define DHCSR_S_LOCKUP    (1u << 19)
#define DHCSR_S_RETIRE_ST (1u << 24)
#define DHCSR_S_RESET_ST  (1u << 25)

/* DFSR (C1.6.1). */
#define DFSR_HALTED   (1u << 0)
#define DFSR_BKPT     (1u << 1)
#define DFSR_DWTTRAP  (1u << 2)
#define DFSR_VCATCH   (1u << 3)
#define DFSR_EXTERNAL (1u << 4)

/* DEMCR (C1.6.5). */
#define DEMCR_VC_CORERESET (1u << 0)
#define DEMCR_VC_MMERR     (1u << 4)
#define DEMCR_VC_NOCPERR   (1u << 5)
#define DEMCR_VC_CHKERR    (1u << 6)
#define DEMCR_VC_STATERR   (1u << 7)
#define DEMCR_VC_BUSERR    (1u << 8)
#define DEMCR_VC_INTERR    (1u << 9)
#define DEMCR_VC_HARDERR   (1u << 10)
#define DEMCR_MON_EN       (1u << 16)
#define DEMCR_TRCENA       (1u << 24)
#define DEMCR_WRITABLE     0x010F07F1u

void debug_power_on(struct scs *s);
/* The debug registers' behaviour (rows of the SCS table): DHCSR (C1.6.3), DCRSR (C1.6.4), DEMCR (C1.6.5). */
uint32_t debug_dhcsr_read(struct scs *s);
void debug_dhcsr_write(struct scs *s, enum bus_initiator who, uint32_t v);
void debug_dcrsr_write(struct scs *s, enum bus_initiator who, uint32_t v);
void debug_demcr_write(struct scs *s, uint32_t v);
/* Enters debug state (C1.5) with the DFSR reason bits. */
void debug_halt(struct scs *s, uint32_t dfsr_bits);
uint32_t debug_read_core_reg(struct scs *s, unsigned sel, bool *ok);
bool debug_write_core_reg(struct scs *s, unsigned sel, uint32_t v);

uint32_t debug_demcr(const struct scs *s);
/* DEMCR.TRCENA (C1.6.5): the DWT and ITM work. */
/* Halting debug is on and DEMCR has one of vc_bits (vector catch, C1.6.5). */
bool debug_vector_catch(const struct scs *s, uint32_t vc_bits);
/* C_MASKINTS (C1.6.3): PendSV, SysTick and interrupts do not preempt while halting debug is on. */
bool debug_masking_ints(const struct scs *s);
/* C_HALT is set (the debugger asked for a halt that a reset must honour). */
bool debug_halt_requested(const struct scs *s);
/* DEMCR.MON_EN (C1.7): a debug event with halting debug off may enter DebugMonitor. */
bool debug_monitor_enabled(const struct scs *s);
/* Records why a debug event happened (DFSR, C1.6.1), for DebugMonitor as for a halt. */
void debug_set_dfsr(struct scs *s, uint32_t dfsr_bits);
/* DHCSR's sticky status (C1.6.3): S_RESET_ST after a reset, S_RETIRE_ST after instructions retired. */
void debug_note_sticky(struct scs *s, uint32_t s_bits);

#endif /* SIM_CORE_DEBUG_H */
