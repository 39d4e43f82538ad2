/* The seam between a measurement run and a debug server: one ops struct, one implementation file
 * per backend (openocd_tcl.c, gdb_rsp.c). A NULL entry means "not supported"; the backend_*()
 * wrappers in backend.c turn that into a clear BENCH_E_UNSUPPORTED error. Runs ask capabilities,
 * never which backend it is (after pyOCD's probe capabilities). */
#ifndef HOST_TRANSPORT_BACKEND_H
#define HOST_TRANSPORT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cancel.h"
#include "base/error.h"

enum backend_cap {
	BK_CAP_HALT_ON_BKPT = 1u << 0, /* the target halts on a BKPT it executes (C_DEBUGEN) */
	BK_CAP_CYCCNT = 1u << 1,       /* the target has a readable cycle counter */
	BK_CAP_FLASH = 1u << 2,        /* load() can program flash */
	BK_CAP_HW_BREAK = 1u << 3,     /* set_break() plants hardware breakpoints */
	BK_CAP_RESET = 1u << 4,
	BK_CAP_MONITOR = 1u << 5, /* monitor() passes commands to the server */
};

enum backend_reset { BK_RESET_HALT, BK_RESET_RUN, BK_RESET_INIT };

/* Why the target stopped. */
enum backend_halt {
	BK_HALT_BREAKPOINT,
	BK_HALT_BKPT_INSN,
	BK_HALT_WATCHPOINT,
	BK_HALT_REQUEST,
	BK_HALT_FAULT,
	BK_HALT_EXITED,
	BK_HALT_OTHER
};

struct backend_halt_info {
	enum backend_halt reason;
	uint32_t pc;
};

/* Core register numbers as the Armv7-M DCRSR REGSEL field names them (C1.6.3). */
enum backend_reg {
	BK_REG_R0 = 0,
	BK_REG_SP = 13,
	BK_REG_LR = 14,
	BK_REG_PC = 15,
	BK_REG_XPSR = 16,
	BK_REG_MSP = 17,
	BK_REG_PSP = 18
};

struct backend;

struct backend_ops {
	const char *name; /* "openocd-tcl" */
	void (*close)(struct backend *bk);
	int (*halt)(struct backend *bk, struct bench_error *err);
	/* Continue from the current PC; a BKPT instruction at the PC is stepped over. */
	int (*resume)(struct backend *bk, struct bench_error *err);
	int (*wait_halt)(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out,
	                 struct bench_error *err);
	int (*read_mem)(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err);
	int (*write_mem)(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err);
	int (*read_reg)(struct backend *bk, enum backend_reg reg, uint32_t *value, struct bench_error *err);
	int (*write_reg)(struct backend *bk, enum backend_reg reg, uint32_t value, struct bench_error *err);
	int (*reset)(struct backend *bk, enum backend_reset mode, struct bench_error *err);
	/* Program the ELF (flash and RAM segments) and verify it. */
	int (*load)(struct backend *bk, const char *elf_path, struct bench_error *err);
	int (*set_break)(struct backend *bk, uint32_t addr, struct bench_error *err);
	int (*clear_break)(struct backend *bk, uint32_t addr, struct bench_error *err);
	int (*monitor)(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err);
	/* Server name and version, for the report's context. */
	int (*version)(struct backend *bk, char *out, size_t outlen, struct bench_error *err);
	/* Optional fast path for marker halts: resume, wait up to timeout_ms for the next halt, then read
	 * the PC and the 32-bit word at sample_addr (DWT_CYCCNT), all in one round trip. Returns
	 * BENCH_E_TIMEOUT (negated) when the target is still running; the caller then waits with
	 * wait_halt. NULL: backend_resume_sample() composes it from the ops above. */
	int (*resume_sample)(struct backend *bk, unsigned timeout_ms, uint32_t sample_addr,
	                     struct backend_halt_info *out, uint32_t *sample, struct bench_error *err);
	/* Optional: drops the link and opens a fresh one to the same server, replies still owed on the
	 * old one with it (a server that takes several clients: OpenOCD's TCL port). For the clean-up
	 * after a lost link or an answer that never came. NULL: cannot. */
	int (*reconnect)(struct backend *bk, struct bench_error *err);
};

struct backend {
	const struct backend_ops *ops;
	uint32_t caps;
	void *priv;
	/* Asked while a command waits on the server (base/cancel.h); set with backend_set_cancel(). */
	struct bench_cancel cancel;
};

/* Checked wrappers: each returns BENCH_E_UNSUPPORTED (negated) with a clear message for a NULL op. */
int backend_halt(struct backend *bk, struct bench_error *err);
int backend_resume(struct backend *bk, struct bench_error *err);
int backend_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out, struct bench_error *err);
int backend_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err);
int backend_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err);
int backend_read_u32(struct backend *bk, uint32_t addr, uint32_t *value, struct bench_error *err);
int backend_write_u32(struct backend *bk, uint32_t addr, uint32_t value, struct bench_error *err);
int backend_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *value, struct bench_error *err);
int backend_write_reg(struct backend *bk, enum backend_reg reg, uint32_t value, struct bench_error *err);
int backend_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err);
int backend_load(struct backend *bk, const char *elf_path, struct bench_error *err);
int backend_set_break(struct backend *bk, uint32_t addr, struct bench_error *err);
int backend_clear_break(struct backend *bk, uint32_t addr, struct bench_error *err);
int backend_monitor(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err);
int backend_version(struct backend *bk, char *out, size_t outlen, struct bench_error *err);
/* resume + wait_halt(timeout_ms) + read PC + read_u32(sample_addr); uses ops->resume_sample when set. */
int backend_resume_sample(struct backend *bk, unsigned timeout_ms, uint32_t sample_addr, struct backend_halt_info *out,
                          uint32_t *sample, struct bench_error *err);
int backend_reconnect(struct backend *bk, struct bench_error *err);
/* Who decides that a long command stops early (Ctrl-C, a farm's flag): a command in progress then
 * fails with BENCH_E_INTERRUPTED within BENCH_CANCEL_SLICE_MS. Call after the backend is open. */
void backend_set_cancel(struct backend *bk, struct bench_cancel cancel);
/* Has every capability in caps. */
bool backend_has(const struct backend *bk, uint32_t caps);
void backend_close(struct backend *bk);

#endif /* HOST_TRANSPORT_BACKEND_H */
