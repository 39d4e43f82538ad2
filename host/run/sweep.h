/* One --arg of `bench run`: what run.h's options and the marker loop's (loop_state.h) both hold,
 * so neither header needs the other. */
#ifndef HOST_RUN_SWEEP_H
#define HOST_RUN_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

#define RUN_MAX_SWEEPS 4

/* One --arg NAME=SPEC: the values written to symbol NAME (else bench_arg_NAME) at SYNC halts. */
struct run_sweep {
	char name[BENCH_NAME_MAX];
	int64_t *values;
	size_t n;
};

#endif /* HOST_RUN_SWEEP_H */
