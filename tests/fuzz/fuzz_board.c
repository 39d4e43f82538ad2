/* libFuzzer target: the board-file parser (host/firmware/board.c, docs/boards.md): board_parse on an
 * arbitrary board.json, as bench run and the farm loader read it from a user's boards folder. */
#include <stddef.h>
#include <stdint.h>

#include "firmware/board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct board b;
	struct bench_error err;

	(void)board_parse((const char *)data, size, "/nonexistent/boards/fuzz", &b, &err);
	return 0;
}
