/* A --work-dir holds one run's sockets and logs (bench-sim's JTAG socket, openocd.log): two runs
 * sharing one would connect to each other's board or overwrite each other's logs, and then fail
 * with a misleading message (OpenOCD "failed to start: check ... USB permissions"). A lock file,
 * DIR/bench.lock, held with flock(2) for the whole run, makes the second one stop at once. */
#ifndef HOST_SESSION_WORKDIR_H
#define HOST_SESSION_WORKDIR_H

#include "base/error.h"

/* Takes DIR's lock; *fd gets the descriptor to pass to workdir_unlock(). BENCH_E_USAGE (exit 2)
 * naming the holder's pid when another run holds it; BENCH_E_IO when the file cannot be made. */
int workdir_lock(const char *dir, int *fd, struct bench_error *err);
/* Releases it (closing the descriptor); -1 is a no-op. The file stays: removing it would race
 * with a run that has just opened it. */
void workdir_unlock(int fd);

#endif /* HOST_SESSION_WORKDIR_H */
