/* libFuzzer target: the RAM-table decoder (host/firmware/regions.c, docs/regions.md) as bench run uses it at
 * the DONE marker: regions_fetch reads the header and records through a memory callback, here
 * backed by the input mapped at TABLE_ADDR (table, records and the names' pointers and strings
 * all in it, as in the target's RAM and flash), and appends one result per region. Both
 * decode entry points are also fed the raw input directly. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "firmware/regions.h"
#include "results/results.h"

#define TABLE_ADDR 0x20000000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct image {
	const uint8_t *data;
	size_t size;
};

/* Memory outside the input reads as a bus error, as a read of an unmapped address does. */
static int read_image(void *ctx, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	const struct image *im = ctx;
	uint64_t off = (uint64_t)addr - TABLE_ADDR;

	if (addr < TABLE_ADDR || off > im->size || len > im->size - off)
		return bench_fail(err, BENCH_E_TARGET, "fuzz: read of %zu bytes at 0x%08x outside the image", len,
		                  (unsigned)addr);
	memcpy(buf, im->data + off, len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image im = {data, size};
	struct regions_source src = {read_image, &im, read_image, &im, 2};
	struct regions_header hdr;
	struct bench_report rep;
	struct bench_error err;

	if (regions_decode_header(data, size, &hdr, &err) == 0 && size > PFP_HEADER_SIZE) {
		struct bench_region_result r;
		for (uint32_t i = 0; i < hdr.count && i < 4; i++) {
			memset(&r, 0, sizeof(r));
			(void)regions_decode_record(&hdr, data + PFP_HEADER_SIZE, size - PFP_HEADER_SIZE, i, &r,
			                            &err);
		}
	}
	results_init(&rep);
	(void)regions_fetch(&src, TABLE_ADDR, &rep, &hdr, &err);
	results_free(&rep);
	return 0;
}
