/* See outpath.h. Checks by lstat(2), so a symbolic link is seen as one (POSIX.1-2017 lstat), and
 * "the same file" is the same st_dev and st_ino, so ./fw.elf, fw.elf and a hard link all match. */
#include "report/outpath.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/lock_name.h"
#include "base/str.h"

bool outpath_is_stdout(const char *path)
{
	struct stat st, out;

	if (!strcmp(path, "-"))
		return true;
	return stat(path, &st) == 0 && fstat(STDOUT_FILENO, &out) == 0 && st.st_dev == out.st_dev &&
	       st.st_ino == out.st_ino;
}

bool outpath_is_stream(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode));
}

static bool is_lock_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !strcmp(slash ? slash + 1 : path, BENCH_LOCK_NAME);
}

static const char *kind_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "a special file";
}

/* The folder a new file would go in must exist and let bench create its temporary file there. */
static int check_folder(const struct outpath *o, struct bench_error *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (snprintf(dir, sizeof(dir), "%s", o->path) >= (int)sizeof(dir))
		return bench_fail(err, BENCH_E_IO, "%s %.200s...: path longer than %d bytes: give a shorter one",
		                  o->flag, o->path, PATH_MAX - 1);
	const char *d = dirname(dir);
	if (stat(d, &st))
		return bench_fail(err, BENCH_E_IO,
		                  "cannot write report %s: %s: check the directory exists and is writable", o->path,
		                  strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s is not a directory: fix the path",
		                  o->path, d);
	if (access(d, W_OK | X_OK))
		return bench_fail(err, BENCH_E_IO,
		                  "cannot write report %s: %s: check the directory exists and is writable", o->path,
		                  strerror(errno));
	return 0;
}

static int check_one(const struct outpath *o, const char *const *inputs, size_t n_inputs, struct bench_error *err)
{
	struct stat st, in;
	int rc;

	if (!strcmp(o->path, "-"))
		return 0;
	if (is_lock_name(o->path))
		return bench_fail(err, BENCH_E_USAGE,
		                  "%s %s: " BENCH_LOCK_NAME " is the lock file a bench run keeps in its work dir "
		                  "(docs/run.md, --work-dir): give the report another name",
		                  o->flag, o->path);
	/* /dev/stdout, /dev/fd/1 or >(cmd)'s /dev/fd/63: links to bench's stdout or to a pipe, written
	 * through (write.c), never renamed over; their folder (/dev/fd, /proc/self/fd) takes no file. */
	if (outpath_is_stdout(o->path) || outpath_is_stream(o->path))
		return 0;
	if ((rc = check_folder(o, err)))
		return rc;
	if (lstat(o->path, &st)) {
		if (errno == ENOENT)
			return 0;
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: %s: check the path", o->path,
		                  strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return bench_fail(err, BENCH_E_USAGE,
		                  "%s %s is a symbolic link: bench would replace the link, not write its target; give "
		                  "the target's path or remove the link",
		                  o->flag, o->path);
	if (S_ISDIR(st.st_mode))
		return bench_fail(err, BENCH_E_IO, "cannot write report %s: it is a directory: give a file name in it",
		                  o->path);
	if (!S_ISREG(st.st_mode))
		return bench_fail(err, BENCH_E_USAGE, "%s %s is %s, not a file: give a file name", o->flag, o->path,
		                  kind_name(st.st_mode));
	for (size_t i = 0; i < n_inputs; i++)
		if (inputs[i] && strcmp(inputs[i], "-") && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino)
			return bench_fail(
			    err, BENCH_E_USAGE,
			    "%s %s is %s, an input of this command: it would be overwritten; give another "
			    "file name",
			    o->flag, o->path, inputs[i]);
	return 0;
}

/* Two outputs naming one file: the second write would replace the first. Compared by inode when
 * the file exists, else by the canonical folder and the same last component. */
static bool same_output(const char *a, const char *b)
{
	struct stat sa, sb;
	char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];

	/* "-" and /dev/stdout are one stream (outpath_is_stdout): two documents would run together. */
	if (outpath_is_stdout(a) || outpath_is_stdout(b))
		return outpath_is_stdout(a) && outpath_is_stdout(b);
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
	/* A path too long for PATH_MAX names no file bench can open: not the same. */
	if (str_copy(da, sizeof(da), a) || str_copy(db, sizeof(db), b))
		return false;
	if (!realpath(dirname(da), ra) || !realpath(dirname(db), rb) || strcmp(ra, rb))
		return false;
	(void)str_copy(da, sizeof(da), a); /* dirname() wrote into them; they fitted above */
	(void)str_copy(db, sizeof(db), b);
	return !strcmp(basename(da), basename(db));
}

int outpath_check(const struct outpath *outs, size_t n_outs, const char *const *inputs, size_t n_inputs,
                  struct bench_error *err)
{
	for (size_t i = 0; i < n_outs; i++) {
		int rc;
		if (!outs[i].path)
			continue;
		if ((rc = check_one(&outs[i], inputs, n_inputs, err)))
			return rc;
		for (size_t k = 0; k < i; k++)
			if (outs[k].path && same_output(outs[k].path, outs[i].path))
				return bench_fail(
				    err, BENCH_E_USAGE,
				    "%s and %s both name %s: the second would replace the first; give each "
				    "its own file",
				    outs[k].flag, outs[i].flag, outs[i].path);
	}
	return 0;
}
