/* libFuzzer target over the virtual board's ST-LINK: arbitrary command records through
 * wire/stlink_cmd.c -> dap/swdp.c -> dap/ap.c onto a bus with 4 KiB of SRAM. Each record is a
 * 16-byte command, a 16-bit reply length (reads, up to the largest ST-LINK reply) and a 16-bit data
 * length with that many data bytes (writes): what a SEND_USB_CMD request carries after
 * stlink_server.c has framed it. Any sequence must leave the units consistent: no crash, no
 * sanitizer report, no write past the reply length asked for. Seed: fixtures/stlink/session.bin
 * (fixtures/README.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/stlink_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GUARD 16u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sram[4096], reply[STLINK_REPLY_MAX + GUARD];
	static struct sim_bus bus;
	static struct dp dp;
	static struct stlink_probe probe;
	bus_init(&bus);
	struct bus_region ram = {.name = "sram", .base = 0x20000000u, .size = sizeof(sram), .mem = sram};
	if (bus_add_region(&bus, &ram) != 0)
		abort();
	dp_init(&dp, &bus);
	stlink_probe_init(&probe, &dp, NULL, NULL);
	size_t off = 0;
	while (size - off >= STLINK_CMD_SIZE + 4) {
		const uint8_t *cmd = data + off;
		uint32_t rlen = (uint32_t)(data[off + 16] | data[off + 17] << 8) % (STLINK_REPLY_MAX + 1);
		uint32_t wlen = (uint32_t)(data[off + 18] | data[off + 19] << 8);
		off += STLINK_CMD_SIZE + 4;
		if (wlen > size - off)
			wlen = (uint32_t)(size - off);
		memset(reply, 0xEE, sizeof(reply));
		(void)stlink_execute(&probe, cmd, data + off, wlen, reply, rlen);
		for (uint32_t i = rlen; i < rlen + GUARD; i++)
			if (reply[i] != 0xEE)
				abort();
		off += wlen;
	}
	return 0;
}
