/* The marker loop: from halt to halt until DONE (docs/markers.md). It knows the firmware (markers,
 * bench_ctl, input symbols), the counter it reads (firmware/counters.h) and a debug backend; it
 * knows nothing of processes, OpenOCD or the virtual board. What it needs from the session comes
 * through loop_hooks, so a unit test drives it with a scripted backend (tests/host/test_loop.c). */
#ifndef HOST_RUN_LOOP_H
#define HOST_RUN_LOOP_H

#include <stdint.h>

#include "base/error.h"
#include "run/loop_state.h"
#include "transport/backend.h"

/* Programs (unless preloaded or --no-load), resets and measures until done. Samples go to rep.
 * 0 or a negated bench_err (err filled); l keeps what was measured either way. */
int loop_run(struct loop *l, const struct loop_config *cfg, const struct loop_hooks *hooks, struct backend *bk,
             struct bench_report *rep, struct run_phases *phases, struct bench_error *err);
/* The documented message of an interrupted run, with the count of samples kept. */
int loop_interrupted(struct loop *l);

#endif /* HOST_RUN_LOOP_H */
