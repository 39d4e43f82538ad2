/* Emitting a report: begin, every result, end; and writing a file atomically (a temporary file in
 * the same directory, fsync, rename over the target: rename(2) is atomic within one file system,
 * POSIX.1-2017), so a reader sees the old file or the whole new one, never half of one. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int report_write_atomic(const struct reporter_ops *ops, const struct reporter_ctx *ctx, const char *path,
                        const struct bench_report *rep, struct bench_error *err)
{
	char tmp[4200], dircopy[4096];
	FILE *f;
	int fd, rc, e;

	if (!strcmp(path, "-"))
		return report_emit(ops, ctx, stdout, rep, err);
	/* Nothing can be renamed over a FIFO or a device (/dev/stdout, /dev/null, a shell's >(cmd)):
	 * write through it as a stream (docs/reports.md). */
	if (outpath_is_stream(path)) {
		f = fopen(path, "w");
		if (!f)
			return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s", path, strerror(errno));
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
