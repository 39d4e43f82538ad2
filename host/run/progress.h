/* A progress bar on stderr for runs longer than a second, only when stderr is a TTY: nothing of
 * it reaches a pipe or a log. And the progress of a run's wall time, its phases (BENCH_STATS=1),
 * which loop.c, loop_marker.c and run.c record. */
#ifndef HOST_RUN_PROGRESS_H
#define HOST_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *out;
	bool enabled; /* out is a TTY and the caller asked for it */
	bool shown;   /* something was drawn (end() clears the line) */
	uint64_t start_ms, last_ms;
	size_t total;
};

void progress_begin(struct progress *p, FILE *out, bool want, size_t total);
/* Redraws at most every 100 ms, and only once the run has taken a second. */
void progress_update(struct progress *p, size_t done);
void progress_end(struct progress *p);

/* Where the wall time of a run goes (BENCH_STATS=1, perf/bench_run.sh). */
enum run_phase {
	RUN_PHASE_SIM,    /* bench-sim listening (virtual board) */
	RUN_PHASE_OCD,    /* OpenOCD's TCL port accepts */
	RUN_PHASE_ANSWER, /* OpenOCD answered (its init: JTAG scan, examine, done) */
	RUN_PHASE_LOAD,   /* firmware verified or programmed */
	RUN_PHASE_RESET,  /* first reset halt and fault catches */
	RUN_PHASE_CAL,    /* first calibration pair taken */
	RUN_PHASE_LOOP,   /* the marker loop ended */
	RUN_PHASE_STOP,   /* OpenOCD and bench-sim stopped */
	RUN_PHASE_COUNT
};

struct run_phases {
	uint64_t t0_ms;               /* clock_now_ms() when the run began */
	uint64_t ms[RUN_PHASE_COUNT]; /* ms since t0 when each phase ended; 0: not reached */
};

/* Records when a phase ended (the first time it is called for it). */
void run_phase_done(struct run_phases *p, enum run_phase ph);

#endif /* HOST_RUN_PROGRESS_H */
