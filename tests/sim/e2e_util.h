/* Helpers for the end-to-end tests and benchmarks of bench-sim with stock OpenOCD: child processes
 * in their own process groups, always killed on exit (atexit, SIGINT/SIGTERM, and an alarm() that
 * bounds the whole test); free 127.0.0.1 ports; a client of OpenOCD's TCL RPC port (commands
 * terminated by 0x1a, OpenOCD doc "Tcl Scripting API": server replies end with 0x1a too).
 * Header-only: each test is one executable. */
#ifndef TESTS_SIM_E2E_UTIL_H
#define TESTS_SIM_E2E_UTIL_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define E2E_MAX_CHILDREN 8

static pid_t e2e_children[E2E_MAX_CHILDREN];
static char e2e_dir[256];

static double e2e_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Stops a child's whole process group: SIGTERM, up to 2 s, then SIGKILL. Returns its wait status
 * (or -1 when it had to be killed). */
static int e2e_stop(pid_t pid)
{
	if (pid <= 0)
		return -1;
	int status = 0;
	if (waitpid(pid, &status, WNOHANG) == pid)
		goto reaped;
	(void)kill(-pid, SIGTERM);
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			goto reaped;
		usleep(10000);
	}
	(void)kill(-pid, SIGKILL);
	(void)waitpid(pid, &status, 0);
	status = -1;
reaped:
	for (int i = 0; i < E2E_MAX_CHILDREN; i++)
		if (e2e_children[i] == pid)
			e2e_children[i] = 0;
	return status;
}

/* Waits up to timeout_ms for a child to exit by itself, then stops it. Returns its wait status,
 * or -1 when it had to be killed. */
static int e2e_wait(pid_t pid, int timeout_ms)
{
	int status = 0;
	for (int i = 0; i < timeout_ms / 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			for (int k = 0; k < E2E_MAX_CHILDREN; k++)
				if (e2e_children[k] == pid)
					e2e_children[k] = 0;
			return status;
		}
		usleep(10000);
	}
	(void)e2e_stop(pid);
	return -1;
}

static void e2e_kill_all(void)
{
	for (int i = 0; i < E2E_MAX_CHILDREN; i++) {
		if (e2e_children[i] > 0) {
			(void)kill(-e2e_children[i], SIGKILL);
			(void)waitpid(e2e_children[i], NULL, 0);
			e2e_children[i] = 0;
		}
	}
}

static void e2e_on_signal(int sig)
{
	static const char msg[] = "e2e: interrupted or timed out; killing children\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	e2e_kill_all();
	_exit(sig == SIGALRM ? 124 : 130);
}

static void e2e_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void e2e_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("FAIL: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (e2e_dir[0])
		fprintf(stderr, "logs kept in %s\n", e2e_dir);
	exit(1);
}

#define E2E_CHECK(cond, ...)                                                                                           \
	do {                                                                                                           \
		if (!(cond))                                                                                           \
			e2e_fail(__VA_ARGS__);                                                                         \
	} while (0)

/* Installs the clean-up paths and a work directory; `seconds` bounds the whole test. */
static void e2e_init(unsigned seconds)
{
	if (atexit(e2e_kill_all) != 0)
		abort();
	struct sigaction sa = {.sa_handler = e2e_on_signal};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0 || sigaction(SIGALRM, &sa, NULL) < 0)
		abort();
	signal(SIGPIPE, SIG_IGN);
	alarm(seconds);
	snprintf(e2e_dir, sizeof(e2e_dir), "%s/bench-sim-e2e-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	E2E_CHECK(mkdtemp(e2e_dir) != NULL, "mkdtemp: %s", strerror(errno));
}

/* Starts argv in a new process group with stdout to *out_fd (a pipe, or /dev/null when out_fd is
 * NULL) and stderr to log_path. */
static pid_t e2e_spawn(char *const argv[], int *out_fd, const char *log_path)
{
	int p[2] = {-1, -1};
	if (out_fd)
		E2E_CHECK(pipe(p) == 0, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	E2E_CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		setpgid(0, 0);
		int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDWR);
		if (log < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(out_fd ? p[1] : log, 1);
		dup2(log, 2);
		if (out_fd) {
			close(p[0]);
			close(p[1]);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid); /* both sides, so the group exists before either uses it */
	for (int i = 0; i < E2E_MAX_CHILDREN; i++) {
		if (e2e_children[i] == 0) {
			e2e_children[i] = pid;
			break;
		}
	}
	if (out_fd) {
		close(p[1]);
		*out_fd = p[0];
	}
	return pid;
}

/* Reads one line from fd within timeout_ms (byte by byte: the rest must stay in the pipe). */
static int e2e_read_line(int fd, char *buf, size_t len, int timeout_ms)
{
	size_t n = 0;
	double deadline = e2e_now() + timeout_ms / 1000.0;
	while (n + 1 < len) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int left = (int)((deadline - e2e_now()) * 1000);
		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return -1;
		char c;
		if (read(fd, &c, 1) != 1)
			return -1;
		if (c == '\n')
			break;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

/* A port free now on 127.0.0.1 (the kernel's pick; a tiny race with other processes remains). */
static uint16_t e2e_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	E2E_CHECK(fd >= 0, "socket: %s", strerror(errno));
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t sl = sizeof(sa);
	E2E_CHECK(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	              getsockname(fd, (struct sockaddr *)&sa, &sl) == 0,
	          "bind: %s", strerror(errno));
	close(fd);
	return ntohs(sa.sin_port);
}

/* Connects to 127.0.0.1:port, retrying until timeout_ms (a server still starting). -1 on timeout. */
static int e2e_connect(uint16_t port, int timeout_ms)
{
	double deadline = e2e_now() + timeout_ms / 1000.0;
	do {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		E2E_CHECK(fd >= 0, "socket: %s", strerror(errno));
		struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			int one = 1;
			(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			return fd;
		}
		close(fd);
		usleep(10000);
	} while (e2e_now() < deadline);
	return -1;
}

/* Sends cmd + 0x1a and returns the reply (without the 0x1a) in a static buffer. */
static const char *e2e_tcl(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *e2e_tcl(int fd, const char *fmt, ...)
{
	static char reply[1 << 16];
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(cmd, sizeof(cmd) - 1, fmt, ap);
	va_end(ap);
	E2E_CHECK(n > 0 && (size_t)n < sizeof(cmd) - 1, "TCL command too long");
	cmd[n++] = 0x1a;
	E2E_CHECK(send(fd, cmd, (size_t)n, MSG_NOSIGNAL) == n, "TCL send: %s", strerror(errno));
	size_t len = 0;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		E2E_CHECK(poll(&pfd, 1, 60000) == 1, "TCL: no reply in 60 s to `%.*s`", n - 1, cmd);
		ssize_t r = recv(fd, reply + len, sizeof(reply) - 1 - len, 0);
		E2E_CHECK(r > 0, "TCL: OpenOCD closed the connection during `%.*s`", n - 1, cmd);
		len += (size_t)r;
		if (reply[len - 1] == 0x1a)
			break;
		E2E_CHECK(len < sizeof(reply) - 1, "TCL reply too long");
	}
	reply[len - 1] = '\0';
	return reply;
}

/* Whole file into a static buffer (logs). */
static const char *e2e_slurp(const char *path)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	if (!f)
		return "";
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* CPU seconds (user + system) a child has used so far: fields 14 and 15 of /proc/PID/stat
 * (proc(5)), in clock ticks. The command name (field 2) may hold spaces: parse after its ')'. */
static inline double e2e_cpu_seconds(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	E2E_CHECK(f != NULL, "%s: %s", path, strerror(errno));
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	unsigned long ut = 0, st = 0;
	E2E_CHECK(p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2,
	          "%s: cannot parse `%s`", path, buf);
	long hz = sysconf(_SC_CLK_TCK);
	E2E_CHECK(hz > 0, "sysconf(_SC_CLK_TCK)");
	return (double)(ut + st) / (double)hz;
}

/* A stock gdb-multiarch session on marker_loop.elf through the gdbserver at 127.0.0.1:gdb_port
 * (OpenOCD's): load, break at bp_here, continue three times, read the registers. Fails the test
 * unless gdb stops at bp_here (0x8000124) with r4 = 1. */
static inline void e2e_gdb_marker_loop(unsigned gdb_port, const char *fw_dir, int timeout_ms)
{
	char target[64], elf[400], log[400];
	snprintf(target, sizeof(target), "target extended-remote 127.0.0.1:%u", gdb_port);
	snprintf(elf, sizeof(elf), "%s/marker_loop.elf", fw_dir);
	snprintf(log, sizeof(log), "%s/gdb.log", e2e_dir);
	char *argv[] = {"gdb-multiarch",
	                "-nx",
	                "-batch",
	                "-ex",
	                "set confirm off",
	                "-ex",
	                "set pagination off",
	                "-ex",
	                target,
	                "-ex",
	                "monitor reset halt",
	                "-ex",
	                "load",
	                "-ex",
	                "monitor reset halt",
	                "-ex",
	                "break bp_here",
	                "-ex",
	                "continue",
	                "-ex",
	                "continue",
	                "-ex",
	                "continue",
	                "-ex",
	                "info registers",
	                "-ex",
	                "detach",
	                elf,
	                NULL};
	pid_t gdb = e2e_spawn(argv, NULL, log);
	int st = e2e_wait(gdb, timeout_ms);
	const char *out = e2e_slurp(log);
	E2E_CHECK(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "gdb failed (status %d):\n%s", st, out);
	E2E_CHECK(strstr(out, "Transfer rate") != NULL, "gdb load did not finish:\n%s", out);
	E2E_CHECK(strstr(out, "Breakpoint 1, ") != NULL && strstr(out, "bp_here") != NULL,
	          "gdb never stopped at bp_here:\n%s", out);
	E2E_CHECK(strstr(out, "0x8000124 <bp_here>") != NULL, "info registers lacks pc 0x8000124 <bp_here>:\n%s", out);
	E2E_CHECK(strstr(out, "r4             0x1") != NULL, "info registers: r4 is not 1:\n%s", out);
}

#endif /* TESTS_SIM_E2E_UTIL_H */
