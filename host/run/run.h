/* One measurement run, backend-agnostic: load the firmware, reset, run from marker to marker,
 * write inputs at SYNC, sample DWT_CYCCNT at BEGIN/END, subtract the calibrated overhead, collect
 * samples per (marker pair, input) into a bench_report. A library function without globals, so
 * a farm (issue 6) may call run_measure() for several boards at once, each with its own ports. */
#ifndef HOST_RUN_RUN_H
#define HOST_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "results/results.h"
#include "run/run_opts.h"
#include "run/sweep.h"

#define RUN_MAX_SWEEP_VALUES   1000000u
#define RUN_DEFAULT_TIMEOUT_MS 10000u
/* At most 10^9 iterations per run (inputs x (warmup + repeat)); runs of more than
 * RUN_NOTE_ITERATIONS print their size and an estimate first. The estimate takes 30 ms per
 * iteration: three marker halts (SYNC, BEGIN, END) at the ~84 halts/s of the virtual board
 * measured in docs/sim.md; a probe on silicon is of the same order. */
#define RUN_MAX_ITERATIONS       1000000000u
#define RUN_NOTE_ITERATIONS      1000000u
#define RUN_EST_MS_PER_ITERATION 30u

/* Defaults for every field (repeat 10, warmup 1, timeout 10 s). */
void run_opts_init(struct run_opts *o);
/* Frees the sweep values run_parse_args() allocated. */
void run_opts_free(struct run_opts *o);
/* Parses `bench run` arguments (argv[0] is "run"). --help prints usage and returns 1.
 * Returns 0, 1 for --help, or a negated bench_err (BENCH_E_USAGE with what is wrong). */
int run_parse_args(int argc, char **argv, struct run_opts *o, struct bench_error *err);
/* Parses "NAME=START:STOP:STEP" (STOP inclusive when reached) or "NAME=V1,V2,...". */
int run_parse_sweep(const char *spec, struct run_sweep *out, struct bench_error *err);
void run_print_usage(FILE *out);
/* Refuses sweeps whose iteration count overflows or exceeds RUN_MAX_ITERATIONS (BENCH_E_USAGE). */
int run_check_size(const struct run_opts *o, struct bench_error *err);

/* Measures. rep must be results_init()ed; it is filled with the context and every sample taken,
 * also on failure (then rep->status is incomplete/error and rep->error says why). Returns 0 or a
 * negated bench_err; the exit code is bench_exit_code(err->kind). The JSON report is NOT written
 * here (cmd_run does it), so a farm can merge reports. */
int run_measure(const struct run_opts *o, struct bench_report *rep, struct bench_error *err);

#endif /* HOST_RUN_RUN_H */
