/* libFuzzer target: the .bench_markers section decoder (host/firmware/markers.c, docs/markers.md records).
 * The input is the raw section; every decoded marker is looked up again by address and kind so a
 * decoder that stores garbage is read back under ASan. */
#include <stddef.h>
#include <stdint.h>

#include "firmware/markers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct marker_set m = {0};
	struct bench_error err;

	if (markers_decode(data, size, &m, &err) == 0) {
		for (unsigned k = 0; k < 16; k++) {
			const struct marker *first = markers_first(&m, (enum marker_kind)k);
			(void)markers_count(&m, (enum marker_kind)k);
			(void)markers_kind_name(k);
			if (first)
				(void)markers_at(&m, first->addr + 2u);
		}
		for (size_t i = 0; i < m.n; i++)
			if (markers_at(&m, m.v[i].addr) == NULL)
				__builtin_trap(); /* a decoded marker must be found at its own address */
	}
	markers_free(&m);
	return 0;
}
