/* The checked wrappers of backend.h: a NULL op becomes a clear BENCH_E_UNSUPPORTED error naming
 * the backend and what it cannot do (after Black Magic Probe's target.c wrappers). */
#include "transport/backend.h"
#include "base/le.h"

#include <string.h>

static int unsupported(const struct backend *bk, const char *what, struct bench_error *err)
{
	const char *name = bk && bk->ops && bk->ops->name ? bk->ops->name : "this backend";
	return bench_fail(err, BENCH_E_UNSUPPORTED, "%s cannot %s: use a backend that can (--openocd or --gdb)", name,
	                  what);
}

#define CHECK_OP(bk, op, what)                                                                                         \
	do {                                                                                                           \
		if (!(bk) || !(bk)->ops || !(bk)->ops->op)                                                             \
			return unsupported((bk), (what), err);                                                         \
	} while (0)

int backend_reconnect(struct backend *bk, struct bench_error *err)
{
	CHECK_OP(bk, reconnect, "connect again");
	return bk->ops->reconnect(bk, err);
}

int backend_halt(struct backend *bk, struct bench_error *err)
{
	CHECK_OP(bk, halt, "halt the target");
	return bk->ops->halt(bk, err);
}

int backend_resume(struct backend *bk, struct bench_error *err)
{
	CHECK_OP(bk, resume, "resume the target");
	return bk->ops->resume(bk, err);
}

int backend_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out, struct bench_error *err)
{
	CHECK_OP(bk, wait_halt, "wait for a halt");
	return bk->ops->wait_halt(bk, timeout_ms, out, err);
}

int backend_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	CHECK_OP(bk, read_mem, "read memory");
	return bk->ops->read_mem(bk, addr, buf, len, err);
}

int backend_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err)
{
	CHECK_OP(bk, write_mem, "write memory");
	return bk->ops->write_mem(bk, addr, buf, len, err);
}

/* Target memory is little-endian (Cortex-M, TriCore); the host's byte order does not matter. */
int backend_read_u32(struct backend *bk, uint32_t addr, uint32_t *value, struct bench_error *err)
{
	uint8_t b[4] = {0}; /* set by every backend that returns 0 (the analyzer cannot see through ops) */
	int rc = backend_read_mem(bk, addr, b, sizeof(b), err);
	if (rc)
		return rc;
	*value = le_get32(b);
	return 0;
}

int backend_write_u32(struct backend *bk, uint32_t addr, uint32_t value, struct bench_error *err)
{
	uint8_t b[4];

	le_put32(b, value);
	return backend_write_mem(bk, addr, b, sizeof(b), err);
}

int backend_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *value, struct bench_error *err)
{
	CHECK_OP(bk, read_reg, "read a core register");
	return bk->ops->read_reg(bk, reg, value, err);
}

int backend_write_reg(struct backend *bk, enum backend_reg reg, uint32_t value, struct bench_error *err)
{
	CHECK_OP(bk, write_reg, "write a core register");
	return bk->ops->write_reg(bk, reg, value, err);
}

int backend_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err)
{
	CHECK_OP(bk, reset, "reset the target");
	return bk->ops->reset(bk, mode, err);
}

int backend_load(struct backend *bk, const char *elf_path, struct bench_error *err)
{
	CHECK_OP(bk, load, "program the firmware");
	return bk->ops->load(bk, elf_path, err);
}

int backend_set_break(struct backend *bk, uint32_t addr, struct bench_error *err)
{
	CHECK_OP(bk, set_break, "set a hardware breakpoint");
	return bk->ops->set_break(bk, addr, err);
}

int backend_clear_break(struct backend *bk, uint32_t addr, struct bench_error *err)
{
	CHECK_OP(bk, clear_break, "clear a hardware breakpoint");
	return bk->ops->clear_break(bk, addr, err);
}

int backend_monitor(struct backend *bk, const char *cmd, char *out, size_t outlen, struct bench_error *err)
{
	CHECK_OP(bk, monitor, "pass monitor commands");
	return bk->ops->monitor(bk, cmd, out, outlen, err);
}

int backend_version(struct backend *bk, char *out, size_t outlen, struct bench_error *err)
{
	CHECK_OP(bk, version, "report its version");
	return bk->ops->version(bk, out, outlen, err);
}

int backend_resume_sample(struct backend *bk, unsigned timeout_ms, uint32_t sample_addr, struct backend_halt_info *out,
                          uint32_t *sample, struct bench_error *err)
{
	int rc;

	if (bk && bk->ops && bk->ops->resume_sample)
		return bk->ops->resume_sample(bk, timeout_ms, sample_addr, out, sample, err);
	rc = backend_resume(bk, err);
	if (!rc)
		rc = backend_wait_halt(bk, timeout_ms, out, err);
	if (!rc)
		rc = backend_read_u32(bk, sample_addr, sample, err);
	return rc;
}

bool backend_has(const struct backend *bk, uint32_t caps)
{
	return bk && (bk->caps & caps) == caps;
}

void backend_close(struct backend *bk)
{
	if (bk && bk->ops && bk->ops->close)
		bk->ops->close(bk);
	if (bk) {
		bk->ops = NULL;
		bk->priv = NULL;
		bk->caps = 0;
	}
}

void backend_set_cancel(struct backend *bk, struct bench_cancel cancel)
{
	bk->cancel = cancel;
}
