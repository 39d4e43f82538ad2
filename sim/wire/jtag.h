/* The virtual board's JTAG TAP controller (IEEE 1149.1-2013 section 6: the 16-state machine, the
 * instruction register, the data register selected by it). bitbang.c clocks it one TCK rising edge
 * at a time; the data registers behind the instructions (the ARM JTAG-DP's IDCODE, ABORT, DPACC,
 * APACC, BYPASS) are dp.c's, reached through jtag_dr_ops so this file knows nothing of ARM. */
#ifndef SIM_JTAG_H
#define SIM_JTAG_H

#include <stdbool.h>
#include <stdint.h>

/* IEEE 1149.1 figure 6-1. The order matters only to jtag_state_name(). */
enum jtag_state {
	JTAG_TEST_LOGIC_RESET = 0,
	JTAG_RUN_TEST_IDLE,
	JTAG_SELECT_DR,
	JTAG_CAPTURE_DR,
	JTAG_SHIFT_DR,
	JTAG_EXIT1_DR,
	JTAG_PAUSE_DR,
	JTAG_EXIT2_DR,
	JTAG_UPDATE_DR,
	JTAG_SELECT_IR,
	JTAG_CAPTURE_IR,
	JTAG_SHIFT_IR,
	JTAG_EXIT1_IR,
	JTAG_PAUSE_IR,
	JTAG_EXIT2_IR,
	JTAG_UPDATE_IR,
	JTAG_N_STATES
};

/* The data registers. Lengths are at most 64 bits (the JTAG-DP's longest is 35). */
struct jtag_dr_ops {
	/* Length in bits of the data register `ir` selects (1 for BYPASS). */
	unsigned (*length)(void *ctx, unsigned ir);
	/* Capture-DR: the value shifted out, LSB first. */
	uint64_t (*capture)(void *ctx, unsigned ir);
	/* Update-DR: the value shifted in (only the low length() bits). */
	void (*update)(void *ctx, unsigned ir, uint64_t value);
};

struct jtag_tap {
	enum jtag_state state;
	unsigned ir;       /* the current instruction */
	unsigned ir_len;   /* bits */
	unsigned ir_reset; /* instruction loaded in Test-Logic-Reset (IDCODE, 1149.1 7.2.1) */
	uint64_t shift;    /* the shift register of the selected IR or DR */
	unsigned len;      /* its length */
	const struct jtag_dr_ops *ops;
	void *ctx;
	uint64_t dr_scans; /* Update-DR count, for statistics */
	uint64_t ir_scans;
};

void jtag_init(struct jtag_tap *tap, unsigned ir_len, unsigned ir_reset, const struct jtag_dr_ops *ops, void *ctx);
/* TRST, or a new client: Test-Logic-Reset with the reset instruction. */
void jtag_reset(struct jtag_tap *tap);
/* One rising edge of TCK with these TMS/TDI levels: shift, then change state (1149.1 6.1.1: the
 * controller changes state on the rising edge; TDO changes on the falling edge, so the TDO a
 * prober samples before the rising edge is jtag_tdo()). */
void jtag_clock(struct jtag_tap *tap, bool tms, bool tdi);
/* The level on TDO now: the shift register's LSB in Shift-IR/Shift-DR, 0 elsewhere (TDO is inactive
 * outside the shift states; 0 is what OpenOCD's remote_bitbang then reads). */
bool jtag_tdo(const struct jtag_tap *tap);
const char *jtag_state_name(enum jtag_state s);

#endif /* SIM_JTAG_H */
