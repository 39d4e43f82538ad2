/* The RSP backend against a real peer: qemu-system-arm's gdbstub (mps2-an386), started through
 * qemu_proc. Breakpoint markers planted at the .bench_markers sites halt in order at the exact
 * BKPT addresses; --start/--stop style breakpoints on a marker-less firmware; memory through
 * QEMU's hex M packets (it has no X) with bytes that need escaping; registers, monitor, load.
 * Usage: test_rsp_qemu QEMU_NOP.elf QEMU_NOMARKERS.elf [EXAMPLES_DIR of qemu-mps2-an386] */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench_skip.h"

#include "firmware/elf.h"
#include "session/proc.h"
#include "session/qemu_proc.h"
#include "transport/gdb_rsp.h"

#include "qemu_rsp_session.h"

static const char *nop_elf, *nomarkers_elf, *examples_dir;

static void open_session(struct qemu_rsp_session *s, const char *elf)
{
	struct qemu_opts o = {.machine = "mps2-an386", .elf = elf};

	qemu_rsp_open(s, &o, NULL);
}

static void test_caps_and_identity(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	char ver[128], out[256];
	uint32_t pc;

	(void)state;
	open_session(&s, nop_elf);
	/* QEMU's gdbstub: no halt on a guest BKPT, no DWT; hardware breakpoints, monitor, reset */
	assert_int_equal(s.bk.caps, BK_CAP_HW_BREAK | BK_CAP_MONITOR | BK_CAP_RESET);
	assert_int_equal(backend_version(&s.bk, ver, sizeof(ver), &err), 0);
	assert_int_equal(strncmp(ver, "QEMU 7.", 7), 0);
	assert_int_equal(backend_monitor(&s.bk, "info version", out, sizeof(out), &err), 0);
	assert_int_equal(strncmp(out, "7.", 2), 0);
	/* -S: halted at the reset vector, whose PC the vector table gives */
	assert_int_equal(backend_read_reg(&s.bk, BK_REG_PC, &pc, &err), 0);
	assert_int_equal(pc, qemu_rsp_sym(&s, "reset_handler"));
	qemu_rsp_close(&s);
}

static void test_breakpoint_markers(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	struct backend_halt_info h;
	const struct marker_set *m;
	static const enum marker_kind order[] = {MARKER_CAL_BEGIN, MARKER_CAL_END, MARKER_BEGIN, MARKER_END,
	                                         MARKER_BEGIN,     MARKER_END,     MARKER_DONE};

	(void)state;
	open_session(&s, nop_elf);
	m = &s.elf.markers;
	assert_int_equal(m->n, 7);
	assert_int_equal(backend_reset(&s.bk, BK_RESET_HALT, &err), 0);
	for (size_t i = 0; i < m->n; i++)
		assert_int_equal(backend_set_break(&s.bk, m->v[i].addr, &err), 0);
	/* markers are sorted by address and the firmware runs straight through them */
	for (size_t i = 0; i < m->n; i++) {
		assert_int_equal(backend_resume(&s.bk, &err), 0);
		assert_int_equal(backend_wait_halt(&s.bk, 2000, &h, &err), 0);
		assert_int_equal(h.reason, BK_HALT_BREAKPOINT);
		assert_int_equal(h.pc, m->v[i].addr);
		assert_int_equal(m->v[i].kind, order[i]);
	}
	/* BEGIN(nop10) to END(nop10): 2 bytes of BKPT + 10 NOPs of 2 bytes */
	assert_int_equal(m->v[3].addr - m->v[2].addr, 22);
	assert_int_equal(m->v[5].addr - m->v[4].addr, 202);
	/* past DONE the firmware spins: a timeout, then an interrupt (0x03) stops it there */
	assert_int_equal(backend_resume(&s.bk, &err), 0);
	assert_int_equal(backend_wait_halt(&s.bk, 200, &h, &err), -BENCH_E_TIMEOUT);
	assert_non_null(strstr(err.msg, "target did not halt within 200 ms"));
	assert_int_equal(backend_halt(&s.bk, &err), 0);
	assert_int_equal(backend_wait_halt(&s.bk, 200, &h, &err), 0);
	assert_int_equal(h.pc, qemu_rsp_sym(&s, "halt_loop"));
	qemu_rsp_close(&s);
}

/* Without host breakpoints QEMU does not stop at a guest BKPT: the guest's fault handler steps
 * over every marker and the firmware reaches its final loop. Why BK_CAP_HALT_ON_BKPT is clear. */
static void test_bkpt_is_a_guest_fault(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	struct backend_halt_info h;
	uint32_t pc;

	(void)state;
	open_session(&s, nop_elf);
	assert_int_equal(backend_resume(&s.bk, &err), 0);
	assert_int_equal(backend_wait_halt(&s.bk, 300, &h, &err), -BENCH_E_TIMEOUT);
	assert_int_equal(backend_halt(&s.bk, &err), 0);
	assert_int_equal(backend_read_reg(&s.bk, BK_REG_PC, &pc, &err), 0);
	assert_int_equal(pc, qemu_rsp_sym(&s, "halt_loop"));
	qemu_rsp_close(&s);
}

static void test_start_stop_symbols(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	struct backend_halt_info h;
	uint32_t v;

	(void)state;
	open_session(&s, nomarkers_elf);
	assert_int_equal(s.elf.markers.n, 0);
	assert_int_equal(backend_set_break(&s.bk, qemu_rsp_sym(&s, "start_trigger"), &err), 0);
	assert_int_equal(backend_set_break(&s.bk, qemu_rsp_sym(&s, "stop_trigger"), &err), 0);
	assert_int_equal(backend_resume(&s.bk, &err), 0);
	assert_int_equal(backend_wait_halt(&s.bk, 2000, &h, &err), 0);
	assert_int_equal(h.reason, BK_HALT_BREAKPOINT);
	assert_int_equal(h.pc, qemu_rsp_sym(&s, "start_trigger"));
	assert_int_equal(backend_read_u32(&s.bk, qemu_rsp_sym(&s, "result"), &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(backend_resume(&s.bk, &err), 0);
	assert_int_equal(backend_wait_halt(&s.bk, 2000, &h, &err), 0);
	assert_int_equal(h.pc, qemu_rsp_sym(&s, "stop_trigger"));
	/* the work between the triggers ran: the CRC-32 check value of "123456789" */
	assert_int_equal(backend_read_u32(&s.bk, qemu_rsp_sym(&s, "result"), &v, &err), 0);
	assert_int_equal(v, 0xcbf43926u);
	assert_int_equal(backend_read_u32(&s.bk, qemu_rsp_sym(&s, "trigger_count"), &v, &err), 0);
	assert_int_equal(v, 1);
	assert_int_equal(backend_clear_break(&s.bk, qemu_rsp_sym(&s, "stop_trigger"), &err), 0);
	qemu_rsp_close(&s);
}

static void test_memory_registers_load(void **state)
{
	struct qemu_rsp_session s;
	struct bench_error err;
	uint8_t out[3000], back[3000];
	uint32_t v;

	(void)state;
	open_session(&s, nop_elf);
	/* bytes that need escaping in binary packets, over more than one packet (PacketSize 0x1000) */
	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = "#$}*\x03\x00"[i % 6] ^ (uint8_t)(i >> 3);
	assert_int_equal(backend_write_mem(&s.bk, 0x20001001u, out, sizeof(out), &err), 0);
	assert_int_equal(backend_read_mem(&s.bk, 0x20001001u, back, sizeof(back), &err), 0);
	assert_memory_equal(out, back, sizeof(out));
	for (int r = 0; r <= 12; r++)
		assert_int_equal(backend_write_reg(&s.bk, (enum backend_reg)r, 0xa5000000u + (uint32_t)r, &err), 0);
	for (int r = 0; r <= 12; r++) {
		assert_int_equal(backend_read_reg(&s.bk, (enum backend_reg)r, &v, &err), 0);
		assert_int_equal(v, 0xa5000000u + (uint32_t)r);
	}
	assert_int_equal(backend_read_reg(&s.bk, BK_REG_SP, &v, &err), 0);
	assert_int_equal(v, 0x20400000u);
	/* load through RSP (hex M writes) and verify by reading back */
	assert_int_equal(backend_load(&s.bk, nop_elf, &err), 0);
	assert_int_equal(backend_load(&s.bk, "/nonexistent.elf", &err), -BENCH_E_FILE);
	/* QEMU has no DWT: CYCCNT reads 0, which is why the capability is clear */
	assert_int_equal(backend_read_u32(&s.bk, 0xe0001004u, &v, &err), 0);
	assert_int_equal(v, 0);
	qemu_rsp_close(&s);
}

/* The project's examples built for qemu-mps2-an386 (target/ runtime, bench_firmware()) under QEMU
 * with breakpoint markers, driven as `bench run` drives them: calibration pair, SYNC (write
 * bench_ctl.iteration, stop after two rounds), each BEGIN followed by its END, then DONE. */
static void run_example(const char *name, int want_pairs)
{
	char path[1024];
	struct qemu_rsp_session s;
	struct bench_error err;
	struct backend_halt_info h;
	const struct marker *open_pair = NULL;
	uint32_t ctl;
	unsigned syncs = 0, pairs = 0, cal = 0, iteration = 0;
	bool done = false;

	snprintf(path, sizeof(path), "%s/%s", examples_dir, name);
	open_session(&s, path);
	ctl = qemu_rsp_sym(&s, "bench_ctl");
	for (size_t i = 0; i < s.elf.markers.n; i++)
		assert_int_equal(backend_set_break(&s.bk, s.elf.markers.v[i].addr, &err), 0);
	for (int halts = 0; !done && halts < 200; halts++) {
		const struct marker *m;

		assert_int_equal(backend_resume(&s.bk, &err), 0);
		if (backend_wait_halt(&s.bk, 2000, &h, &err) < 0)
			fail_msg("%s: %s", name, err.msg);
		m = markers_at(&s.elf.markers, h.pc);
		if (!m)
			fail_msg("%s: halted at 0x%08x, not at a marker", name, (unsigned)h.pc);
		switch (m->kind) {
		case MARKER_CAL_BEGIN:
		case MARKER_CAL_END:
			cal++;
			break;
		case MARKER_SYNC:
			assert_null(open_pair);
			syncs++;
			/* bench_ctl: magic, version, stop, iteration (docs/markers.md) */
			assert_int_equal(backend_read_u32(&s.bk, ctl, &h.pc, &err), 0);
			assert_int_equal(h.pc, 0x42434854u);
			assert_int_equal(backend_write_u32(&s.bk, ctl + 12, iteration++, &err), 0);
			assert_int_equal(backend_write_u32(&s.bk, ctl + 8, syncs > 2, &err), 0);
			break;
		case MARKER_BEGIN:
			assert_null(open_pair);
			open_pair = m;
			break;
		case MARKER_END:
			assert_non_null(open_pair);
			assert_int_equal(open_pair->id, m->id);
			open_pair = NULL;
			pairs++;
			break;
		case MARKER_DONE:
			done = true;
			break;
		}
	}
	assert_true(done);
	assert_int_equal(cal, 2);
	assert_int_equal(syncs, 3);
	assert_int_equal(pairs, want_pairs); /* each stretch once per round, two rounds */
	assert_int_equal(pairs % 2, 0);      /* the same pairs in both rounds */
	qemu_rsp_close(&s);
}

static void test_examples_with_breakpoint_markers(void **state)
{
	(void)state;
	if (!examples_dir)
		BENCH_SKIP("no examples folder given: configure with BENCH_FIRMWARE=ON");
	run_example("nops.elf", 8); /* four NOP sleds */
	run_example("fut-softfp.elf", 2);
	run_example("fut-hardfp.elf", 2);
}

static void test_qemu_missing_firmware(void **state)
{
	struct qemu_opts o = {.machine = "mps2-an386", .elf = "/nonexistent/fw.elf"};
	struct bench_error err;
	struct proc *p = NULL;
	char hp[64];

	(void)state;
	assert_int_equal(qemu_start_opts(&o, hp, sizeof(hp), &p, &err), -BENCH_E_FILE);
	assert_null(p);
	assert_string_equal(err.msg, "cannot read firmware /nonexistent/fw.elf: check the path");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_caps_and_identity),
	    cmocka_unit_test(test_breakpoint_markers),
	    cmocka_unit_test(test_bkpt_is_a_guest_fault),
	    cmocka_unit_test(test_start_stop_symbols),
	    cmocka_unit_test(test_memory_registers_load),
	    cmocka_unit_test(test_qemu_missing_firmware),
	    cmocka_unit_test(test_examples_with_breakpoint_markers),
	};

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s QEMU_NOP.elf QEMU_NOMARKERS.elf [EXAMPLES_DIR]\n", argv[0]);
		return 2;
	}
	examples_dir = argc == 4 ? argv[3] : NULL;
	nop_elf = argv[1];
	nomarkers_elf = argv[2];
	proc_install_signal_handlers();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
