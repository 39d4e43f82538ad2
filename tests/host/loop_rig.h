/* The scripted backend and loop rig of the marker loop's unit tests (test_loop.c, test_loop_resets.c):
 * a "target" that halts where a list of steps says, with the counter there, as pyOCD tests its core
 * logic with a mock core. loop_rig.c implements it. */
#ifndef TESTS_HOST_LOOP_RIG_H
#define TESTS_HOST_LOOP_RIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/counters.h"
#include "run/loop.h"

/* Marker sites of the scripted firmware (Thumb addresses, 2-byte BKPTs). */
enum {
	A_CAL_BEGIN = 0x08000100,
	A_CAL_END = 0x08000102,
	A_SYNC = 0x08000200,
	A_BEGIN = 0x08000300,
	A_END = 0x08000302,
	A_OUTER_BEGIN = 0x08000400,
	A_OUTER_END = 0x08000402,
	A_DONE = 0x08000500,
	A_NOT_A_MARKER = 0x08000999,
};
#define RAM_BASE 0x20000000u
#define RAM_SIZE 0x100u
#define CTL_ADDR (RAM_BASE + 0x10u)
#define IN_ADDR  (RAM_BASE + 0x40u)

/* What the scripted target does next when resumed. */
enum step_kind { STEP_HALT, STEP_TIMEOUT, STEP_LOST };
struct step {
	enum step_kind kind;
	uint32_t pc, count;
	bool reset; /* the firmware reset the core (SYSRESETREQ) before this halt */
};

struct script {
	const struct step *steps;
	size_t n, next;
	uint8_t ram[RAM_SIZE];
	uint32_t dwt_ctrl;
	unsigned resets, cancel_after, cancel_calls, wide_calls;
	bool children_dead;
	uint64_t wide[4];
	uint64_t wide_exc[4]; /* the wide clock's exception count, per call like wide[] */
	uint32_t demcr;       /* DEMCR as read (rig_init: TRCENA set) */
	uint8_t exccnt[4];    /* DWT_EXCCNT at successive DWT block reads */
	unsigned dwt_reads;
	unsigned in_writes;   /* writes to the input at IN_ADDR */
	unsigned fw_resets;   /* resets the firmware made (step.reset), on top of bench's own */
	unsigned stats_calls; /* board_stats answers, one a halt (stats_wide[], stats_exc[] by call) */
	uint64_t stats_wide[8], stats_exc[8];
	bool stats_from_count; /* board_stats's clock: the count of the step that halted, plus 5000 */
};

/* One run of the loop over a script. */
struct rig {
	struct script s;
	struct loop_opts o;
	struct elf_file elf;
	struct loop_config cfg;
	struct loop_hooks hooks;
	struct backend bk;
	struct bench_report rep;
	struct bench_error err;
	struct loop loop;
	int64_t sweep[2];
};

#define HALT(pc, n)                                                                                                    \
	{                                                                                                              \
		STEP_HALT, (pc), (n), false                                                                            \
	}
/* A halt the core reaches after the firmware reset it (no bench_init(): no calibration shows it). */
#define HALT_AFTER_RESET(pc, n)                                                                                        \
	{                                                                                                              \
		STEP_HALT, (pc), (n), true                                                                             \
	}

/* The scripted backend's ops and the loop hooks, for tests that build their own ops or hooks. */
int s_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out, struct bench_error *err);
int s_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err);
int s_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err);
int s_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *v, struct bench_error *err);
int s_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err);
int s_halt(struct backend *bk, struct bench_error *err);
int h_wide(void *ctx, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err);
int h_stats(void *ctx, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets, struct bench_error *err);
int h_resets(void *ctx, uint64_t *count, struct bench_error *err);

void rig_init(struct rig *r, const struct step *steps, size_t n, bool sync);
void rig_one_input(struct rig *r, int64_t v);
int rig_run(struct rig *r);
/* The i-th result named name (a test failure when there is none). */
const struct bench_result *result(const struct rig *r, const char *name, size_t i);

#endif /* TESTS_HOST_LOOP_RIG_H */
