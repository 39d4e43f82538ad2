/* The RSP backend against QEMU 7.2's TriCore gdbstub (KIT_AURIX_TC277_TRB, issue 15), on the ELF
 * tricore_elf.py makes from hand-encoded instructions: breakpoints at the three DEBUG16 marker
 * sites halt in order (BEGIN, END, DONE), the loop count comes back from D3 and from the memory the
 * program stored it to, QEMU's quirks are handled (no p/P, `c` from a breakpoint, G putting the A
 * registers into the D slots, a reset that keeps the PC), and the CSFRs are not memory-mapped.
 * Usage: test_rsp_tricore TRICORE.elf LOOPS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench_abi.h"
#include "firmware/elf.h"
#include "session/proc.h"
#include "session/qemu_proc.h"
#include "transport/gdb_rsp.h"

#include "qemu_rsp_session.h"

#define REG_D(n) ((enum backend_reg)(BK_REG_R0 + (n)))
#define COUNT2   (2u * PFP_RECORD_SIZE + PFP_REC_OFF_COUNT) /* region 2's `count` (docs/regions.md) */

static const char *tc_elf;
static uint32_t loops;

static void open_session(struct qemu_rsp_session *s)
{
	struct qemu_opts o = {.binary = "qemu-system-tricore", .machine = "KIT_AURIX_TC277_TRB", .elf = tc_elf};

	qemu_rsp_open(s, &o, "tricore");
}

static uint32_t reg(struct qemu_rsp_session *s, enum backend_reg r)
{
	struct bench_error err;
	uint32_t v = 0;

	if (backend_read_reg(&s->bk, r, &v, &err) < 0)
		fail_msg("register %d: %s", (int)r, err.msg);
	return v;
}

static void halt_at(struct qemu_rsp_session *s, uint32_t want)
{
	struct backend_halt_info h;
	struct bench_error err;

	if (backend_resume(&s->bk, &err) < 0 || backend_wait_halt(&s->bk, 5000, &h, &err) < 0)
		fail_msg("resume/halt: %s", err.msg);
	assert_int_equal(h.reason, BK_HALT_BREAKPOINT);
	assert_int_equal(h.pc, want);
}

static void test_identity_and_layout(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	char ver[128];
	uint32_t w;

	(void)state;
	open_session(&s);
	assert_true(s.elf.machine == EM_TRICORE);
	assert_string_equal(elf_arch(&s.elf), "tricore");
	/* Hardware breakpoints, monitor and reset; no halt on a marker, no counter. */
	assert_int_equal(s.bk.caps, BK_CAP_HW_BREAK | BK_CAP_MONITOR | BK_CAP_RESET);
	assert_int_equal(backend_version(&s.bk, ver, sizeof(ver), &err), 0);
	assert_int_equal(strncmp(ver, "QEMU 7.", 7), 0);
	/* -S: the PC is the ELF entry the loader set; the PSW its reset value 0xB80 (QEMU
	 * cpu_state_reset; TC1.6P manual, PSW reset value). */
	assert_int_equal(reg(&s, BK_REG_PC), s.elf.entry);
	assert_int_equal(reg(&s, BK_REG_XPSR), 0xB80u);
	/* CCNT is a stored CSFR in QEMU, not memory-mapped: the AURIX address 0xF881FC04 is unmapped. */
	assert_int_not_equal(backend_read_u32(&s.bk, 0xF8810000u + 0xFC04u, &w, &err), 0);
	qemu_rsp_close(&s);
}

/* Breakpoints at the marker sites halt in order; D3 holds the loop count at END. */
static void test_markers_in_order(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	uint32_t w;

	(void)state;
	open_session(&s);
	assert_int_equal(s.elf.markers.n, 3);
	for (size_t i = 0; i < s.elf.markers.n; i++)
		assert_int_equal(backend_set_break(&s.bk, s.elf.markers.v[i].addr, &err), 0);
	halt_at(&s, qemu_rsp_sym(&s, "loop_begin"));
	assert_int_equal(s.elf.markers.v[0].kind, MARKER_BEGIN);
	assert_int_equal(reg(&s, REG_D(3)), 0);
	assert_int_equal(reg(&s, REG_D(4)), loops);
	halt_at(&s, qemu_rsp_sym(&s, "loop_end"));
	assert_int_equal(s.elf.markers.v[1].kind, MARKER_END);
	assert_int_equal(reg(&s, REG_D(3)), loops); /* the loop ran LOOPS times */
	halt_at(&s, qemu_rsp_sym(&s, "done"));
	assert_int_equal(s.elf.markers.v[2].kind, MARKER_DONE);
	/* ST.W [A2]192, D3 put it into region 2's `count` (0 in the ELF file). */
	assert_int_equal(backend_read_u32(&s.bk, qemu_rsp_sym(&s, "pfp_records") + COUNT2, &w, &err), 0);
	assert_int_equal(w, loops);
	/* MFCR D5/D6, #CCNT before and after the loop: QEMU's CCNT never counts. */
	assert_int_equal(reg(&s, REG_D(5)), 0);
	assert_int_equal(reg(&s, REG_D(6)), 0);
	qemu_rsp_close(&s);
}

/* Writing a register goes through G (QEMU has no P) with the A slots repeating the D values: D and
 * the PC take the new values and the A registers keep theirs (without the repeat D3 would get A3's
 * value; with a G that wrote the A slots into A, A2 would get D2's and the program's ST.W [A2]204
 * would miss region 2). A reset puts the PC back to the entry and the program runs again. */
static void test_write_and_reset(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	uint32_t w;

	(void)state;
	open_session(&s);
	assert_int_equal(backend_set_break(&s.bk, qemu_rsp_sym(&s, "loop_end"), &err), 0);
	assert_int_equal(backend_set_break(&s.bk, qemu_rsp_sym(&s, "done"), &err), 0);
	halt_at(&s, qemu_rsp_sym(&s, "loop_end"));
	assert_int_equal(backend_write_reg(&s.bk, REG_D(7), 0x12345678u, &err), 0);
	assert_int_equal(reg(&s, REG_D(7)), 0x12345678u);
	assert_int_equal(reg(&s, REG_D(3)), loops);
	assert_int_equal(backend_write_reg(&s.bk, REG_D(3), 4321u, &err), 0);
	halt_at(&s, qemu_rsp_sym(&s, "done"));
	assert_int_equal(backend_read_u32(&s.bk, qemu_rsp_sym(&s, "pfp_records") + COUNT2, &w, &err), 0);
	assert_int_equal(w, 4321u);
	assert_int_equal(reg(&s, REG_D(7)), 0x12345678u);
	/* The PC by G too: back to loop_begin with D3 = 0, and the loop counts to LOOPS again. */
	assert_int_equal(backend_write_reg(&s.bk, REG_D(3), 0, &err), 0);
	assert_int_equal(backend_write_reg(&s.bk, BK_REG_PC, qemu_rsp_sym(&s, "loop_begin"), &err), 0);
	assert_int_equal(reg(&s, BK_REG_PC), qemu_rsp_sym(&s, "loop_begin"));
	halt_at(&s, qemu_rsp_sym(&s, "loop_end"));
	assert_int_equal(reg(&s, REG_D(3)), loops);
	/* system_reset leaves the PC at loop_end; the backend writes back the entry. */
	assert_int_equal(backend_reset(&s.bk, BK_RESET_HALT, &err), 0);
	assert_int_equal(reg(&s, BK_REG_PC), s.elf.entry);
	halt_at(&s, qemu_rsp_sym(&s, "loop_end"));
	assert_int_equal(reg(&s, REG_D(3)), loops);
	qemu_rsp_close(&s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_identity_and_layout),
	    cmocka_unit_test(test_markers_in_order),
	    cmocka_unit_test(test_write_and_reset),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: %s TRICORE.elf LOOPS\n", argv[0]);
		return 2;
	}
	tc_elf = argv[1];
	loops = (uint32_t)strtoul(argv[2], NULL, 0);
	proc_install_signal_handlers();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
