/* Debug probes attached over USB: ST-LINK/V2, V2-1, V3, CMSIS-DAP (v1 HID, v2 bulk) and SEGGER
 * J-Link. Enumeration is libusb's; recognising a probe is a pure function of the descriptors
 * libusb reads (probes_parse), so it is unit-tested on recorded descriptor bytes. */
#ifndef HOST_SESSION_PROBES_H
#define HOST_SESSION_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define PROBES_MAX_STRINGS 16 /* string descriptor indices 0..15 are read; probes use 1..5 */

/* The raw descriptors of one USB device, as read from it (USB 2.0 spec, chapter 9.6). */
struct probe_desc {
	const uint8_t *device; /* the 18-byte device descriptor */
	size_t device_len;
	const uint8_t *config; /* the whole configuration descriptor (wTotalLength) or NULL */
	size_t config_len;
	const uint8_t *strings[PROBES_MAX_STRINGS]; /* string descriptors by index, NULL when unread */
	size_t string_len[PROBES_MAX_STRINGS];
	uint8_t bus;
	char port[32]; /* port path "1.4.2" (libusb_get_port_numbers) */
};

struct probe_info {
	char kind[32]; /* "ST-LINK/V2", "ST-LINK/V2-1", "ST-LINK/V3", "CMSIS-DAP v1", "CMSIS-DAP v2", "J-Link" */
	uint16_t vid, pid;
	char vendor[128];  /* iManufacturer */
	char product[128]; /* iProduct */
	char serial[128];  /* iSerialNumber; "" when unreadable */
	uint8_t bus;
	char port[32];
	int interface; /* the CMSIS-DAP interface number, -1 otherwise */
};

struct probe_list {
	struct probe_info *items;
	size_t n;
};

/* Returns 1 and fills OUT when D is a debug probe, 0 when it is some other device, or a negated
 * BENCH_E_PROTOCOL when a descriptor is malformed (a length running past the buffer). */
int probes_parse(const struct probe_desc *d, struct probe_info *out, struct bench_error *err);
/* Decodes a USB string descriptor (UTF-16LE, USB 2.0 section 9.6.7) to UTF-8 into OUT. Returns 0 or
 * -1 when it is not a string descriptor. */
int probes_decode_string(const uint8_t *desc, size_t len, char *out, size_t cap);

/* Lists the probes attached to this machine (libusb). An empty list is not an error. */
int probes_enumerate(struct probe_list *out, struct bench_error *err);
void probes_free(struct probe_list *l);
/* Finds SERIAL in L. BENCH_E_USAGE when absent, naming the attached serials; BENCH_E_CONNECT
 * (exit 4) when no probe is attached at all. */
int probes_find_serial(const struct probe_list *l, const char *serial, const struct probe_info **out,
                       struct bench_error *err);
/* What `bench run --board REAL [--probe SERIAL]` needs before starting OpenOCD: a given SERIAL must
 * be attached (probes_find_serial's error); without one, several attached probes are ambiguous
 * (BENCH_E_USAGE listing them, "pass --probe SERIAL"); one or none is left to OpenOCD. */
int probes_select(const struct probe_list *l, const char *serial, struct bench_error *err);
/* True only when the USB bus can be listed and holds no probe bench knows. OpenOCD reaches boards
 * bench cannot list (FTDI, GPIO bit-bang, remote_bitbang, `st-link backend tcp`), so this is asked
 * only after OpenOCD failed to open its adapter (openocd_fail_start()), never before starting it;
 * a bus that cannot be listed (no libusb) is false: OpenOCD's own error then stands. */
bool probes_none_attached(void);
struct run_opts;
/* probes_select() on this machine's probes for a run on a real OpenOCD board (probes_run.c);
 * 0 for runs that use no probe. */
int probes_check_run(const struct run_opts *o, struct bench_error *err);
/* Prints L as an aligned table, or as a JSON array with JSON set. */
int probes_print(FILE *out, const struct probe_list *l, bool json, struct bench_error *err);

#endif /* HOST_SESSION_PROBES_H */
