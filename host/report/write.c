/* Emitting a report: begin, every result, end; and writing a file atomically (a temporary file in
 * the same directory, fsync, rename over the target: rename(2) is atomic within one file system,
 * POSIX.1-2017), so a reader sees the old file or the whole new one, never half of one. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/str.h"
#include "report/outpath.h"
#include "report/reporter.h"

int report_emit(const struct reporter_ops *ops, const struct reporter_ctx *ctx, FILE *out,
                const struct bench_report *rep, struct bench_error *err)
{
	static const struct reporter_ctx none;
	int rc;

	if (!ctx)
		ctx = &none;
	rc = ops->begin ? ops->begin(ctx, out, rep, err) : 0;
	for (size_t i = 0; !rc && ops->result && i < rep->n_results; i++)
		rc = ops->result(ctx, out, rep, &rep->results[i], err);
	if (!rc && ops->end)
		rc = ops->end(ctx, out, rep, err);
	if (!rc && (fflush(out) || ferror(out)))
		rc = bench_fail(err, BENCH_E_IO, "writing the %s report failed: %s: check the disk", ops->name,
		                strerror(errno));
	return rc;
}

/* How long a FIFO without a reader is waited for, once the report is ready (issue 26: an open(2)
 * of one blocks until a reader comes, forever and silently if none does). */
#define WRITE_FIFO_WAIT_MS 10000
#define WRITE_FIFO_POLL_MS 20

/* Keeps the report in a new file under $TMPDIR when PATH cannot take it; the error (KIND) names
 * both. Not kept either: an I/O error. */
static int keep_elsewhere(const struct reporter_ops *ops, const struct reporter_ctx *ctx, const char *path,
                          enum bench_err kind, const char *why, const struct bench_report *rep, struct bench_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	char kept[4200];
	FILE *f;
	int fd;

	if (!str_fmt(kept, sizeof(kept), "%s/bench-report-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") &&
	    (fd = mkstemp(kept)) >= 0) {
		if (fchmod(fd, 0644) == 0 && (f = fdopen(fd, "w"))) {
			int rc = report_emit(ops, ctx, f, rep, err);
			if (fclose(f) == 0 && !rc)
				return bench_fail(
				    err, kind,
				    "cannot write report %s: %s: the report is kept in %s; start its reader "
				    "first, or give a file",
				    path, why, kept);
		} else {
			close(fd);
		}
		unlink(kept);
	}
	return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s, nor keep it in %s: give a file", path, why,
	                  tmpdir && *tmpdir ? tmpdir : "/tmp");
}

/* A FIFO or a device, opened without blocking: a FIFO nobody reads (ENXIO, POSIX open(2)) is
 * waited for WRITE_FIFO_WAIT_MS, or until a signal, then the report goes elsewhere instead of
 * bench blocking for ever with the measurement in memory. Writes block again once it is open. */
static int open_stream(const struct reporter_ops *ops, const struct reporter_ctx *ctx, const char *path,
                       const struct bench_report *rep, FILE **out, struct bench_error *err)
{
	const struct timespec slice = {0, WRITE_FIFO_POLL_MS * 1000000L};
	int fd = -1, waited = 0, flags;

	*out = NULL;
	for (;;) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || errno != ENXIO)
			break;
		/* A signal (nanosleep's EINTR) ends the wait: the user wants out, exit 130 as documented. */
		if (waited >= WRITE_FIFO_WAIT_MS)
			return keep_elsewhere(ops, ctx, path, BENCH_E_IO, "a FIFO nobody reads (waited 10 s)", rep,
			                      err);
		if (nanosleep(&slice, NULL))
			return keep_elsewhere(ops, ctx, path, BENCH_E_INTERRUPTED,
			                      "a FIFO nobody reads (interrupted while waiting for a reader)", rep, err);
		waited += WRITE_FIFO_POLL_MS;
	}
	if (fd < 0)
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s", path, strerror(errno));
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) || !(*out = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s", path, strerror(e));
	}
	return 0;
}

int report_write_atomic(const struct reporter_ops *ops, const struct reporter_ctx *ctx, const char *path,
                        const struct bench_report *rep, struct bench_error *err)
{
	char tmp[4200], dircopy[4096];
	FILE *f = NULL;
	int fd, rc, e;

	/* "-", /dev/stdout or any other name of fd 1: stdout itself, so the report follows whatever was
	 * written there before it (reopening would truncate a file stdout was redirected to). */
	if (outpath_is_stdout(path))
		return report_emit(ops, ctx, stdout, rep, err);
	/* Nothing can be renamed over a FIFO or a device (/dev/null, a shell's >(cmd)): write through
	 * it as a stream (docs/reports.md). */
	if (outpath_is_stream(path)) {
		if ((rc = open_stream(ops, ctx, path, rep, &f, err)))
			return rc;
		rc = report_emit(ops, ctx, f, rep, err);
		if (fclose(f) && !rc)
			rc = bench_fail(err, BENCH_E_IO, "cannot write report %s: %s", path, strerror(errno));
		return rc;
	}
	/* rename(2) would replace a symbolic link itself, not the file it names: never silently. */
	{
		struct stat st;
		if (lstat(path, &st) == 0 && (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode)))
			return bench_fail(err, S_ISLNK(st.st_mode) ? BENCH_E_USAGE : BENCH_E_IO,
			                  "cannot write report %s: it is a %s: give a file's path", path,
			                  S_ISLNK(st.st_mode) ? "symbolic link" : "directory");
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp))
		return bench_fail(err, BENCH_E_IO, "report path too long: %s", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return bench_fail(err, BENCH_E_IO,
		                  "cannot write report %s: %s: check the directory exists and is writable", path,
		                  strerror(errno));
	/* mkstemp makes it 0600; a report is for everyone who may read the directory. */
	if (fchmod(fd, 0644)) {
		e = errno;
		close(fd);
		unlink(tmp);
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s", path, strerror(e));
	}
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		unlink(tmp);
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s", path, strerror(e));
	}
	rc = report_emit(ops, ctx, f, rep, err);
	if (!rc && fsync(fileno(f)))
		rc = bench_fail(err, BENCH_E_IO, "cannot write report %s: fsync: %s: check the disk", path,
		                strerror(errno));
	if (fclose(f) && !rc)
		rc = bench_fail(err, BENCH_E_IO, "cannot write report %s: %s: check the disk", path, strerror(errno));
	if (!rc && rename(tmp, path))
		rc = bench_fail(err, BENCH_E_IO, "cannot write report %s: rename: %s", path, strerror(errno));
	if (rc) {
		unlink(tmp);
		return rc;
	}
	/* The rename itself is durable once the directory is synced. */
	/* PATH fitted tmp[] (4200) above; a PATH too long for dircopy cannot name its directory whole,
	 * so that directory is not synced (the report itself is). */
	fd = str_copy(dircopy, sizeof(dircopy), path) ? -1 : open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		/* Some file systems refuse fsync on a directory (EINVAL): the report itself is on disk. */
		if (fsync(fd) && errno != EINVAL)
			rc = bench_fail(err, BENCH_E_IO, "report %s written, but syncing its directory failed: %s",
			                path, strerror(errno));
		close(fd);
	}
	return rc;
}
