/* Unit tests of host/session/probes.c: probe recognition on recorded USB descriptors (the files in fixtures/usb/,
 * each saying where its bytes came from and what is expected), malformed descriptors, the string
 * decoder, and the serial lookup's messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/probes.h"

#define USB BENCH_SOURCE_DIR "/tests/ci/fixtures/usb/"

struct fixture {
	uint8_t device[64], config[1024];
	uint8_t strings[PROBES_MAX_STRINGS][256];
	struct probe_desc d;
	char expect[512];
};

static size_t hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	unsigned v;
	int used;

	while (n < cap && sscanf(s, " %2x%n", &v, &used) == 1) {
		out[n++] = (uint8_t)v;
		s += used;
	}
	return n;
}

/* Reads a fixture: "bus N", "port P", "device HEX", "config HEX", "string I TEXT", "expect ...". */
static void load(const char *name, struct fixture *f)
{
	char path[512], line[2048];
	FILE *in;

	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), USB "%s", name);
	in = fopen(path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		unsigned idx;
		int used;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "bus ", 4)) {
			f->d.bus = (uint8_t)atoi(line + 4);
		} else if (!strncmp(line, "port ", 5)) {
			snprintf(f->d.port, sizeof(f->d.port), "%.*s", (int)sizeof(f->d.port) - 1, line + 5);
		} else if (!strncmp(line, "device ", 7)) {
			f->d.device = f->device;
			f->d.device_len = hex(line + 7, f->device, sizeof(f->device));
		} else if (!strncmp(line, "config ", 7)) {
			f->d.config = f->config;
			f->d.config_len = hex(line + 7, f->config, sizeof(f->config));
		} else if (sscanf(line, "string %u %n", &idx, &used) == 1 && idx < PROBES_MAX_STRINGS) {
			/* USB 2.0 section 9.6.7: bLength, bDescriptorType 3, then UTF-16LE code units. */
			const char *t = line + used;
			size_t n = strlen(t);
			uint8_t *s = f->strings[idx];
			s[0] = (uint8_t)(2 + 2 * n);
			s[1] = 3;
			for (size_t i = 0; i < n; i++) {
				s[2 + 2 * i] = (uint8_t)t[i];
				s[3 + 2 * i] = 0;
			}
			f->d.strings[idx] = s;
			f->d.string_len[idx] = s[0];
		} else if (!strncmp(line, "expect ", 7)) {
			snprintf(f->expect, sizeof(f->expect), "%.*s", (int)sizeof(f->expect) - 1, line + 7);
		}
	}
	assert_int_equal(fclose(in), 0);
}

static void check_fixture(const char *name)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct probe_info p;
	struct bench_error err;
	char got[1024];
	int rc;

	assert_non_null(f);
	load(name, f);
	rc = probes_parse(&f->d, &p, &err);
	if (!strcmp(f->expect, "none")) {
		assert_int_equal(rc, 0);
	} else {
		assert_int_equal(rc, 1);
		snprintf(got, sizeof(got), "kind=%s vid=%04x pid=%04x vendor=%s product=%s serial=%s bus=%u port=%s interface=%d",
			 p.kind, p.vid, p.pid, p.vendor, p.product, p.serial, p.bus, p.port, p.interface);
		assert_string_equal(got, f->expect);
	}
	free(f);
}

static void stlink_v2_1(void **state) { check_fixture("stlink-v2-1.txt"); }
static void stlink_v2(void **state) { check_fixture("stlink-v2.txt"); }
static void cmsis_dap_v1_hid(void **state) { check_fixture("cmsis-dap-v1-hid.txt"); }
static void daplink_prefers_v2_bulk(void **state) { check_fixture("daplink-v2-bulk.txt"); }
static void jlink_any_pid(void **state) { check_fixture("jlink.txt"); }
static void wch_link_is_not_a_probe(void **state) { check_fixture("not-a-probe.txt"); }

static void malformed_descriptors(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct probe_info p;
	struct bench_error err;

	assert_non_null(f);
	load("cmsis-dap-v1-hid.txt", f);
	/* An endpoint descriptor claiming 0x40 bytes runs past the configuration's end. */
	f->config[9 + 9 + 9] = 0x40;
	assert_int_equal(probes_parse(&f->d, &p, &err), -BENCH_E_PROTOCOL);
	assert_string_equal(err.msg, "USB configuration descriptor of 1209:c550 is malformed at byte 27");
	/* A zero bLength would loop forever if not refused. */
	f->config[27] = 0;
	assert_int_equal(probes_parse(&f->d, &p, &err), -BENCH_E_PROTOCOL);
	/* A short device descriptor. */
	f->d.device_len = 17;
	assert_int_equal(probes_parse(&f->d, &p, &err), -BENCH_E_PROTOCOL);
	assert_string_equal(err.msg, "USB device descriptor is malformed (17 bytes)");
	free(f);
}

static void string_decoding(void **state)
{
	/* "5µA" with U+00B5 (two UTF-8 bytes) and U+20AC (three). */
	const uint8_t d[] = {10, 3, '5', 0, 0xb5, 0, 'A', 0, 0xac, 0x20};
	const uint8_t bad[] = {10, 2, 'x', 0};
	char out[32];

	assert_int_equal(probes_decode_string(d, sizeof(d), out, sizeof(out)), 0);
	assert_string_equal(out, "5\xc2\xb5" "A\xe2\x82\xac");
	assert_int_equal(probes_decode_string(bad, sizeof(bad), out, sizeof(out)), -1);
	/* bLength beyond the buffer. */
	assert_int_equal(probes_decode_string(d, 6, out, sizeof(out)), -1);
}

static void serial_lookup(void **state)
{
	struct probe_info items[2] = {{.kind = "ST-LINK/V2-1", .serial = "066DFF535550755187191037"},
				      {.kind = "J-Link", .serial = "000050123456"}};
	struct probe_list l = {items, 2}, none = {NULL, 0};
	const struct probe_info *p = NULL;
	struct bench_error err;

	assert_int_equal(probes_find_serial(&l, "000050123456", &p, &err), 0);
	assert_ptr_equal(p, &items[1]);
	assert_int_equal(probes_find_serial(&l, "ABC", &p, &err), -BENCH_E_USAGE);
	assert_string_equal(err.msg, "no probe with serial 'ABC': attached are 066DFF535550755187191037 (ST-LINK/V2-1), "
				     "000050123456 (J-Link)");
	assert_int_equal(probes_find_serial(&none, "ABC", &p, &err), -BENCH_E_CONNECT);
	assert_string_equal(err.msg, "no probe with serial 'ABC': no debug probe is attached (`bench probes` lists them)");
}

static void select_needs_a_serial_among_several(void **state)
{
	struct probe_info items[2] = {{.kind = "ST-LINK/V2-1", .serial = "066DFF535550755187191037", .bus = 3, .port = "2"},
				      {.kind = "ST-LINK/V3", .serial = "002F00243438510B34313939", .bus = 3, .port = "4.1"}};
	struct probe_list two = {items, 2}, one = {items, 1}, none = {NULL, 0};
	struct bench_error err;

	assert_int_equal(probes_select(&two, NULL, &err), -BENCH_E_USAGE);
	assert_string_equal(err.msg, "2 probes attached, pass --probe SERIAL with one of: 066DFF535550755187191037 "
				     "(ST-LINK/V2-1, bus 3 port 2), 002F00243438510B34313939 (ST-LINK/V3, bus 3 port 4.1)");
	assert_int_equal(probes_select(&two, "002F00243438510B34313939", &err), 0);
	assert_int_equal(probes_select(&one, NULL, &err), 0);
	assert_int_equal(probes_select(&none, NULL, &err), 0); /* the session's probes_require says it */
	assert_int_equal(probes_select(&none, "X", &err), -BENCH_E_CONNECT);
	assert_string_equal(err.msg, "no probe with serial 'X': no debug probe is attached (`bench probes` lists them)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stlink_v2_1),       cmocka_unit_test(stlink_v2),
		cmocka_unit_test(cmsis_dap_v1_hid),  cmocka_unit_test(daplink_prefers_v2_bulk),
		cmocka_unit_test(jlink_any_pid),     cmocka_unit_test(wch_link_is_not_a_probe),
		cmocka_unit_test(malformed_descriptors), cmocka_unit_test(string_decoding),
		cmocka_unit_test(serial_lookup),        cmocka_unit_test(select_needs_a_serial_among_several),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
