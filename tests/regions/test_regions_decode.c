/* Unit tests of host/firmware/regions.c: the table decoder and the consistent read, fed byte buffers laid out
 * as docs/regions.md "Table layout" describes (what target/pfp writes on a 32-bit little-endian core). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/elf.h"
#include "firmware/regions.h"
#include "results/results.h"

#define RAM     0x20000000u
#define FLASH   0x08000000u
#define TABLE   (RAM + 0x100u)
#define RECORDS (RAM + 0x200u)
#define NAMES   (FLASH + 0x40u)

struct fake_mem {
	uint8_t ram[0x1000], flash[0x400];
	unsigned table_reads;  /* header reads so far */
	unsigned bump_until;   /* while table_reads <= this, the "target" changes seq after each header read */
	uint32_t unreadable;   /* an address whose reads fail (0: none) */
	int bump_seq_reads;    /* the "target" also moves on after every read of seq alone */
	unsigned record_reads; /* single-record reads (the fallback) */
};

static uint8_t *at(struct fake_mem *m, uint32_t addr, size_t len)
{
	if (addr >= RAM && addr + len <= RAM + sizeof(m->ram))
		return m->ram + (addr - RAM);
	if (addr >= FLASH && addr + len <= FLASH + sizeof(m->flash))
		return m->flash + (addr - FLASH);
	return NULL;
}

static void put32(struct fake_mem *m, uint32_t addr, uint32_t v)
{
	uint8_t *p = at(m, addr, 4);
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put16(struct fake_mem *m, uint32_t addr, uint16_t v)
{
	uint8_t *p = at(m, addr, 2);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static int fake_read(void *ctx, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	struct fake_mem *m = ctx;
	uint8_t *p = at(m, addr, len);
	if (!p || (m->unreadable && addr == m->unreadable))
		return bench_fail(err, BENCH_E_TARGET, "fake: cannot read 0x%08x", addr);
	memcpy(buf, p, len);
	if (len == 96)
		m->record_reads++;
	if (addr == TABLE + 12 && len == 4 && m->bump_seq_reads) {
		uint32_t seq = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
		put32(m, TABLE + 12, seq + 2);
	}
	if (addr == TABLE && len >= 64 && ++m->table_reads <= m->bump_until) {
		/* the "target" moves on right after our header read: seq + 1 (odd: writing, even: done) */
		uint32_t seq = p[12] | p[13] << 8 | p[14] << 16 | (uint32_t)p[15] << 24;
		put32(m, TABLE + 12, seq + 1);
	}
	return 0;
}

static const char *const names[] = {"pfp.overhead", "pfp.nested", "outer", "inner"};

static void build(struct fake_mem *m)
{
	memset(m, 0, sizeof(*m));
	put32(m, TABLE + 0, 0x54504650u);
	put16(m, TABLE + 4, 1);
	put16(m, TABLE + 6, 64);
	put16(m, TABLE + 8, 96);
	put16(m, TABLE + 10, 4);
	put32(m, TABLE + 12, 10); /* seq */
	put32(m, TABLE + 16, 1);  /* DWT_CYCCNT */
	put32(m, TABLE + 20, 168000000u);
	put32(m, TABLE + 24, 9); /* overhead */
	put32(m, TABLE + 28, 11);
	put32(m, TABLE + 32, 30);
	put32(m, TABLE + 36, 0x5); /* calibrated, events */
	put32(m, TABLE + 40, 2);   /* two events */
	put16(m, TABLE + 44, 2);   /* PAPI_TOT_INS */
	put16(m, TABLE + 46, 19);  /* DWT_CPICNT */
	put32(m, TABLE + 52, NAMES);
	put32(m, TABLE + 56, RECORDS);
	uint32_t s = FLASH + 0x100u;
	for (uint32_t i = 0; i < 4; i++) {
		put32(m, NAMES + 4 * i, s);
		memcpy(at(m, s, strlen(names[i]) + 1), names[i], strlen(names[i]) + 1);
		s += 32;
	}
	/* region 2 "outer": 10 samples of 4200 cycles */
	uint32_t r = RECORDS + 2 * 96;
	put32(m, r + 0, 10);
	put32(m, r + 4, 1);
	put32(m, r + 12, 4100);
	put32(m, r + 16, 42000);
	put32(m, r + 20, 0);
	put32(m, r + 24, 4100);
	put32(m, r + 28, 4300);
	float ema = 4150.5f;
	uint32_t u;
	memcpy(&u, &ema, 4);
	put32(m, r + 32, u);
	put32(m, r + 48, 3000); /* events[0] low word */
	put32(m, r + 52, 1);    /* events[0] high word: 2^32 + 3000 */
	put32(m, r + 56, 77);
	/* region 3 "inner": disabled by Begin-Begin-End */
	r = RECORDS + 3 * 96;
	put32(m, r + 8, 0x1);
	put32(m, r + 24, 0xffffffffu);
}

static struct regions_source source(struct fake_mem *m)
{
	struct regions_source s = {fake_read, m, fake_read, m, 8};
	return s;
}

static void test_decode_good_table(void **state)
{
	(void)state;
	static struct fake_mem m;
	struct bench_report rep;
	struct regions_header h;
	struct bench_error err;
	build(&m);
	results_init(&rep);
	struct regions_source src = source(&m);
	assert_int_equal(regions_fetch(&src, TABLE, &rep, &h, &err), 0);
	assert_int_equal(h.count, 4);
	assert_int_equal(h.overhead, 9);
	assert_int_equal(h.nest_overhead, 11);
	assert_int_equal(h.isr_overhead, 30);
	assert_int_equal(h.core_clock_hz, 168000000u);
	assert_int_equal(rep.n_regions, 4);
	const struct bench_region_result *o = &rep.regions[2];
	assert_string_equal(o->name, "outer");
	assert_int_equal(o->id, 2);
	assert_int_equal(o->count, 10);
	assert_int_equal(o->total, 42000);
	assert_int_equal(o->min, 4100);
	assert_int_equal(o->max, 4300);
	assert_int_equal(o->last, 4100);
	assert_float_equal(o->mean, 4200.0, 0.0);
	assert_float_equal(o->ema, 4150.5, 0.0);
	assert_true(o->enabled);
	assert_int_equal(o->n_events, 2);
	assert_string_equal(o->events[0].name, "PAPI_TOT_INS");
	assert_int_equal(o->events[0].value, 4294967296ull + 3000);
	assert_string_equal(o->events[1].name, "DWT_CPICNT");
	assert_int_equal(o->events[1].value, 77);
	const struct bench_region_result *in = &rep.regions[3];
	assert_string_equal(in->name, "inner");
	assert_false(in->enabled);
	assert_int_equal(in->count, 0);
	assert_int_equal(in->min, 0); /* no sample: min reported 0, not 0xffffffff */
	assert_int_equal(in->error_flags, 1);
	assert_string_equal(in->error, "disabled: Begin twice without End (Begin-Begin-End)");
	assert_string_equal(rep.regions[0].name, "pfp.overhead");
	/* A second read replaces the first. */
	assert_int_equal(regions_fetch(&src, TABLE, &rep, &h, &err), 0);
	assert_int_equal(rep.n_regions, 4);
	results_free(&rep);
}

static void expect_header_error(struct fake_mem *m, const char *needle)
{
	struct bench_report rep;
	struct bench_error err;
	results_init(&rep);
	struct regions_source src = source(m);
	bench_error_clear(&err);
	assert_true(regions_fetch(&src, TABLE, &rep, NULL, &err) < 0);
	assert_int_equal(err.kind, BENCH_E_TARGET);
	if (!strstr(err.msg, needle))
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, needle);
	assert_int_equal(rep.n_regions, 0);
	results_free(&rep);
}

static void test_bad_magic(void **state)
{
	(void)state;
	static struct fake_mem m;
	build(&m);
	put32(&m, TABLE, 0xdeadbeefu);
	expect_header_error(&m, "magic 0xdeadbeef, expected 0x54504650");
}

static void test_bad_version(void **state)
{
	(void)state;
	static struct fake_mem m;
	build(&m);
	put16(&m, TABLE + 4, 2);
	expect_header_error(&m, "version 2, this bench reads version 1");
}

static void test_count_out_of_range(void **state)
{
	(void)state;
	static struct fake_mem m;
	build(&m);
	put16(&m, TABLE + 10, 0);
	expect_header_error(&m, "0 regions, out of range 1..1024");
	put16(&m, TABLE + 10, 5000);
	expect_header_error(&m, "5000 regions, out of range 1..1024");
}

static void test_record_size_too_small(void **state)
{
	(void)state;
	static struct fake_mem m;
	build(&m);
	put16(&m, TABLE + 8, 48);
	expect_header_error(&m, "record 48 bytes");
}

static void test_records_beyond_memory(void **state)
{
	(void)state;
	static struct fake_mem m;
	build(&m);
	put32(&m, TABLE + 56, 0xffffff00u);
	expect_header_error(&m, "do not fit the address space");
}

static void test_torn_while_running(void **state)
{
	(void)state;
	static struct fake_mem m;
	build(&m);
	m.bump_until = 1000; /* the target updates between every pair of reads */
	m.bump_seq_reads = 1;
	expect_header_error(&m, "region table torn: its sequence counter changed during each of 8 reads while the "
	                        "target ran (whole table, then record by record)");
	assert_int_equal(m.table_reads, 8);
	assert_int_equal(m.record_reads, 8); /* region 0 tried 8 times, then given up */
}

static void test_torn_whole_table_read_by_record(void **state)
{
	(void)state;
	static struct fake_mem m;
	struct bench_report rep;
	struct bench_error err;
	build(&m);
	m.bump_until = 1000; /* every whole-table read is torn; single records are not */
	results_init(&rep);
	struct regions_source src = source(&m);
	assert_int_equal(regions_fetch(&src, TABLE, &rep, NULL, &err), 0);
	assert_int_equal(m.table_reads, 8);
	assert_int_equal(m.record_reads, 4);
	assert_int_equal(rep.n_regions, 4);
	assert_string_equal(rep.regions[2].name, "outer");
	assert_int_equal(rep.regions[2].total, 42000);
	results_free(&rep);
}

static void test_torn_then_consistent(void **state)
{
	(void)state;
	static struct fake_mem m;
	struct bench_report rep;
	struct bench_error err;
	build(&m);
	put32(&m, TABLE + 12, 11); /* odd: the target is writing */
	m.bump_until = 3;          /* 11 (odd), 12 (changed before the check), 13 (odd), then 14 stays */
	results_init(&rep);
	struct regions_source src = source(&m);
	assert_int_equal(regions_fetch(&src, TABLE, &rep, NULL, &err), 0);
	assert_int_equal(m.table_reads, 4);
	assert_int_equal(rep.n_regions, 4);
	results_free(&rep);
}

static void test_unreadable_name_keeps_others(void **state)
{
	(void)state;
	static struct fake_mem m;
	struct bench_report rep;
	struct bench_error err;
	build(&m);
	m.unreadable = NAMES + 4 * 3;
	results_init(&rep);
	struct regions_source src = source(&m);
	assert_int_equal(regions_fetch(&src, TABLE, &rep, NULL, &err), 0);
	assert_string_equal(rep.regions[3].name, "region3");
	assert_non_null(strstr(rep.regions[3].error, "name unreadable"));
	assert_string_equal(rep.regions[2].name, "outer");
	assert_string_equal(rep.regions[2].error, "");
	results_free(&rep);
}

static void test_read_without_table_adds_nothing(void **state)
{
	(void)state;
	struct elf_file elf;
	struct bench_report rep;
	struct bench_error err;
	memset(&elf, 0, sizeof(elf));
	results_init(&rep);
	assert_int_equal(regions_read(NULL, &elf, &rep, &err), 0);
	assert_int_equal(rep.n_regions, 0);
	assert_int_equal(regions_read_elf(&elf, &rep, NULL, &err), -BENCH_E_NO_MARKERS);
	assert_non_null(strstr(err.msg, "symbol `bench_regions` not in"));
	results_free(&rep);
}

static void test_header_too_short(void **state)
{
	(void)state;
	uint8_t buf[32] = {0};
	struct regions_header h;
	struct bench_error err;
	assert_int_equal(regions_decode_header(buf, sizeof(buf), &h, &err), -BENCH_E_TARGET);
	assert_string_equal(err.msg, "region table: 32 bytes, a header needs 64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_decode_good_table),
	    cmocka_unit_test(test_bad_magic),
	    cmocka_unit_test(test_bad_version),
	    cmocka_unit_test(test_count_out_of_range),
	    cmocka_unit_test(test_record_size_too_small),
	    cmocka_unit_test(test_records_beyond_memory),
	    cmocka_unit_test(test_torn_while_running),
	    cmocka_unit_test(test_torn_whole_table_read_by_record),
	    cmocka_unit_test(test_torn_then_consistent),
	    cmocka_unit_test(test_unreadable_name_keeps_others),
	    cmocka_unit_test(test_read_without_table_adds_nothing),
	    cmocka_unit_test(test_header_too_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
