/* The GDB remote serial protocol backend: talks to any gdbserver (OpenOCD's GDB port, QEMU's
 * gdbstub, pyOCD, J-Link/ST-LINK gdbserver) behind the ops struct of backend.h. Layers:
 * rsp_io.c (TCP bytes with deadlines) -> rsp_packet.c (framing) -> gdb_rsp.c (commands).
 * Protocol reference: GDB manual, appendix E "GDB Remote Serial Protocol". */
#ifndef HOST_TRANSPORT_GDB_RSP_H
#define HOST_TRANSPORT_GDB_RSP_H

#include "transport/backend.h"

/* Connects to HOST:PORT (or :PORT for 127.0.0.1), negotiates qSupported / PacketSize /
 * QStartNoAckMode, reads the target description to learn register numbers, and fills *bk.
 * Capabilities: BK_CAP_HW_BREAK when the server accepts Z1; BK_CAP_MONITOR when it answers qRcmd;
 * BK_CAP_RESET through `monitor reset halt`; BK_CAP_HALT_ON_BKPT and BK_CAP_CYCCNT are set from
 * what the server says it is (OpenOCD: yes; QEMU's gdbstub: a guest BKPT takes a HardFault and
 * DWT reads 0, so no). The caller may clear capabilities it knows better (board.json "counter").
 * Returns 0 or a negated bench_err (BENCH_E_CONNECT nothing listening, BENCH_E_PROTOCOL garbage
 * or a server without qSupported, BENCH_E_ARCH a target description of another architecture). */
int rsp_backend_open(struct backend *bk, const char *host_port, struct bench_error *err);

/* The same with a per-exchange timeout other than the default 5000 ms (tests, slow links). */
int rsp_backend_open_timeout(struct backend *bk, const char *host_port, unsigned timeout_ms, struct bench_error *err);

/* The same for a target of core family arch, as board.json's "arch" names it: "cortex-m" (what
 * rsp_backend_open() expects) or "tricore": registers from a description whose <architecture>
 * starts with "tricore", else QEMU's TriCore layout (44 registers: D0-D15, A0-A15, LCX, FCX, PCXI,
 * PSW, PC, ...); BK_REG_R0 + n is D[n] (n < 15: 15 is BK_REG_PC), BK_REG_PC the PC, BK_REG_XPSR the PSW. No
 * BK_CAP_HALT_ON_BKPT on TriCore: markers are breakpoints at their sites. BENCH_E_ARCH when the server's description
 * names another architecture. timeout_ms 0: the default 5000 ms. */
int rsp_backend_open_arch(struct backend *bk, const char *host_port, const char *arch, unsigned timeout_ms,
                          struct bench_error *err);

/* Timeout (ms) for each request/reply exchange of a backend opened by rsp_backend_open();
 * the default is 5000. wait_halt() uses its own timeout argument. */
void rsp_backend_set_timeout(struct backend *bk, unsigned timeout_ms);

#endif /* HOST_TRANSPORT_GDB_RSP_H */
