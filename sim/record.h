/* bench-sim --record=PATH (record.c): the halt records, docs/sim-record.md. */
#ifndef SIM_RECORD_H
#define SIM_RECORD_H

#include "core/core.h"

struct sim_rec;

/* Creates PATH (emptied), writes its header, and from now on counts what the core runs, by calling
 * context, through the core's recorder ops and the cycle ledger (no other ledger listener may be
 * set). Set before the core first runs. Returns 0, or -1 with a message printed; *out is to be
 * given to sim_rec_finish() either way. */
int sim_rec_start(struct sim_rec **out, struct sim_core *core, const char *path);
/* Writes a record still owed (a halt nobody read), detaches and closes. -1 when a record could not
 * be written or did not add up (core_rec_failed()), now or before. */
int sim_rec_finish(struct sim_rec *r);

#endif /* SIM_RECORD_H */
