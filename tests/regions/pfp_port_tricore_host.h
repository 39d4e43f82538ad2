/* The TriCore port (target/port/tricore) on the host: MFCR/MTCR go to a scripted array of core
 * special function registers the test sets, the interrupt enable to a flag. */
#ifndef TESTS_REGIONS_PFP_PORT_TRICORE_HOST_H
#define TESTS_REGIONS_PFP_PORT_TRICORE_HOST_H

#include <stdint.h>

extern uint32_t tc_csfr[0x10000 / 4];
extern int tc_ie;
extern unsigned tc_cctrl_writes;

static inline uint32_t tc_mfcr(uint32_t reg)
{
	return reg == 0xFE2Cu ? (tc_ie ? (1u << 15) : 0u) : tc_csfr[reg / 4];
}
static inline void tc_mtcr(uint32_t reg, uint32_t v)
{
	if (reg == 0xFC00u)
		tc_cctrl_writes++;
	tc_csfr[reg / 4] = v;
}

#define PFP_TC_MFCR(reg)      tc_mfcr(reg)
#define PFP_TC_MTCR(reg, val) tc_mtcr((reg), (val))
#define PFP_TC_DISABLE()      (tc_ie = 0)
#define PFP_TC_ENABLE()       (tc_ie = 1)
#define PFP_TC_ISYNC()        ((void)0)

#include "../../target/port/tricore/pfp_port_tricore.h"

#endif /* TESTS_REGIONS_PFP_PORT_TRICORE_HOST_H */
