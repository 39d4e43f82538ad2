/* Internals shared by the GDB RSP backend's files: gdb_rsp.c (session, ops), gdb_rsp_regs.c
 * (registers), gdb_rsp_tdesc.c (target description -> register numbers), gdb_rsp_load.c (ELF
 * download, flash packets). */
#ifndef HOST_TRANSPORT_GDB_RSP_PRIV_H
#define HOST_TRANSPORT_GDB_RSP_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "transport/backend.h"
#include "transport/rsp_packet.h"

#define RSP_MAX_REGS   128
#define RSP_MAX_BREAKS 64
#define RSP_MAX_FLASH  32

/* A register as the target description lists it (GDB manual G.3 "Target Description Format"). */
struct rsp_reg {
	char name[16];
	int regnum;
	unsigned bitsize;
};

struct rsp_tdesc {
	char arch[64]; /* <architecture>, "" if absent */
	struct rsp_reg regs[RSP_MAX_REGS];
	size_t n_regs;
	int map[BK_REG_PSP + 1]; /* backend_reg -> GDB register number, -1 if the target has none */
};

/* What differs between gdbservers, as data (after pyOCD/probe-rs quirk tables). */
struct rsp_flavour {
	const char *name;          /* "openocd", "qemu", "gdbserver" */
	const char *version_cmd;   /* monitor command whose output names the server */
	const char *version_match; /* prefix of that output that identifies it */
	const char *reset_halt;    /* monitor command: reset and stay halted at the reset vector */
	const char *reset_run;     /* NULL: reset_halt, then continue */
	const char *reset_init;
	bool continue_skips_bkpt; /* `c` on a halted BKPT steps over it (OpenOCD armv7m_maybe_skip_bkpt_inst) */
	uint32_t caps;            /* BK_CAP_HALT_ON_BKPT / BK_CAP_CYCCNT the target has behind it */
	/* Run control through monitor commands instead of c/stop reply, where the server's stop reply
	 * waits for a slow timer: OpenOCD 0.12 notices a halt after `c` only in its 100 ms target
	 * poll (src/target/target.c handle_target), while `wait_halt` polls at once
	 * (target_wait_state). NULL: c / stop reply / 0x03. */
	const char *run_cmd;  /* "resume" */
	const char *wait_cmd; /* "wait_halt" (takes the timeout in ms) */
	const char *halt_cmd; /* "halt" */
	/* QEMU 7.2's TriCore gdbstub writes G's A0-A15 slots into D0-D15 (target/tricore/gdbstub.c
	 * tricore_cpu_gdb_write_register: gpr_d[n - 16]), and has no P: a register is written with a G
	 * whose A slots repeat the D values, so D stays right and A is left as it was. */
	bool g_a_slots_to_d;
	/* The server's reset does not move the PC to the program's start (QEMU's TriCore machines set
	 * it once, when -kernel loads: hw/tricore/triboard.c tricore_load_kernel): after a reset the
	 * PC seen at attach is written back. */
	bool reset_keeps_pc;
};

struct rsp_flash {
	uint32_t start, length, blocksize;
};

struct rsp_break {
	uint32_t addr;
	char type; /* '0' software, '1' hardware: z must use the same */
};

struct rsp_priv {
	struct rsp_link link;
	bool tricore;       /* the target is a TriCore (rsp_backend_open_arch): no BKPT, D/A registers */
	uint32_t attach_pc; /* the PC when bench attached: a reset_keeps_pc server's start address */
	const struct rsp_flavour *flavour;
	size_t server_packet_size; /* qSupported PacketSize: the largest packet the server takes */
	bool has_vcont, has_features, has_memory_map, has_noack;
	int x_state;  /* binary X writes: 0 untried, 1 works, -1 unsupported (use M) */
	int p_state;  /* single-register p/P: 0 untried, 1 works, -1 use g/G */
	int z1_state; /* hardware breakpoints: 0 untried, 1 works, -1 use Z0 */
	bool running;
	bool mon_run; /* running was started by flavour->run_cmd: no stop reply will come */
	bool pc_valid;
	uint32_t pc; /* from the last stop reply or register read */
	struct rsp_tdesc tdesc;
	struct rsp_break breaks[RSP_MAX_BREAKS];
	size_t n_breaks;
	struct rsp_flash flash[RSP_MAX_FLASH];
	size_t n_flash;
	char version[128];
	struct {
		uint32_t addr;
		bool bkpt;
	} insn_cache[16]; /* code does not change under us: one read per marker site */
	size_t n_insn_cache;
};

/* gdb_rsp_xchg.c: one request, one reply (not a stop reply): the reply is in
 * s->link.parser.data. */
int rsp_exchange(struct rsp_priv *s, const void *payload, size_t len, struct bench_error *err);
/* rsp_exchange with a printf-formatted text packet. */
int rsp_command(struct rsp_priv *s, struct bench_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reads a whole qXfer object (object "features", annex "target.xml") into a malloc'd string. */
int rsp_qxfer_read(struct rsp_priv *s, const char *object, const char *annex, char **out, struct bench_error *err);
/* rsp_exchange that keeps console O packets (monitor output) and waits timeout_ms. */
int rsp_exchange_console(struct rsp_priv *s, const void *payload, size_t len, unsigned timeout_ms,
                         struct bench_error *err);
bool rsp_is_console(const struct rsp_priv *s);
/* The last reply's payload (NUL-terminated by the parser). */
const char *rsp_reply(struct rsp_priv *s);

/* Fills s->tdesc from qXfer:features:read (following xi:include), or from the classic GDB ARM
 * numbering when the server offers no description. BENCH_E_ARCH for another architecture. */
int rsp_tdesc_load(struct rsp_priv *s, struct bench_error *err);
/* Parses one description document (exposed for unit tests); includes are fetched through s when
 * s is non-NULL and skipped otherwise. *next is the number the next register without regnum gets. */
int rsp_tdesc_parse(struct rsp_priv *s, struct rsp_tdesc *td, const char *xml, int *next, int depth,
                    struct bench_error *err);
/* Maps r0..r15, xpsr, msp, psp to GDB numbers and checks the architecture; for a TriCore target
 * d0..d15, psw and pc instead (BK_REG_R0 + n is D[n] for n < 15, BK_REG_XPSR the PSW). */
int rsp_tdesc_finish(struct rsp_tdesc *td, const char *peer, struct bench_error *err);
int rsp_tdesc_finish_tricore(struct rsp_tdesc *td, const char *peer, struct bench_error *err);
/* Parses a qXfer:memory-map:read document's flash regions into s->flash (exposed for tests). */
void rsp_memory_map_parse(struct rsp_priv *s, const char *xml);

/* Memory through m and X/M, chunked to the server's packet size (gdb_rsp_load.c). */
int rsp_read_mem(struct rsp_priv *s, uint32_t addr, void *buf, size_t len, struct bench_error *err);
int rsp_write_mem(struct rsp_priv *s, uint32_t addr, const void *buf, size_t len, struct bench_error *err);
/* Whether the halfword at addr is a BKPT (Thumb 0xBExx, Armv7-M ARM A7.7.17); cached per address.
 * Always false on TriCore, which has no BKPT (its DEBUG markers are stepped over like any code). */
int rsp_is_bkpt(struct rsp_priv *s, uint32_t addr, bool *is_bkpt, struct bench_error *err);

/* gdb_rsp.c */
extern const struct backend_ops rsp_backend_ops;
/* Parses the stop reply in s->link.parser.data (T/S/W/X, E.3) into *info. */
int rsp_parse_stop(struct rsp_priv *s, struct backend_halt_info *info, struct bench_error *err);
/* Why the target stopped on a SIGTRAP (or a monitor-run halt): planted breakpoint, BKPT, other. */
int rsp_classify_trap(struct rsp_priv *s, bool hw_sw, struct backend_halt_info *info, struct bench_error *err);
int rsp_op_halt(struct backend *bk, struct bench_error *err);
int rsp_op_resume(struct backend *bk, struct bench_error *err);
int rsp_op_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err);

/* gdb_rsp_regs.c: registers through p/P or g/G; the PC as read or written is kept in s->pc. */
int rsp_read_pc(struct rsp_priv *s, uint32_t *pc, struct bench_error *err);
int rsp_write_pc(struct rsp_priv *s, uint32_t pc, struct bench_error *err);
int rsp_op_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *value, struct bench_error *err);
int rsp_op_write_reg(struct backend *bk, enum backend_reg reg, uint32_t value, struct bench_error *err);

/* gdb_rsp_monitor.c: qRcmd, and run control through monitor commands. It calls nothing of
 * gdb_rsp.c: the waits return 0 once the target halted, and the caller asks rsp_classify_trap why. */
int rsp_monitor(struct rsp_priv *s, const char *cmd, char *out, size_t outlen, struct bench_error *err);
int rsp_op_monitor(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err);
int rsp_mon_resume(struct rsp_priv *s, struct bench_error *err);
int rsp_mon_wait(struct rsp_priv *s, unsigned timeout_ms, struct bench_error *err);
int rsp_mon_halt(struct rsp_priv *s, struct bench_error *err);
int rsp_mon_resume_wait(struct rsp_priv *s, unsigned timeout_ms, struct bench_error *err);

/* backend ops implemented in gdb_rsp_load.c */
int rsp_op_load(struct backend *bk, const char *elf_path, struct bench_error *err);
int rsp_op_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err);
int rsp_op_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err);

#endif /* HOST_TRANSPORT_GDB_RSP_PRIV_H */
