/* Output paths (`--json`, `--output`, `--html`, `--svg`) checked before any work is done, so a run
 * never measures for minutes and then cannot write, and never replaces what the user did not ask
 * to replace: the firmware, another input of the same command, a directory, a symbolic link's
 * target. A FIFO or character device (/dev/stdout, /dev/null, a shell's >(cmd)) is written
 * through as a stream, since nothing can be renamed over it (docs/reports.md). */
#ifndef HOST_REPORT_OUTPATH_H
#define HOST_REPORT_OUTPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct outpath {
	const char *flag; /* "--json" */
	const char *path; /* as given; "-" is stdout */
};

/* Checks every output before anything is measured or read. Errors: BENCH_E_USAGE (exit 2) for an
 * output that is an input (inputs[], by device and inode), the same file as another output, a
 * symbolic link (unless it leads to a stream or to stdout), a file named bench.lock (a work
 * dir's lock, session/workdir.h), a block device or socket; BENCH_E_IO (exit 6) for a directory, a missing folder,
 * a folder bench cannot write in, a path longer than PATH_MAX. Returns 0 or a negated bench_err. */
int outpath_check(const struct outpath *outs, size_t n_outs, const char *const *inputs, size_t n_inputs,
                  struct bench_error *err);
/* True when PATH is bench's own standard output: "-", or a path naming the same file as file
 * descriptor 1 (/dev/stdout, /dev/fd/1, /proc/self/fd/1, or the file stdout was redirected to).
 * Such an output is written to stdout itself, in order with what else goes there, and `bench run
 * --json` then makes stdout that one JSON document (docs/run.md). */
bool outpath_is_stdout(const char *path);
/* True when PATH is a FIFO or a character device, followed through symbolic links (a shell's
 * >(cmd) is /dev/fd/63, a link to a pipe): written as a stream, not renamed over. */
bool outpath_is_stream(const char *path);

#endif /* HOST_REPORT_OUTPATH_H */
