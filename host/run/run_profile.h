/* The exact profile's side of a run (bench run --profile on the virtual board, docs/profile.md):
 * bench-sim's halt records (session/sim_record.h) read at every halt the marker loop handles and
 * handed to the profile (profile/profile_exact.h), which routes them to marker pairs and results. */
#ifndef HOST_RUN_RUN_PROFILE_H
#define HOST_RUN_RUN_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "firmware/markers.h"
#include "profile/profile_exact.h"
#include "session/sim_record.h"

struct run_exact {
	struct sim_record_reader *rd;
	struct profile_exact x;
	bool have_reasons;
	size_t nodes_seen; /* of the reader's node table, handed to x */
	uint64_t records;
};

/* Takes the session's reader of bench-sim's record file (session_open_record), closed by
 * run_exact_close. */
void run_exact_open(struct run_exact *e, struct sim_record_reader *rd);
void run_exact_close(struct run_exact *e);
/* The loop's halt_record hook (run/loop_state.h); ctx is the run_exact. Reads every record complete
 * so far (the halt's own is: bench-sim writes it before the halt shows), then routes them. */
int run_exact_halt(void *ctx, const struct marker *m, const char *span, bool warm, const struct bench_arg *args,
                   size_t n_args, struct bench_error *err);

#endif /* HOST_RUN_RUN_PROFILE_H */
