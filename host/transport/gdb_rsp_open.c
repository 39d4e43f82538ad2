/* Opening a GDB RSP session (GDB manual E.4 qSupported, E.11 QStartNoAckMode, G target
 * descriptions) and recognising which gdbserver it is, so its quirks stay data (struct rsp_flavour). */
#include "transport/gdb_rsp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/gdb_rsp_priv.h"

#define RSP_DEFAULT_TIMEOUT_MS 5000u
#define RSP_CONNECT_TIMEOUT_MS 3000u
/* Our receive limit: replies are bounded by what we ask for (m, qXfer), plus a whole 'g'. */
#define RSP_MAX_PAYLOAD (64u * 1024u)
/* E.4: without qSupported's PacketSize assume what old stubs took (gdbserver's historic 400). */
#define RSP_DEFAULT_PACKET_SIZE 400u

static const struct rsp_flavour flavours[] = {
    /* OpenOCD 0.12 src/server/gdb_server.c: `c` resumes with current=1, and cortex_m_resume()
     * steps over a BKPT it halted on (armv7m_maybe_skip_bkpt_inst, src/target/armv7m.c). */
    {"openocd", "version", "Open On-Chip Debugger", "reset halt", NULL, "reset init", true,
     BK_CAP_HALT_ON_BKPT | BK_CAP_CYCCNT | BK_CAP_FLASH, "resume", "wait_halt", "halt", false, false},
    /* QEMU 7.2 gdbstub: a guest BKPT is a guest exception (HardFault), DWT is not modelled
     * (reads 0); `monitor` goes to the HMP monitor. Identified by qqemu.sstepbits below. */
    {"qemu", "info version", NULL, "system_reset", NULL, "system_reset", false, 0, NULL, NULL, NULL, false, false},
    /* pyOCD, J-Link GDB Server, ST-LINK gdbserver on real Cortex-M silicon: the core halts on
     * BKPT with C_DEBUGEN set and has DWT_CYCCNT (unless the board says "counter": "none"). */
    {"gdbserver", NULL, NULL, "reset halt", NULL, "reset halt", false, BK_CAP_HALT_ON_BKPT | BK_CAP_CYCCNT, NULL, NULL,
     NULL, false, false},
    /* QEMU 7.2's TriCore gdbstub (KIT_AURIX_TC277_TRB, tricore_testboard): no p/P, a G that puts the
     * A registers into the D slots, a system_reset that leaves the PC where it was; CCNT/ICNT are
     * stored values that never count and the CSFRs are not memory-mapped: no counter. */
    {"qemu", "info version", NULL, "system_reset", NULL, "system_reset", false, 0, NULL, NULL, NULL, true, true},
};

enum { FLAVOUR_OPENOCD, FLAVOUR_QEMU, FLAVOUR_GENERIC, FLAVOUR_QEMU_TRICORE };

/* qSupported reply: "PacketSize=1000;qXfer:features:read+;QStartNoAckMode+;..." */
static void parse_supported(struct rsp_priv *s, const char *r)
{
	const char *ps = strstr(r, "PacketSize=");

	s->server_packet_size = ps ? (size_t)strtoul(ps + 11, NULL, 16) : RSP_DEFAULT_PACKET_SIZE;
	if (s->server_packet_size < 64)
		s->server_packet_size = 64;
	if (s->server_packet_size > RSP_MAX_PAYLOAD)
		s->server_packet_size = RSP_MAX_PAYLOAD;
	s->has_features = strstr(r, "qXfer:features:read+") != NULL;
	s->has_memory_map = strstr(r, "qXfer:memory-map:read+") != NULL;
	s->has_noack = strstr(r, "QStartNoAckMode+") != NULL;
}

static int negotiate(struct rsp_priv *s, struct bench_error *err)
{
	int rc = rsp_command(s, err, "qSupported:swbreak+;hwbreak+;vContSupported+");

	if (rc < 0)
		return rc;
	/* An empty reply is a stub without qSupported (E.4): defaults, classic register numbers. */
	parse_supported(s, s->link.parser.data);
	if (s->has_noack) {
		rc = rsp_command(s, err, "QStartNoAckMode");
		if (rc < 0)
			return rc;
		if (!strcmp(s->link.parser.data, "OK"))
			s->link.noack = true;
	}
	rc = rsp_command(s, err, "vCont?");
	if (rc < 0)
		return rc;
	s->has_vcont = !strncmp(s->link.parser.data, "vCont", 5) && strstr(s->link.parser.data, ";c") &&
	               strstr(s->link.parser.data, ";s");
	return 0;
}

/* The target's state on attach: a stop reply, or the server is not debugging anything. */
static int initial_state(struct rsp_priv *s, struct bench_error *err)
{
	int rc = rsp_command(s, err, "?");

	if (rc < 0)
		return rc;
	if (s->link.parser.len == 0)
		return bench_fail(err, BENCH_E_PROTOCOL,
		                  "gdbserver %s did not report the target state (no reply to '?'): not a GDB "
		                  "remote-protocol server, or too old",
		                  s->link.io.peer);
	if (s->link.parser.data[0] == 'W' || s->link.parser.data[0] == 'X')
		return bench_fail(err, BENCH_E_TARGET, "gdbserver %s says the target has exited (\"%s\")",
		                  s->link.io.peer, s->link.parser.data);
	if (s->link.parser.data[0] != 'T' && s->link.parser.data[0] != 'S')
		return bench_fail(err, BENCH_E_PROTOCOL, "gdbserver %s answered '?' with \"%.40s\", not a stop reply",
		                  s->link.io.peer, s->link.parser.data);
	s->running = false;
	return 0;
}

/* Which server: QEMU answers its own qqemu.sstepbits query; OpenOCD names itself to `monitor
 * version`; anything else is a generic Cortex-M gdbserver. */
static int identify(struct rsp_priv *s, struct bench_error *err)
{
	char out[1024], *name;
	int rc = rsp_command(s, err, "qqemu.sstepbits");

	if (rc < 0)
		return rc;
	if (!strncmp(s->link.parser.data, "ENABLE=", 7)) {
		s->flavour = &flavours[s->tricore ? FLAVOUR_QEMU_TRICORE : FLAVOUR_QEMU];
		rc = rsp_monitor(s, "info version", out, sizeof(out), err);
		out[strcspn(out, "\r\n")] = '\0';
		(void)snprintf(s->version, sizeof(s->version), "QEMU %.100s", rc == 0 ? out : "(version unknown)");
		return 0;
	}
	/* OpenOCD may put log lines ("[stm32f4x.cpu] clearing lockup ...") before the answer, and on a
	 * core that locks up again and again (an empty flash) it loses the answer itself: OpenOCD 0.12
	 * prints a monitor command's Tcl result after the command (command_run_line), and the target
	 * poll re-examining the core in between runs event scripts that replace that result. `echo`
	 * logs its argument at once (LOG_USER), so `echo [version]` carries the name through. */
	name = NULL;
	for (int i = 0; i < 2 && !name; i++) {
		rc = rsp_monitor(s, i == 0 ? "version" : "echo [version]", out, sizeof(out), err);
		if (rc < 0 && err->kind != BENCH_E_UNSUPPORTED && err->kind != BENCH_E_TARGET)
			return rc;
		name = rc == 0 ? strstr(out, flavours[FLAVOUR_OPENOCD].version_match) : NULL;
		bench_error_clear(err);
	}
	if (name) {
		name[strcspn(name, "\r\n")] = '\0';
		s->flavour = &flavours[FLAVOUR_OPENOCD];
		(void)snprintf(s->version, sizeof(s->version), "%.120s", name);
	} else {
		s->flavour = &flavours[FLAVOUR_GENERIC];
		(void)snprintf(s->version, sizeof(s->version), "gdbserver at %s", s->link.io.peer);
	}
	bench_error_clear(err);
	return 0;
}

/* Capabilities from what the server proved it can do, plus its flavour's target facts. */
static int probe_caps(struct rsp_priv *s, uint32_t *caps, struct bench_error *err)
{
	char out[64];
	uint32_t pc;
	int rc = rsp_read_pc(s, &pc, err);

	if (rc < 0)
		return rc;
	s->attach_pc = pc;
	*caps = s->flavour->caps;
	/* Loading needs no server quirk, so it does not hang on recognising the server (OpenOCD's
	 * `monitor version` answer is lost while it re-examines a core locked up on an empty flash):
	 * flash goes through the regions of the server's memory map (vFlashErase/vFlashWrite/vFlashDone,
	 * E.4), everything else through X or M, and rsp_op_load reads it all back. QEMU loaded the image
	 * itself (-kernel); bench does not load TriCore images. */
	if (s->flavour != &flavours[FLAVOUR_QEMU] && !s->tricore)
		*caps |= BK_CAP_FLASH;
	/* A TriCore marker is a DEBUG instruction, which halts only where the debugger has set the core's
	 * debug event up for it (TC1.6P manual, "Debug events", CREVT) and is a no-op elsewhere (QEMU):
	 * markers are caught with breakpoints at their sites on every TriCore server. */
	if (s->tricore)
		*caps &= ~(uint32_t)BK_CAP_HALT_ON_BKPT;
	rc = rsp_command(s, err, "Z1,%x,2", (unsigned)(pc & ~1u));
	if (rc < 0)
		return rc;
	if (!strcmp(s->link.parser.data, "OK")) {
		*caps |= BK_CAP_HW_BREAK;
		s->z1_state = 1;
		rc = rsp_command(s, err, "z1,%x,2", (unsigned)(pc & ~1u));
		if (rc < 0)
			return rc;
	} else if (s->link.parser.len == 0) {
		s->z1_state = -1;
	}
	if (s->flavour == &flavours[FLAVOUR_OPENOCD] || s->flavour == &flavours[FLAVOUR_QEMU]) {
		*caps |= BK_CAP_MONITOR | BK_CAP_RESET;
	} else {
		rc = rsp_monitor(s, "help", out, sizeof(out), err);
		if (rc == 0)
			*caps |= BK_CAP_MONITOR | BK_CAP_RESET;
		else if (err->kind != BENCH_E_UNSUPPORTED && err->kind != BENCH_E_TARGET)
			return rc;
		bench_error_clear(err);
	}
	return 0;
}

int rsp_backend_open(struct backend *bk, const char *host_port, struct bench_error *err)
{
	return rsp_backend_open_timeout(bk, host_port, RSP_DEFAULT_TIMEOUT_MS, err);
}

int rsp_backend_open_timeout(struct backend *bk, const char *host_port, unsigned timeout_ms, struct bench_error *err)
{
	return rsp_backend_open_arch(bk, host_port, "cortex-m", timeout_ms, err);
}

int rsp_backend_open_arch(struct backend *bk, const char *host_port, const char *arch, unsigned timeout_ms,
                          struct bench_error *err)
{
	struct rsp_priv *s = calloc(1, sizeof(*s));
	char *map = NULL;
	int rc;

	if (!timeout_ms)
		timeout_ms = RSP_DEFAULT_TIMEOUT_MS;
	memset(bk, 0, sizeof(*bk));
	if (!s)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory for the GDB backend");
	rc = rsp_link_init(&s->link, RSP_MAX_PAYLOAD, timeout_ms, err);
	if (rc < 0) {
		free(s);
		return rc;
	}
	bk->ops = &rsp_backend_ops;
	bk->priv = s;
	s->tricore = arch && !strcmp(arch, "tricore");
	rc = rsp_io_connect(&s->link.io, host_port,
	                    timeout_ms < RSP_CONNECT_TIMEOUT_MS ? timeout_ms : RSP_CONNECT_TIMEOUT_MS, err);
	s->link.io.cancel = &bk->cancel; /* bk outlives the link; backend_set_cancel() fills it */
	if (rc == 0)
		rc = negotiate(s, err);
	if (rc == 0)
		rc = initial_state(s, err);
	if (rc == 0)
		rc = rsp_tdesc_load(s, err);
	if (rc == 0 && s->has_memory_map) {
		rc = rsp_qxfer_read(s, "memory-map", "", &map, err);
		if (rc == 0)
			rsp_memory_map_parse(s, map);
		free(map);
	}
	if (rc == 0)
		rc = identify(s, err);
	if (rc == 0)
		rc = probe_caps(s, &bk->caps, err);

	if (rc < 0) {
		/* Close without the polite detach: the session never got going. */
		rsp_link_free(&s->link);
		free(s);
		memset(bk, 0, sizeof(*bk));
	}
	return rc;
}

void rsp_backend_set_timeout(struct backend *bk, unsigned timeout_ms)
{
	struct rsp_priv *s = bk->priv;

	if (s && bk->ops == &rsp_backend_ops)
		s->link.timeout_ms = timeout_ms;
}
