/* Child processes: fork + exec in a new process group, output to a log file, a CLOEXEC pipe to
 * tell "not installed" (exec failed with ENOENT) from "started". Every live group is kept in a
 * fixed table the signal handler and the atexit hook can walk without locks (kill(2) is
 * async-signal-safe, POSIX.1-2017 2.4.3). */
#define _GNU_SOURCE /* pipe2 */
#include "session/proc.h"
#include "base/clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/str.h"

struct proc {
	pid_t pid;
	bool reaped;
	int status;
	char log_path[1024];
	char name[64];
	int slot;
};

#define PROC_SLOTS 64

static volatile sig_atomic_t live[PROC_SLOTS]; /* pgids of running children, 0 = free */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t interrupted;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
	nanosleep(&ts, NULL);
}

static void kill_all_live(int sig)
{
	for (int i = 0; i < PROC_SLOTS; i++) {
		pid_t g = (pid_t)live[i];
		if (g > 0)
			kill(-g, sig);
	}
}

static void on_signal(int sig)
{
	/* First signal: let the run notice, write its report and stop its children. Second: the user
	 * means it; stop everything now. */
	if (interrupted) {
		kill_all_live(SIGKILL);
		_exit(130);
	}
	interrupted = sig;
}

static void at_exit(void)
{
	kill_all_live(SIGKILL);
}

static void install_once(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: blocking calls return EINTR so waits notice at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed terminal (SIGHUP) or Ctrl-\ (SIGQUIT) ends the run as SIGTERM does: the report is
	 * kept and the children stopped, not left behind by a core dump or a silent death. */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	/* A peer closing its socket must be an error return, not a silent death. signal() and atexit()
	 * fail only for an invalid signal or a full atexit table (C11 7.22.4.2: 32 entries): neither can
	 * happen for one call per process, so a failure would be a bench bug worth a line. */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR || atexit(at_exit))
		fputs("bench: cannot install the exit clean-up: children may outlive an error exit\n", stderr);
}

void proc_install_signal_handlers(void)
{
	pthread_once(&handlers_once, install_once);
}

bool proc_interrupted(void)
{
	return interrupted != 0;
}

void proc_clear_interrupted(void)
{
	interrupted = 0;
}

static int slot_take(pid_t pgid)
{
	int slot = -1;
	pthread_mutex_lock(&live_lock);
	for (int i = 0; i < PROC_SLOTS && slot < 0; i++)
		if (!live[i]) {
			live[i] = pgid;
			slot = i;
		}
	pthread_mutex_unlock(&live_lock);
	return slot;
}

static void slot_free(int slot)
{
	if (slot < 0)
		return;
	pthread_mutex_lock(&live_lock);
	live[slot] = 0;
	pthread_mutex_unlock(&live_lock);
}

/* In the child after fork: only async-signal-safe calls until exec. */
static void child_exec(const char *const argv[], const char *log_path, const char *cwd, pid_t parent, int errfd)
{
	int fd, e;
	sigset_t none;

	setpgid(0, 0);
	/* If bench dies without cleaning up (SIGKILL), take the child with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* The child gets the default dispositions back (they fail only for an invalid signal number). */
	(void)signal(SIGINT, SIG_DFL);
	(void)signal(SIGTERM, SIG_DFL);
	(void)signal(SIGHUP, SIG_DFL);
	(void)signal(SIGQUIT, SIG_DFL);
	(void)signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	/* A fresh log per start: a reused --work-dir held the last run's "jtag-socket"/"ctl-port" lines,
	 * which proc_wait_log_line took for this run's (OpenOCD then met a socket nobody served). The
	 * parent reads the log only after the exec (the CLOEXEC pipe below), so this runs first. */
	fd = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND | (log_path ? O_TRUNC : 0), 0644);
	if (fd < 0)
		goto fail;
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	if (cwd && chdir(cwd))
		goto fail;
	execvp(argv[0], (char *const *)argv);
fail:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int proc_start(const char *const argv[], const char *log_path, const char *cwd, const char *install_hint,
               struct proc **out, struct bench_error *err)
{
	int pfd[2], child_errno = 0;
	ssize_t n;
	pid_t parent = getpid(), pid;
	struct proc *p;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory starting %s: free memory", argv[0]);
	if (str_copy(p->log_path, sizeof(p->log_path), log_path ? log_path : "")) {
		free(p);
		return bench_fail(err, BENCH_E_USAGE,
		                  "log path of %s longer than %zu characters: use a shorter --work-dir", argv[0],
		                  sizeof(p->log_path) - 1);
	}
	str_fmt_cut(p->name, sizeof(p->name), "%s", strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0]);
	if (pipe2(pfd, O_CLOEXEC)) {
		free(p);
		return bench_fail(err, BENCH_E_TOOL_START, "cannot start %s: pipe: %s: check the process limits",
		                  argv[0], strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(pfd[0]);
		close(pfd[1]);
		free(p);
		return bench_fail(err, BENCH_E_TOOL_START, "cannot start %s: fork: %s: check the process limits",
		                  argv[0], strerror(e));
	}
	if (pid == 0) {
		close(pfd[0]);
		child_exec(argv, log_path, cwd, parent, pfd[1]);
	}
	setpgid(pid, pid); /* also here: no window in which a signal to the group misses the child */
	p->pid = pid;
	p->slot = slot_take(pid);
	close(pfd[1]);
	do
		n = read(pfd[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(child_errno)) {
		proc_stop(p, 0);
		if (child_errno == ENOENT || child_errno == EACCES)
			return bench_fail(err, BENCH_E_TOOL_MISSING, "%s not found: %s", argv[0],
			                  install_hint ? install_hint : "install it or put it on PATH");
		return bench_fail(err, BENCH_E_TOOL_START, "cannot start %s: %s: check the file and its log %s",
		                  argv[0], strerror(child_errno), log_path ? log_path : "");
	}
	*out = p;
	return 0;
}

bool proc_alive(struct proc *p, int *status)
{
	/* *status is written on every path that returns false (NULL is "not running", status 0), so a
	 * caller that reads it after false never reads an uninitialised int (GCC 12 -O3 cannot see
	 * that the NULL path is never taken by proc_wait_log_line and warned -Wmaybe-uninitialized). */
	if (!p) {
		if (status)
			*status = 0;
		return false;
	}
	if (!p->reaped) {
		pid_t r = waitpid(p->pid, &p->status, WNOHANG);
		if (r == p->pid) {
			p->reaped = true;
			slot_free(p->slot);
			p->slot = -1;
			/* The leader is gone; take any helper it left in its group with it. */
			kill(-p->pid, SIGKILL);
		}
	}
	if (p->reaped && status)
		*status = p->status;
	return !p->reaped;
}

void proc_stop(struct proc *p, unsigned grace_ms)
{
	uint64_t deadline;

	if (!p)
		return;
	if (proc_alive(p, NULL)) {
		kill(-p->pid, SIGTERM);
		deadline = clock_now_ms() + grace_ms;
		while (proc_alive(p, NULL) && clock_now_ms() < deadline)
			sleep_ms(5);
		if (!p->reaped) {
			kill(-p->pid, SIGKILL);
			while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
				;
			p->reaped = true;
		}
	}
	slot_free(p->slot);
	free(p);
}

pid_t proc_pid(const struct proc *p)
{
	return p ? p->pid : -1;
}

const char *proc_log_path(const struct proc *p)
{
	return p ? p->log_path : "";
}

void proc_describe_status(int status, char *out, size_t len)
{
	if (WIFEXITED(status))
		str_fmt_cut(out, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		str_fmt_cut(out, len, "killed by signal %d", WTERMSIG(status));
	else
		str_fmt_cut(out, len, "stopped (status 0x%x)", (unsigned)status);
}

int proc_free_port(uint16_t *port, struct bench_error *err)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return bench_fail(err, BENCH_E_CONNECT, "cannot open a socket: %s: check the system's limits",
		                  strerror(errno));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || getsockname(fd, (struct sockaddr *)&a, &alen)) {
		int e = errno;
		close(fd);
		return bench_fail(err, BENCH_E_CONNECT, "cannot find a free port on 127.0.0.1: %s: free some ports",
		                  strerror(e));
	}
	*port = ntohs(a.sin_port);
	close(fd);
	return 0;
}

/* One non-blocking connect attempt, at most 100 ms. */
static bool port_answers(const char *host, uint16_t port)
{
	struct sockaddr_in a;
	struct pollfd pfd;
	int fd, soerr = 0, rc;
	socklen_t len = sizeof(soerr);
	bool ok = false;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
		return false;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return false;
	rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
	if (rc == 0) {
		ok = true;
	} else if (errno == EINPROGRESS) {
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, 100) == 1 && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) && soerr == 0)
			ok = true;
	}
	close(fd);
	return ok;
}

static int died(struct proc *p, int status, struct bench_error *err)
{
	char how[64], tail[600];
	proc_describe_status(status, how, sizeof(how));
	proc_log_tail(p->log_path, 5, tail, sizeof(tail));
	return bench_fail(err, BENCH_E_TOOL_START, "%s %s before it was ready (log %s: %s): check its log", p->name,
	                  how, p->log_path, tail[0] ? tail : "empty");
}

int proc_wait_port(const char *host, uint16_t port, struct proc *p, unsigned timeout_ms, struct bench_error *err)
{
	uint64_t deadline = clock_now_ms() + timeout_ms;
	int status;

	for (;;) {
		if (port_answers(host, port))
			return 0;
		if (p && !proc_alive(p, &status))
			return died(p, status, err);
		if (interrupted)
			return bench_fail(err, BENCH_E_INTERRUPTED, "interrupted while waiting for %s:%u", host, port);
		if (clock_now_ms() >= deadline) {
			char tail[600] = "";
			if (p)
				proc_log_tail(p->log_path, 5, tail, sizeof(tail));
			return bench_fail(err, BENCH_E_TOOL_START,
			                  "%s did not answer on %s:%u within %u ms (log: %s): check its log",
			                  p ? p->name : "server", host, port, timeout_ms, tail[0] ? tail : "empty");
		}
		sleep_ms(5);
	}
}

int proc_wait_log_match(struct proc *p, proc_line_match match, void *ctx, const char *what, unsigned timeout_ms,
                        struct bench_error *err)
{
	uint64_t deadline = clock_now_ms() + timeout_ms;
	char line[512];
	int status;

	for (;;) {
		FILE *f = fopen(p->log_path, "r");
		if (f) {
			bool at_start = true; /* this piece starts a line: the one before ended in a newline */
			while (fgets(line, sizeof(line), f)) {
				bool whole = at_start && strchr(line, '\n');
				at_start = strchr(line, '\n') != NULL;
				if (!whole)
					continue; /* still being written, or a longer line's piece: not one we wait for
					           */
				line[strcspn(line, "\r\n")] = '\0';
				if (match(line, ctx)) {
					(void)fclose(f); /* read-only: nothing to lose */
					return 0;
				}
			}
			(void)fclose(f);
		}
		if (!proc_alive(p, &status))
			return died(p, status, err);
		if (interrupted)
			return bench_fail(err, BENCH_E_INTERRUPTED, "interrupted while starting %s", p->name);
		if (clock_now_ms() >= deadline)
			return bench_fail(err, BENCH_E_TOOL_START, "%s did not print %s within %u ms: check its log %s",
			                  p->name, what, timeout_ms, p->log_path);
		sleep_ms(5);
	}
}

struct prefix_match {
	const char *prefix;
	char *out;
	size_t len;
	bool cut;
};

static bool starts_with(const char *line, void *ctx)
{
	struct prefix_match *m = ctx;
	size_t plen = strlen(m->prefix);
	if (strncmp(line, m->prefix, plen))
		return false;
	m->cut = str_copy(m->out, m->len, line + plen) != 0;
	return true;
}

int proc_wait_log_line(struct proc *p, const char *prefix, char *out, size_t len, unsigned timeout_ms,
                       struct bench_error *err)
{
	struct prefix_match m = {.prefix = prefix, .out = out, .len = len};
	char what[96];
	int rc;

	str_fmt_cut(what, sizeof(what), "\"%s\"", prefix);
	if ((rc = proc_wait_log_match(p, starts_with, &m, what, timeout_ms, err)))
		return rc;
	if (m.cut)
		return bench_fail(err, BENCH_E_PROTOCOL, "%s printed a \"%s\" line longer than %zu characters", p->name,
		                  prefix, len - 1);
	return 0;
}

void proc_log_tail(const char *log_path, unsigned lines, char *out, size_t len)
{
	char buf[4096];
	size_t n, used = 0;
	long sz;
	unsigned found = 0;
	FILE *f;
	char *start;

	if (!len)
		return;
	out[0] = '\0';
	if (!log_path || !*log_path || !(f = fopen(log_path, "rb")))
		return;
	/* The last sizeof(buf) - 1 bytes; a file whose size or position cannot be had is read from the
	 * start (the tail is a hint in an error message, never a reason to fail). */
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) <= (long)sizeof(buf) - 1 ||
	    fseek(f, sz - (long)sizeof(buf) + 1, SEEK_SET))
		rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	(void)fclose(f); /* read-only */
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	start = buf + n;
	while (start > buf && found < lines) {
		start--;
		if (*start == '\n' && ++found == lines) {
			start++;
			break;
		}
	}
	/* Join lines with " | " so the message stays one line. */
	for (char *s = start; *s && used + 4 < len; s++) {
		if (*s == '\r')
			continue;
		if (*s == '\n') {
			memcpy(out + used, " | ", 3);
			used += 3;
		} else {
			out[used++] = *s;
		}
	}
	out[used] = '\0';
}
