/* The .bench_markers decoder (markers.c) on hand-made record bytes laid out as docs/markers.md
 * specifies, and on a real ELF from the firmware project (argv[1], when given). */
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
#include "firmware/markers.h"

static const char *real_elf;

/* Appends one record: addr, kind, version, id, name (padded to 4). */
static size_t rec(uint8_t *b, size_t off, uint32_t addr, uint8_t kind, uint8_t ver, uint16_t id, const char *name)
{
	size_t nl = strlen(name), pad = (nl + 1 + 3) & ~(size_t)3;
	b[off + 0] = (uint8_t)addr, b[off + 1] = (uint8_t)(addr >> 8), b[off + 2] = (uint8_t)(addr >> 16),
	        b[off + 3] = (uint8_t)(addr >> 24);
	b[off + 4] = kind, b[off + 5] = ver, b[off + 6] = (uint8_t)id, b[off + 7] = (uint8_t)(id >> 8);
	b[off + 8] = (uint8_t)nl, b[off + 9] = b[off + 10] = b[off + 11] = 0;
	memset(b + off + 12, 0, pad);
	memcpy(b + off + 12, name, nl);
	return off + 12 + pad;
}

static void test_decode_good(void **state)
{
	uint8_t b[256];
	size_t n = 0;
	struct marker_set m;
	struct bench_error err;

	n = rec(b, n, 0x08000121, 2, 1, 1, "fut"); /* Thumb bit set: cleared on decode */
	n = rec(b, n, 0x08000100, 1, 1, 1, "fut");
	n = rec(b, n, 0x00000000, 1, 1, 9, "gone"); /* discarded by --gc-sections */
	n = rec(b, n, 0x08000080, 3, 1, 0, "");
	memset(b + n, 0, 8); /* trailing alignment padding */
	n += 8;
	assert_int_equal(markers_decode(b, n, &m, &err), 0);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.v[0].addr, 0x08000080); /* sorted by address */
	assert_int_equal(m.v[0].kind, MARKER_SYNC);
	assert_string_equal(m.v[0].name, "");
	assert_int_equal(m.v[1].addr, 0x08000100);
	assert_int_equal(m.v[2].addr, 0x08000120);
	assert_int_equal(m.v[2].kind, MARKER_END);
	assert_int_equal(m.v[2].id, 1);
	assert_string_equal(m.v[2].name, "fut");
	assert_ptr_equal(markers_at(&m, 0x08000121), &m.v[2]);
	assert_ptr_equal(markers_at(&m, 0x08000100), &m.v[1]);
	assert_null(markers_at(&m, 0x08000102));
	assert_null(markers_at(&m, 0));
	assert_ptr_equal(markers_first(&m, MARKER_BEGIN), &m.v[1]);
	assert_null(markers_first(&m, MARKER_DONE));
	assert_int_equal(markers_count(&m, MARKER_SYNC), 1);
	assert_string_equal(markers_kind_name(MARKER_CAL_END), "CAL_END");
	assert_string_equal(markers_kind_name(0xab), "?");
	markers_free(&m);
	assert_int_equal(m.n, 0);
}

static void test_decode_empty(void **state)
{
	struct marker_set m;
	struct bench_error err;
	assert_int_equal(markers_decode(NULL, 0, &m, &err), 0);
	assert_int_equal(m.n, 0);
}

static void expect_bad(const uint8_t *b, size_t n, const char *what)
{
	struct marker_set m;
	struct bench_error err;
	assert_int_equal(markers_decode(b, n, &m, &err), -(int)BENCH_E_NO_MARKERS);
	assert_int_equal(err.kind, BENCH_E_NO_MARKERS);
	assert_non_null(strstr(err.msg, what));
	assert_null(m.v);
}

static void test_decode_bad(void **state)
{
	uint8_t b[256];
	size_t n;

	n = rec(b, 0, 0x08000100, 1, 1, 1, "fut");
	expect_bad(b, n - 4, "name runs past");
	expect_bad(b, 10, "truncated record header");
	n = rec(b, 0, 0x08000100, 1, 2, 1, "fut");
	expect_bad(b, n, "version is not 1");
	n = rec(b, 0, 0x08000100, 0xab, 1, 1, "fut");
	expect_bad(b, n, "unknown marker kind");
	n = rec(b, 0, 0x08000100, 1, 1, 1, "fut");
	b[8] = 2; /* name_len disagrees with the NUL */
	expect_bad(b, n, "does not match its NUL");
	memset(b, 0, sizeof(b));
	n = rec(b, 0, 0x08000100, 1, 1, 1, "fut");
	b[8] = 200;
	expect_bad(b, n, "name runs past");
}

/* 60000 pairs from 60000 translation units, each numbering its first pair 1 (bench.h's __COUNTER__),
 * and one name, id 7, inlined at 40000 sites: 200000 records, written last address first. The pair
 * whose records come first keeps id 1, the others move to 8, 9, ... in address order (7 is taken,
 * the highest id + 1 starts), every END carries its BEGIN's id. Issue 26: pairing compared every
 * record with every other, minutes for this section; by sorting it is O(n log n), and this test
 * (60 s ctest timeout) does not end on the old code. */
#define MANY_PAIRS 60000u
#define MANY_HOT   40000u

static void test_pair_many(void **state)
{
	size_t cap = (2 * MANY_PAIRS + 2 * MANY_HOT) * 20, n = 0;
	uint8_t *b = malloc(cap);
	struct marker_set m;
	struct bench_error err;
	char name[16];

	(void)state;
	assert_non_null(b);
	for (size_t j = MANY_HOT; j-- > 0;) {
		n = rec(b, n, 0x09000000u + 8u * (uint32_t)j + 4u, MARKER_END, 1, 7, "hot");
		n = rec(b, n, 0x09000000u + 8u * (uint32_t)j, MARKER_BEGIN, 1, 7, "hot");
	}
	for (size_t k = MANY_PAIRS; k-- > 0;) {
		(void)snprintf(name, sizeof(name), "p%05zu", k);
		n = rec(b, n, 0x08000000u + 8u * (uint32_t)k + 4u, MARKER_END, 1, 1, name);
		n = rec(b, n, 0x08000000u + 8u * (uint32_t)k, MARKER_BEGIN, 1, 1, name);
	}
	assert_true(n <= cap);
	assert_int_equal(markers_decode(b, n, &m, &err), 0);
	assert_int_equal(m.n, 2 * MANY_PAIRS + 2 * MANY_HOT);
	for (size_t k = 0; k < MANY_PAIRS; k++) {
		(void)snprintf(name, sizeof(name), "p%05zu", k);
		assert_string_equal(m.v[2 * k].name, name);
		assert_int_equal(m.v[2 * k].kind, MARKER_BEGIN);
		assert_int_equal(m.v[2 * k].id, k == 0 ? 1 : 7 + k);
		assert_int_equal(m.v[2 * k + 1].id, m.v[2 * k].id);
	}
	for (size_t j = 2 * MANY_PAIRS; j < m.n; j++)
		assert_int_equal(m.v[j].id, 7);
	markers_free(&m);
	free(b);
}

/* A name with only a BEGIN among others: the message names the first such record by address. */
static void test_pair_unclosed(void **state)
{
	uint8_t b[256];
	size_t n = 0;
	struct marker_set m;
	struct bench_error err;

	(void)state;
	n = rec(b, n, 0x08000110, MARKER_END, 1, 1, "a");
	n = rec(b, n, 0x08000100, MARKER_BEGIN, 1, 1, "a");
	n = rec(b, n, 0x08000120, MARKER_BEGIN, 1, 2, "open");
	n = rec(b, n, 0x08000130, MARKER_END, 1, 2, "other");
	assert_int_equal(markers_decode(b, n, &m, &err), -(int)BENCH_E_NO_MARKERS);
	assert_string_equal(err.msg, "markers BEGIN open and END other share id 2 but not their name: give "
	                             "BENCH_BEGIN and BENCH_END of one stretch the same name");
}

static void test_real_elf(void **state)
{
	struct elf_file e;
	struct bench_error err;

	if (!real_elf)
		BENCH_SKIP("no firmware ELF given: configure with BENCH_FIRMWARE=ON");
	assert_int_equal(elf_open(real_elf, &e, &err), 0);
	/* fut-hardfp: calibration pair, SYNC, one BEGIN/END pair named fut, DONE. */
	assert_int_equal(markers_count(&e.markers, MARKER_CAL_BEGIN), 1);
	assert_int_equal(markers_count(&e.markers, MARKER_CAL_END), 1);
	assert_int_equal(markers_count(&e.markers, MARKER_SYNC), 1);
	assert_int_equal(markers_count(&e.markers, MARKER_DONE), 1);
	const struct marker *b = markers_first(&e.markers, MARKER_BEGIN), *end = markers_first(&e.markers, MARKER_END);
	assert_non_null(b);
	assert_non_null(end);
	assert_string_equal(b->name, "fut");
	assert_int_equal(b->id, end->id);
	assert_int_equal(end->addr - b->addr, 6); /* bkpt #1; bl fut; bkpt #2 */
	/* Every marker sits in flash, on a halfword boundary. */
	for (size_t i = 0; i < e.markers.n; i++) {
		assert_int_equal(e.markers.v[i].addr & 1u, 0);
		assert_true(e.markers.v[i].addr >= 0x08000000u && e.markers.v[i].addr < 0x08100000u);
	}
	elf_close(&e);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_decode_good),
	    cmocka_unit_test(test_decode_empty),
	    cmocka_unit_test(test_decode_bad),
	    cmocka_unit_test(test_real_elf),
	    cmocka_unit_test(test_pair_many),
	    cmocka_unit_test(test_pair_unclosed),
	};
	real_elf = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
