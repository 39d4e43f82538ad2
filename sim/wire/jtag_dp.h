/* The JTAG TAP (jtag.h) in front of the ARM JTAG-DP (dap/dp.h): the TAP's data registers are the
 * DP's scan chains (ADIv5.2 B3.2). The wire layer plugs the two together, so the debug port knows
 * nothing of the TAP and a second wire (SWD) reaches the same DP. */
#ifndef SIM_JTAG_DP_H
#define SIM_JTAG_DP_H

#include "wire/jtag.h"

/* For jtag_init(tap, DP_IR_LEN, DP_IR_IDCODE, &dp_jtag_ops, dp) with a struct dp *. */
extern const struct jtag_dr_ops dp_jtag_ops;

#endif /* SIM_JTAG_DP_H */
