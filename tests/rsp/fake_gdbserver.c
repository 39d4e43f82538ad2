/* A scripted GDB server thread for tests (see fake_gdbserver.h). */
#include "fake_gdbserver.h"

#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "transport/rsp_packet.h"

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void answer(struct fake_server *fs, int fd, const char *pkt, bool *hang_up)
{
	for (const struct fake_step *st = fs->script; st && st->prefix; st++) {
		char out[4096];
		size_t n;

		if (strncmp(pkt, st->prefix, strlen(st->prefix)))
			continue;
		if (st->raw) {
			write_all(fd, st->raw, strlen(st->raw));
		} else {
			n = rsp_packet_encode('$', "", 0, out + 1, sizeof(out) - 1);
			out[0] = '+';
			write_all(fd, out, n + 1);
		}
		*hang_up = st->hang_up;
		return;
	}
	write_all(fd, "+$#00", 5); /* E.1: an empty reply means "not supported" */
}

static void *serve(void *arg)
{
	struct fake_server *fs = arg;
	struct pollfd pfd = {.fd = fs->listen_fd, .events = POLLIN};
	struct rsp_parser p;
	int fd;
	bool hang_up = false;

	if (poll(&pfd, 1, 5000) != 1)
		return NULL;
	fd = accept(fs->listen_fd, NULL, NULL);
	if (fd < 0 || rsp_parser_init(&p, 65536) != 0)
		return NULL;
	if (fs->greeting)
		write_all(fd, fs->greeting, strlen(fs->greeting));
	while (!hang_up) {
		struct pollfd cp = {.fd = fd, .events = POLLIN};
		char buf[4096];
		ssize_t n;

		if (poll(&cp, 1, 5000) != 1)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && !hang_up; i++) {
			enum rsp_frame f = rsp_parser_feed(&p, (uint8_t)buf[i]);

			if (f != RSP_FRAME_PACKET)
				continue;
			fs->packets++;
			if (!fs->silent)
				answer(fs, fd, p.data, &hang_up);
		}
	}
	rsp_parser_free(&p);
	close(fd);
	return NULL;
}

int fake_server_start(struct fake_server *fs)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof(a);

	fs->packets = 0;
	fs->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fs->listen_fd < 0 || bind(fs->listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(fs->listen_fd, 1) != 0 || getsockname(fs->listen_fd, (struct sockaddr *)&a, &al) != 0)
		return -1;
	fs->port = ntohs(a.sin_port);
	return pthread_create(&fs->thread, NULL, serve, fs) == 0 ? 0 : -1;
}

void fake_server_stop(struct fake_server *fs)
{
	pthread_join(fs->thread, NULL);
	close(fs->listen_fd);
}
