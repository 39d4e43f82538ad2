/* SHA-256 (FIPS 180-4), for the firmware's fingerprint in the report's context. None of the
 * libraries the project already links (cJSON, libelf, libusb, unicorn, capstone) offers it, so
 * this small implementation is tested against known vectors (tests/host/test_elf.c). */
#ifndef HOST_BASE_SHA256_H
#define HOST_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256_ctx {
	uint32_t h[8];
	uint64_t len; /* bytes hashed so far */
	uint8_t buf[64];
	size_t fill;
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, uint8_t digest[32]);

#endif /* HOST_BASE_SHA256_H */
