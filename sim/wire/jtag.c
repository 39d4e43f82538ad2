/* JTAG TAP controller (see jtag.h). IEEE 1149.1-2013: state diagram figure 6-1, instruction register
 * capture value 7.1.1 (the two LSBs are 01), IDCODE selected in Test-Logic-Reset 7.2.1. */
#include "wire/jtag.h"

/* next[state][tms], 1149.1 table 6-1. */
static const unsigned char next_state[JTAG_N_STATES][2] = {
    [JTAG_TEST_LOGIC_RESET] = {JTAG_RUN_TEST_IDLE, JTAG_TEST_LOGIC_RESET},
    [JTAG_RUN_TEST_IDLE] = {JTAG_RUN_TEST_IDLE, JTAG_SELECT_DR},
    [JTAG_SELECT_DR] = {JTAG_CAPTURE_DR, JTAG_SELECT_IR},
    [JTAG_CAPTURE_DR] = {JTAG_SHIFT_DR, JTAG_EXIT1_DR},
    [JTAG_SHIFT_DR] = {JTAG_SHIFT_DR, JTAG_EXIT1_DR},
    [JTAG_EXIT1_DR] = {JTAG_PAUSE_DR, JTAG_UPDATE_DR},
    [JTAG_PAUSE_DR] = {JTAG_PAUSE_DR, JTAG_EXIT2_DR},
    [JTAG_EXIT2_DR] = {JTAG_SHIFT_DR, JTAG_UPDATE_DR},
    [JTAG_UPDATE_DR] = {JTAG_RUN_TEST_IDLE, JTAG_SELECT_DR},
    [JTAG_SELECT_IR] = {JTAG_CAPTURE_IR, JTAG_TEST_LOGIC_RESET},
    [JTAG_CAPTURE_IR] = {JTAG_SHIFT_IR, JTAG_EXIT1_IR},
    [JTAG_SHIFT_IR] = {JTAG_SHIFT_IR, JTAG_EXIT1_IR},
    [JTAG_EXIT1_IR] = {JTAG_PAUSE_IR, JTAG_UPDATE_IR},
    [JTAG_PAUSE_IR] = {JTAG_PAUSE_IR, JTAG_EXIT2_IR},
    [JTAG_EXIT2_IR] = {JTAG_SHIFT_IR, JTAG_UPDATE_IR},
    [JTAG_UPDATE_IR] = {JTAG_RUN_TEST_IDLE, JTAG_SELECT_DR},
};

static const char *const state_names[JTAG_N_STATES] = {
    "Test-Logic-Reset", "Run-Test/Idle", "Select-DR-Scan", "Capture-DR",     "Shift-DR",   "Exit1-DR",
    "Pause-DR",         "Exit2-DR",      "Update-DR",      "Select-IR-Scan", "Capture-IR", "Shift-IR",
    "Exit1-IR",         "Pause-IR",      "Exit2-IR",       "Update-IR",
};

void jtag_init(struct jtag_tap *tap, unsigned ir_len, unsigned ir_reset, const struct jtag_dr_ops *ops, void *ctx)
{
	tap->ir_len = ir_len;
	tap->ir_reset = ir_reset;
	tap->ops = ops;
	tap->ctx = ctx;
	tap->dr_scans = 0;
	tap->ir_scans = 0;
	jtag_reset(tap);
}

void jtag_reset(struct jtag_tap *tap)
{
	tap->state = JTAG_TEST_LOGIC_RESET;
	tap->ir = tap->ir_reset;
	tap->shift = 0;
	tap->len = 1;
}

void jtag_clock(struct jtag_tap *tap, bool tms, bool tdi)
{
	enum jtag_state s = tap->state;
	if (s == JTAG_SHIFT_DR || s == JTAG_SHIFT_IR)
		tap->shift = (tap->shift >> 1) | ((uint64_t)tdi << (tap->len - 1));
	enum jtag_state n = (enum jtag_state)next_state[s][tms];
	tap->state = n;
	switch (n) {
	case JTAG_TEST_LOGIC_RESET:
		tap->ir = tap->ir_reset;
		break;
	case JTAG_CAPTURE_DR:
		/* The capture happens on the edge that leaves Capture-DR; nothing can happen between
		 * entering and leaving it, so doing it on entry is equivalent and keeps one code path. */
		tap->len = tap->ops->length(tap->ctx, tap->ir);
		tap->shift = tap->ops->capture(tap->ctx, tap->ir);
		break;
	case JTAG_UPDATE_DR: {
		uint64_t mask = tap->len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << tap->len) - 1);
		tap->dr_scans++;
		tap->ops->update(tap->ctx, tap->ir, tap->shift & mask);
		break;
	}
	case JTAG_CAPTURE_IR:
		tap->len = tap->ir_len;
		tap->shift = 0x1; /* 1149.1 7.1.1: captured IR ends in binary 01 */
		break;
	case JTAG_UPDATE_IR:
		tap->ir_scans++;
		tap->ir = (unsigned)(tap->shift & ((1u << tap->ir_len) - 1));
		break;
	default:
		break;
	}
}

bool jtag_tdo(const struct jtag_tap *tap)
{
	if (tap->state == JTAG_SHIFT_DR || tap->state == JTAG_SHIFT_IR)
		return tap->shift & 1;
	return false;
}

const char *jtag_state_name(enum jtag_state s)
{
	return (unsigned)s < JTAG_N_STATES ? state_names[s] : "?";
}
