/* The PC sampler of bench run --profile (profile_sample.c): it stands in for the marker loop's
 * resume-and-wait while a BEGIN..END stretch runs (run/loop.h, loop_hooks.sampled_resume) and keeps
 * every DWT_PCSR read in the stretch's profile. */
#ifndef HOST_PROFILE_PROFILE_SAMPLE_H
#define HOST_PROFILE_PROFILE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "profile/profile.h"
#include "transport/backend.h"

/* PCSR reads per Tcl round trip at most: OpenOCD runs each read_memory as its own probe
 * transaction, so a batch saves the TCL round trips only (perf/bench_profile.sh: 1.1x to 2.4x the
 * rate of one mdw a round trip on the virtual board); a longer one overshoots the END halt more. */
#define PROFILE_BATCH        32u
#define PROFILE_BATCH_MAX    256u
#define PROFILE_BATCH_FIRST  4u    /* the first batch of a stretch; each next one twice as long */
#define PROFILE_HALT_WAIT_MS 1000u /* PCSR said halted: the halt is there, this is a bound */

struct profile_sampler {
	struct profile *prof;
	unsigned batch;
	bool tcl; /* reads go in Tcl batches (openocd-tcl); false: one read a sample */
	uint64_t reads, round_trips;
};

/* batch 0: PROFILE_BATCH. */
void profile_sampler_init(struct profile_sampler *s, struct profile *prof, unsigned batch);
/* Resumes the target and reads DWT_PCSR until it reads as halted or timeout_ms pass (then
 * BENCH_E_TIMEOUT, negated, with the target still running), keeping every read in the profile of
 * `stretch`; then takes the halt (out) and reads the 32-bit word at sample_addr (the cycle counter;
 * 0: none), as backend_resume_sample does. ctx is the profile_sampler. */
int profile_sampled_resume(void *ctx, struct backend *bk, const char *stretch, unsigned timeout_ms,
                           uint32_t sample_addr, struct backend_halt_info *out, uint32_t *sample,
                           struct bench_error *err);

#endif /* HOST_PROFILE_PROFILE_SAMPLE_H */
