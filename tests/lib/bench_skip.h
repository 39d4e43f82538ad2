/* A cmocka test that cannot run because something was not built (the firmware project's ELFs,
 * BENCH_FIRMWARE=OFF) skips locally but fails in CI: cmocka's skip() exits 0, which ctest counts as
 * a pass, so a suite that built nothing would be green (issue 10). Strict when CI=true (GitHub,
 * GitLab and most CI systems set it) or BENCH_STRICT=1 in the environment, or when built with the CMake
 * option BENCH_STRICT (BENCH_STRICT_BUILD, tests/CMakeLists.txt). Include after <cmocka.h>. */
#ifndef TESTS_LIB_BENCH_SKIP_H
#define TESTS_LIB_BENCH_SKIP_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_STRICT_BUILD
#define BENCH_STRICT_BUILD 0
#endif

static inline bool bench_skip_strict(void)
{
	const char *ci = getenv("CI"), *strict = getenv("BENCH_STRICT");

	return BENCH_STRICT_BUILD || (ci && !strcmp(ci, "true")) || (strict && !strcmp(strict, "1"));
}

/* WHY names what is missing and how to get it, e.g. "no firmware ELF: configure with BENCH_FIRMWARE=ON". */
#define BENCH_SKIP(why)                                                                                                \
	do {                                                                                                           \
		if (bench_skip_strict())                                                                               \
			fail_msg("%s (a skip fails under CI=true or BENCH_STRICT=1)", (why));                          \
		skip();                                                                                                \
	} while (0)

#endif /* TESTS_LIB_BENCH_SKIP_H */
