/* What the marker loop checks at each BEGIN and END halt so that no wrong number is filed as a
 * good one (issue 13): an exception inside the stretch (the sample is flagged interrupted), the
 * counter switched off, written or rewound (the run fails), --mask-irqs around the stretch, and
 * a reset bench did not make (the board's reset count, at every halt), and
 * on every exit path, the debugger's state put back as it was (breakpoints, interrupt masking,
 * DEMCR's vector catches) so an attached OpenOCD or gdbserver is left as bench found it.
 * Private to run/: loop.c calls it. */
#ifndef HOST_RUN_LOOP_CHECK_H
#define HOST_RUN_LOOP_CHECK_H

#include <stdint.h>

#include "run/loop_state.h"

/* At a BEGIN halt, after the wide clock was read into p: masks interrupts (--mask-irqs) and, with
 * no wide clock, reads DWT_EXCCNT (enabling DWT_CTRL.EXCEVTENA). */
int loop_check_begin(struct loop *c, struct loop_pending *p);
/* At the END halt of p (counter value cnt, wide clock and its exception count now): unmasks,
 * fails the run when the counter stopped or was written, sets BENCH_SAMPLE_INTERRUPTED in *flags
 * when an exception was taken. */
int loop_check_end(struct loop *c, const struct marker *m, const struct loop_pending *p, uint32_t cnt, uint64_t wide,
                   uint64_t wide_exc, uint8_t *flags);
/* At every halt: a rise of the board's reset count (loop_hooks.resets) since the last halt is a
 * reset bench did not make: the inputs are written again at the next SYNC (loop_check_restarted),
 * or, inside a stretch, without a SYNC loop or with --start/--stop, the run fails (exit 5). */
int loop_check_reset(struct loop *c);
/* hooks->board_stats's answer for this halt into c->stats_* (asked once a halt; 0 without the
 * hook). */
int loop_board_stats(struct loop *c);
/* The board's reset count now, from board_stats or resets, into *n (left as it is when the board
 * has neither). 0 or a negated bench_err. */
int loop_reset_count(struct loop *c, uint64_t *n);
/* Restarts in a row (no END between them) after which the run fails, and marker halts in a row
 * without an END or a new input (issue 26: every loop ends). A legitimate iteration has a SYNC, a
 * BEGIN and END per pair, a calibration pair per boot: far below either. */
#define LOOP_MAX_RESTARTS_IN_ROW 8
#define LOOP_MAX_IDLE_HALTS      1000
/* A restart between stretches with a SYNC loop: the next SYNC writes the inputs again and reruns an
 * iteration that had no END yet. The LOOP_MAX_RESTARTS_IN_ROW-th in a row fails the run (exit 5,
 * naming the input). 0 or a negated bench_err. */
int loop_check_restarted(struct loop *c);
/* At every marker halt: the LOOP_MAX_IDLE_HALTS-th in a row without an END or a new input fails the
 * run (exit 5). loop.c sets c->idle_halts back to 0 at each. */
int loop_check_progress(struct loop *c);
/* How far a core clock may be from the one bench computes with (crystal, HSI trimming): 2 %. */
#define LOOP_CLOCK_TOLERANCE 0.02L
/* The counter's wraps a stretch can have had: its `bits`-wide difference delta, at hz, while the
 * core ran at least lo_ms and at most hi_ms. *kmax -1: impossible (delta alone needs more time
 * than hi_ms); else 0 <= wraps <= *kmax, and at least *kmin (certain when equal). */
void loop_wraps(uint32_t delta, unsigned bits, uint64_t hz, uint64_t lo_ms, uint64_t hi_ms, int64_t *kmin,
                int64_t *kmax);
/* At an END without a 64-bit clock: the sample (counter difference delta) against the host's clock
 * since begin_ms, the core having run at least ran_min_ms (loop.c next_halt): impossible fails the
 * run (exit 5); room for a wrap sets BENCH_SAMPLE_WRAPPED in *flags and notes the first (run.c
 * makes it a warning, with the wrap count where the clock makes it certain). */
int loop_check_host_clock(struct loop *c, const char *name, uint32_t delta, uint64_t begin_ms, uint64_t ran_min_ms,
                          uint8_t *flags);
/* Once the firmware has set up its clock (the first SYNC, else DONE): its CMSIS SystemCoreClock,
 * when it has one and it is plausible (1 kHz to 10 GHz), becomes the report's core_clock_hz with
 * clock_source "firmware". */
int loop_check_clock(struct loop *c);
/* Before bench sets BITS in DWT_CTRL or DEMCR (their value now): records which were off, before
 * the write is sent, so loop_check_restore turns them off again whatever happens to the write. */
void loop_check_will_set_dwt(struct loop *c, uint32_t now, uint32_t bits);
void loop_check_will_set_demcr(struct loop *c, uint32_t now, uint32_t bits);
/* Before the first reset halt: remembers DEMCR so loop_check_restore can put it back. */
void loop_check_save(struct loop *c);
/* On every exit of loop_run: clears the breakpoints bench planted or was planting, puts the
 * interrupt masking mode back as bench found it, and DEMCR's and DWT_CTRL's bits bench set. After a
 * lost link or a command that did not answer it first reconnects (backend_reconnect), so even
 * then the attached debugger is left as it was. Best effort: errors are not reported (the run's
 * own error stands). */
void loop_check_restore(struct loop *c);

#endif /* HOST_RUN_LOOP_CHECK_H */
