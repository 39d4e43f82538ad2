/* A scripted GDB server for bad-input tests: a thread on 127.0.0.1 that answers each packet it
 * receives with the first script entry whose prefix matches, as raw bytes (so a test can send a
 * bad checksum, garbage, or half a packet and hang up). The link seam of tests/rsp. */
#ifndef TESTS_RSP_FAKE_GDBSERVER_H
#define TESTS_RSP_FAKE_GDBSERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fake_step {
	const char *prefix; /* packet payload prefix; NULL ends the script */
	const char *raw;    /* bytes to write back verbatim ("+$OK#9a"); NULL: "+" then the empty reply */
	bool hang_up;       /* close the connection after writing raw */
};

struct fake_server {
	int listen_fd;
	uint16_t port;
	pthread_t thread;
	const struct fake_step *script;
	const char *greeting; /* written as soon as a client connects (garbage tests); may be NULL */
	bool silent;          /* accept, read, never answer */
	unsigned packets;     /* how many packets the client sent */
};

/* Starts the server; returns 0 and fills fs->port. */
int fake_server_start(struct fake_server *fs);
/* Waits for the thread (it ends when the client hangs up or after 5 s). */
void fake_server_stop(struct fake_server *fs);

#endif /* TESTS_RSP_FAKE_GDBSERVER_H */
