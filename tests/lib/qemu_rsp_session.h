/* A QEMU gdbstub session for the RSP backend's tests (tests/rsp/test_rsp_qemu.c,
 * tests/tricore/test_rsp_tricore.c): QEMU started through qemu_proc with `o`, the backend
 * connected to its gdbstub (arch NULL: an Arm Cortex-M, rsp_backend_open(); else
 * rsp_backend_open_arch()), and the ELF open. Any failure fails the cmocka test with its message.
 * Include after <cmocka.h>. */
#ifndef TESTS_LIB_QEMU_RSP_SESSION_H
#define TESTS_LIB_QEMU_RSP_SESSION_H

#include <stdint.h>
#include <string.h>

#include "firmware/elf.h"
#include "session/proc.h"
#include "session/qemu_proc.h"
#include "transport/gdb_rsp.h"

struct qemu_rsp_session {
	struct proc *qemu;
	struct backend bk;
	struct elf_file elf;
};

static inline void qemu_rsp_open(struct qemu_rsp_session *s, const struct qemu_opts *o, const char *arch)
{
	struct bench_error err;
	char hp[64];

	memset(s, 0, sizeof(*s));
	if (qemu_start_opts(o, hp, sizeof(hp), &s->qemu, &err) < 0)
		fail_msg("qemu: %s", err.msg);
	int rc = arch ? rsp_backend_open_arch(&s->bk, hp, arch, 0, &err) : rsp_backend_open(&s->bk, hp, &err);
	if (rc < 0) {
		qemu_stop(s->qemu);
		fail_msg("rsp: %s", err.msg);
	}
	if (elf_open(o->elf, &s->elf, &err) < 0) {
		backend_close(&s->bk);
		qemu_stop(s->qemu);
		fail_msg("elf: %s", err.msg);
	}
}

static inline void qemu_rsp_close(struct qemu_rsp_session *s)
{
	elf_close(&s->elf);
	backend_close(&s->bk);
	qemu_stop(s->qemu);
}

/* The address of an ELF symbol the test needs (fails the test when it is missing). */
static inline uint32_t qemu_rsp_sym(struct qemu_rsp_session *s, const char *name)
{
	const struct elf_symbol *y = elf_symbol(&s->elf, name);

	assert_non_null(y);
	return y->addr;
}

#endif /* TESTS_LIB_QEMU_RSP_SESSION_H */
