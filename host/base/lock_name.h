/* The lock file a bench run keeps in its --work-dir (session/workdir.c), named once: report/
 * refuses it as an output (outpath.c), since a report renamed over it would replace the lock and a
 * second run could take a new one on the same work dir while the first still runs. */
#ifndef HOST_BASE_LOCK_NAME_H
#define HOST_BASE_LOCK_NAME_H

#define BENCH_LOCK_NAME "bench.lock"

#endif /* HOST_BASE_LOCK_NAME_H */
