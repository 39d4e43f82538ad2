/* See workdir.h. flock(2) locks are released by the kernel when the process dies, so a run killed
 * with SIGKILL leaves no stale lock; the pid written into the file is only for the message. */
#include "session/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/lock_name.h"

int workdir_lock(const char *dir, int *fd, struct bench_error *err)
{
	char path[PATH_MAX], pid[32] = "";
	ssize_t n;
	int f;

	*fd = -1;
	if (snprintf(path, sizeof(path), "%s/%s", dir, BENCH_LOCK_NAME) >= (int)sizeof(path))
		return bench_fail(err, BENCH_E_USAGE, "--work-dir %s: path too long: give a shorter one", dir);
	f = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (f < 0)
		return bench_fail(err, BENCH_E_IO, "cannot create %s: %s: check --work-dir", path, strerror(errno));
	if (flock(f, LOCK_EX | LOCK_NB)) {
		int e = errno;
		n = e == EWOULDBLOCK ? pread(f, pid, sizeof(pid) - 1, 0) : -1;
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		close(f);
		if (e == EWOULDBLOCK)
			return bench_fail(
			    err, BENCH_E_USAGE,
			    "--work-dir %s is in use by another bench run (pid %s): give each run its own "
			    "--work-dir",
			    dir, pid[0] ? pid : "unknown");
		return bench_fail(err, BENCH_E_IO, "cannot lock %s: %s", path, strerror(e));
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(f, 0) || pwrite(f, pid, (size_t)n, 0) != n) {
		/* The pid is only for another run's message: a lock without it still works. */
	}
	*fd = f;
	return 0;
}

void workdir_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
