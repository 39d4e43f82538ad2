/* elf.c and sha256.c: FIPS 180-4 test vectors (FIPS 180-2 appendix B), the architecture check on
 * this host's own binary, a non-ELF, a missing file, and symbols of a real firmware (argv[1]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench_skip.h"

#include "firmware/elf.h"
#include "base/sha256.h"

static const char *real_elf;

static void hex(const uint8_t d[32], char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_sha256_vectors(void **state)
{
	uint8_t d[32];
	char h[65];
	struct sha256_ctx c;
	static char million[1000000];

	elf_sha256("abc", 3, d);
	hex(d, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	elf_sha256("", 0, d);
	hex(d, h);
	assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	elf_sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, d);
	hex(d, h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* One million 'a', fed in uneven pieces to cross block boundaries. */
	memset(million, 'a', sizeof(million));
	sha256_init(&c);
	for (size_t off = 0; off < sizeof(million);) {
		size_t n = off % 7 == 0 ? 63 : 65;
		if (n > sizeof(million) - off)
			n = sizeof(million) - off;
		sha256_update(&c, million + off, n);
		off += n;
	}
	sha256_final(&c, d);
	hex(d, h);
	assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_missing_and_not_elf(void **state)
{
	struct elf_file e;
	struct bench_error err;
	char path[] = "/tmp/bench-test-notelf-XXXXXX";
	int fd = mkstemp(path);

	assert_int_equal(elf_open("/nonexistent/fut.elf", &e, &err), -(int)BENCH_E_FILE);
	assert_string_equal(err.msg,
	                    "cannot open firmware /nonexistent/fut.elf: No such file or directory: check the path");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello, not an ELF\n", 18), 18);
	close(fd);
	assert_int_equal(elf_open(path, &e, &err), -(int)BENCH_E_ELF);
	assert_non_null(strstr(err.msg, "is not an ELF file"));
	unlink(path);
}

static void test_wrong_arch(void **state)
{
	struct elf_file e;
	struct bench_error err;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(elf_open(self, &e, &err), -(int)BENCH_E_ARCH);
	assert_non_null(strstr(err.msg, "is an ELF for another architecture (e_machine 62, 64-bit)"));
}

static void test_real_elf_symbols(void **state)
{
	struct elf_file e;
	struct bench_error err;
	char sh[65], out[128];
	uint32_t off = 0;

	if (!real_elf)
		BENCH_SKIP("no firmware ELF given: configure with BENCH_FIRMWARE=ON");
	assert_int_equal(elf_open(real_elf, &e, &err), 0);
	assert_int_equal(elf_sha256_file(real_elf, sh, &err), 0);
	assert_string_equal(sh, e.sha256);
	assert_int_equal(strlen(e.sha256), 64);
	const struct elf_symbol *fut = elf_symbol(&e, "fut"), *ctl = elf_symbol(&e, "bench_ctl");
	assert_non_null(fut);
	assert_true(fut->is_func);
	assert_int_equal(fut->addr & 1u, 0);
	assert_non_null(ctl);
	assert_false(ctl->is_func);
	assert_int_equal(ctl->size, 20);
	assert_true(elf_symbol(&e, "input") || elf_symbol(&e, "bench_arg_input"));
	assert_ptr_equal(elf_symbol_at(&e, fut->addr + 2, &off), fut);
	assert_int_equal(off, 2);
	elf_describe_addr(&e, fut->addr + 2, out, sizeof(out));
	assert_string_equal(out, "fut+0x2");
	elf_describe_addr(&e, fut->addr, out, sizeof(out));
	assert_string_equal(out, "fut");
	elf_describe_addr(&e, 0xfffffff0u, out, sizeof(out));
	assert_string_equal(out, "0xfffffff0");
	assert_int_equal(e.n_segments, 2); /* fut-hardfp.elf: code in flash, .data in RAM (loaded from flash) */
	assert_null(elf_symbol(&e, "no_such_symbol"));
	elf_close(&e);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sha256_vectors),
	    cmocka_unit_test(test_missing_and_not_elf),
	    cmocka_unit_test(test_wrong_arch),
	    cmocka_unit_test(test_real_elf_symbols),
	};
	real_elf = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
