/* Debug probes over USB; see probes.h. Which probe is which is data (probe_ids[]); CMSIS-DAP has no
 * fixed IDs and is recognised as pyOCD and probe-rs do (pyocd/probe/pydapaccess/interface/
 * pyusb_backend.py, probe-rs cmsisdap/tools.rs): "CMSIS-DAP" in the product or interface string,
 * v2 when that interface is vendor-specific (class 0xFF) with bulk endpoints, v1 when it is HID. */
#include "session/probes.h"
#include "base/le.h"

#include <cjson/cJSON.h>
#include <libusb-1.0/libusb.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

#define VID_ST     0x0483
#define VID_SEGGER 0x1366
#define ANY_PID    0xffffffffu

/* USB IDs: OpenOCD's tcl/interface/stlink.cfg (hla_vid_pid) and jlink.cfg; ST UM1075 / UM2448. */
static const struct {
	uint16_t vid;
	uint32_t pid; /* ANY_PID: every product of the vendor */
	const char *kind;
} probe_ids[] = {
    {VID_ST, 0x3748, "ST-LINK/V2"},   {VID_ST, 0x374b, "ST-LINK/V2-1"}, {VID_ST, 0x374a, "ST-LINK/V2-1"},
    {VID_ST, 0x3752, "ST-LINK/V2-1"}, {VID_ST, 0x374e, "ST-LINK/V3"},   {VID_ST, 0x374f, "ST-LINK/V3"},
    {VID_ST, 0x3753, "ST-LINK/V3"},   {VID_ST, 0x3754, "ST-LINK/V3"},   {VID_SEGGER, ANY_PID, "J-Link"},
};

/* USB 2.0 table 9-5 descriptor types, table 9-13 endpoint transfer types; class codes from usb.org. */
enum { DT_DEVICE = 1, DT_CONFIG = 2, DT_STRING = 3, DT_INTERFACE = 4, DT_ENDPOINT = 5 };
enum { CLASS_HID = 0x03, CLASS_VENDOR = 0xff, EP_BULK = 2 };

int probes_decode_string(const uint8_t *desc, size_t len, char *out, size_t cap)
{
	size_t o = 0;

	if (cap)
		out[0] = '\0';
	if (!desc || len < 2 || desc[1] != DT_STRING || desc[0] > len || desc[0] < 2)
		return -1;
	for (size_t i = 2; i + 1 < desc[0] && o + 4 < cap; i += 2) {
		unsigned c = le_get16(desc + i);
		/* UTF-16 code units to UTF-8 (RFC 3629); a surrogate half, which no probe sends, becomes '?'. */
		if (c >= 0xd800 && c <= 0xdfff)
			c = '?';
		if (c < 0x80) {
			out[o++] = (char)(c < 0x20 ? ' ' : c);
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = '\0';
	return 0;
}

static void string_at(const struct probe_desc *d, unsigned idx, char *out, size_t cap)
{
	out[0] = '\0';
	if (idx && idx < PROBES_MAX_STRINGS && probes_decode_string(d->strings[idx], d->string_len[idx], out, cap) < 0)
		out[0] = '\0';
}

struct dap_iface {
	int number, cls;
	unsigned bulk;
	bool named; /* its interface string says CMSIS-DAP */
};

/* Walks the configuration descriptor (USB 2.0 section 9.6.3: the configuration, then each interface
 * followed by its endpoints and class descriptors) and picks the CMSIS-DAP interface: named v2 first,
 * then named v1, then (product string says CMSIS-DAP) an unnamed vendor-bulk or HID interface. */
static int find_dap(const struct probe_desc *d, bool product_says, struct probe_info *out, struct bench_error *err)
{
	struct dap_iface best = {-1, 0, 0, false}, cur = {-1, 0, 0, false};
	size_t off = 0;
	int best_rank = 0;

	if (!d->config)
		return 0;
	for (;;) {
		int rank = 0;
		bool end = off >= d->config_len;
		const uint8_t *p = d->config + off;
		if (!end && (off + 2 > d->config_len || p[0] < 2 || off + p[0] > d->config_len))
			return bench_fail(err, BENCH_E_PROTOCOL,
			                  "USB configuration descriptor of %04x:%04x is malformed at byte %zu",
			                  out->vid, out->pid, off);
		if (end || p[1] == DT_INTERFACE) {
			/* close the interface read so far */
			if (cur.number >= 0) {
				bool v2 = cur.cls == CLASS_VENDOR && cur.bulk >= 2, v1 = cur.cls == CLASS_HID;
				if (cur.named)
					rank = v2 ? 4 : v1 ? 3 : 0;
				else if (product_says)
					rank = v2 ? 2 : v1 ? 1 : 0;
				if (rank > best_rank) {
					best_rank = rank;
					best = cur;
				}
			}
			if (end)
				break;
			if (p[0] < 9)
				return bench_fail(err, BENCH_E_PROTOCOL,
				                  "USB interface descriptor of %04x:%04x is too short", out->vid,
				                  out->pid);
			{
				char name[128];
				string_at(d, p[8], name, sizeof(name));
				cur = (struct dap_iface){p[2], p[5], 0, strstr(name, "CMSIS-DAP") != NULL};
			}
		} else if (p[1] == DT_ENDPOINT && p[0] >= 7 && cur.number >= 0 && (p[3] & 3) == EP_BULK) {
			cur.bulk++;
		}
		off += p[0];
	}
	if (!best_rank)
		return 0;
	str_fmt_cut(out->kind, sizeof(out->kind), "%s", best.cls == CLASS_VENDOR ? "CMSIS-DAP v2" : "CMSIS-DAP v1");
	out->interface = best.number;
	return 1;
}

int probes_parse(const struct probe_desc *d, struct probe_info *out, struct bench_error *err)
{
	const uint8_t *dev = d->device;

	memset(out, 0, sizeof(*out));
	out->interface = -1;
	if (!dev || d->device_len < 18 || dev[0] < 18 || dev[1] != DT_DEVICE)
		return bench_fail(err, BENCH_E_PROTOCOL, "USB device descriptor is malformed (%zu bytes)",
		                  d->device_len);
	out->vid = le_get16(dev + 8);
	out->pid = le_get16(dev + 10);
	out->bus = d->bus;
	str_fmt_cut(out->port, sizeof(out->port), "%s", d->port); /* the same size: never cut */
	string_at(d, dev[14], out->vendor, sizeof(out->vendor));
	string_at(d, dev[15], out->product, sizeof(out->product));
	string_at(d, dev[16], out->serial, sizeof(out->serial));
	for (size_t i = 0; i < sizeof(probe_ids) / sizeof(probe_ids[0]); i++)
		if (probe_ids[i].vid == out->vid && (probe_ids[i].pid == ANY_PID || probe_ids[i].pid == out->pid)) {
			str_fmt_cut(out->kind, sizeof(out->kind), "%s", probe_ids[i].kind);
			return 1;
		}
	return find_dap(d, strstr(out->product, "CMSIS-DAP") != NULL, out, err);
}

/* ---- libusb ------------------------------------------------------------------------------ */

static bool known_id(uint16_t vid, uint16_t pid)
{
	for (size_t i = 0; i < sizeof(probe_ids) / sizeof(probe_ids[0]); i++)
		if (probe_ids[i].vid == vid && (probe_ids[i].pid == ANY_PID || probe_ids[i].pid == pid))
			return true;
	return false;
}

struct raw {
	uint8_t device[18];
	uint8_t config[4096];
	uint8_t strings[PROBES_MAX_STRINGS][256];
};

/* The device descriptor as libusb parsed it, back in wire order (USB 2.0 table 9-8), for a device
 * that cannot be opened (no permission): its IDs still tell an ST-LINK or a J-Link. */
static void device_bytes(const struct libusb_device_descriptor *dd, uint8_t *b)
{
	b[0] = 18;
	b[1] = DT_DEVICE;
	b[2] = (uint8_t)dd->bcdUSB;
	b[3] = (uint8_t)(dd->bcdUSB >> 8);
	b[4] = dd->bDeviceClass;
	b[5] = dd->bDeviceSubClass;
	b[6] = dd->bDeviceProtocol;
	b[7] = dd->bMaxPacketSize0;
	b[8] = (uint8_t)dd->idVendor;
	b[9] = (uint8_t)(dd->idVendor >> 8);
	b[10] = (uint8_t)dd->idProduct;
	b[11] = (uint8_t)(dd->idProduct >> 8);
	b[12] = (uint8_t)dd->bcdDevice;
	b[13] = (uint8_t)(dd->bcdDevice >> 8);
	b[14] = 0; /* strings unread */
	b[15] = 0;
	b[16] = 0;
	b[17] = dd->bNumConfigurations;
}

/* Reads the raw descriptors of an opened device. Failures leave fields empty: a probe whose
 * strings cannot be read is still listed by its IDs. */
static void read_raw(libusb_device_handle *h, struct raw *r, struct probe_desc *d)
{
	int n = libusb_get_descriptor(h, LIBUSB_DT_DEVICE, 0, r->device, sizeof(r->device));
	uint16_t lang;

	if (n == 18) {
		d->device = r->device;
		d->device_len = 18;
	}
	n = libusb_get_descriptor(h, LIBUSB_DT_CONFIG, 0, r->config, sizeof(r->config));
	if (n >= 9) {
		d->config = r->config;
		d->config_len = (size_t)n < le_get16(r->config + 2) ? (size_t)n : le_get16(r->config + 2);
	}
	/* String 0 lists the language IDs (USB 2.0 section 9.6.7); the first one is used. */
	n = libusb_get_string_descriptor(h, 0, 0, r->strings[0], sizeof(r->strings[0]));
	if (n < 4)
		return;
	lang = le_get16(r->strings[0] + 2);
	for (unsigned i = 1; i < PROBES_MAX_STRINGS; i++) {
		n = libusb_get_string_descriptor(h, (uint8_t)i, lang, r->strings[i], sizeof(r->strings[i]));
		if (n >= 2) {
			d->strings[i] = r->strings[i];
			d->string_len[i] = (size_t)n;
		}
	}
}

static int push(struct probe_list *l, const struct probe_info *p, struct bench_error *err)
{
	struct probe_info *n = realloc(l->items, (l->n + 1) * sizeof(*n));
	if (!n)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory listing probes");
	l->items = n;
	l->items[l->n++] = *p;
	return 0;
}

static int examine(libusb_device *dev, struct probe_list *out, struct bench_error *err)
{
	static struct raw r; /* 8 KiB; one device at a time */
	struct libusb_device_descriptor dd;
	struct probe_desc d;
	struct probe_info info;
	libusb_device_handle *h = NULL;
	uint8_t ports[8];
	int n;

	if (libusb_get_device_descriptor(dev, &dd) != 0 || dd.bDeviceClass == LIBUSB_CLASS_HUB)
		return 0;
	memset(&d, 0, sizeof(d));
	d.bus = libusb_get_bus_number(dev);
	n = libusb_get_port_numbers(dev, ports, sizeof(ports));
	/* At most 8 levels of "255.": 31 characters, so port[32] holds every path whole. */
	for (int i = 0; i < n; i++)
		if (str_append(d.port, sizeof(d.port), "%s%u", i ? "." : "", ports[i]))
			break;
	if (libusb_open(dev, &h) == 0) {
		read_raw(h, &r, &d);
		libusb_close(h);
	}
	if (!d.device) {
		if (!known_id(dd.idVendor, dd.idProduct))
			return 0; /* an unopenable device of unknown ID: nothing tells a CMSIS-DAP apart */
		device_bytes(&dd, r.device);
		d.device = r.device;
		d.device_len = 18;
	}
	/* Not a probe, or a malformed descriptor: some other device's business, so it is skipped. */
	if (probes_parse(&d, &info, err) <= 0) {
		bench_error_clear(err);
		return 0;
	}
	return push(out, &info, err);
}

int probes_enumerate(struct probe_list *out, struct bench_error *err)
{
	libusb_context *ctx;
	libusb_device **devs;
	ssize_t n;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	rc = libusb_init(&ctx);
	if (rc != 0)
		return bench_fail(err, BENCH_E_TOOL_START, "libusb could not start (%s): is /dev/bus/usb readable?",
		                  libusb_error_name(rc));
	n = libusb_get_device_list(ctx, &devs);
	if (n < 0) {
		libusb_exit(ctx);
		return bench_fail(err, BENCH_E_TOOL_START, "libusb could not list devices (%s)",
		                  libusb_error_name((int)n));
	}
	for (ssize_t i = 0; i < n && rc == 0; i++)
		rc = examine(devs[i], out, err);
	libusb_free_device_list(devs, 1);
	libusb_exit(ctx);
	if (rc < 0)
		probes_free(out);
	return rc;
}

void probes_free(struct probe_list *l)
{
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

int probes_find_serial(const struct probe_list *l, const char *serial, const struct probe_info **out,
                       struct bench_error *err)
{
	char known[900] = "";
	size_t used = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->items[i].serial, serial)) {
			*out = &l->items[i];
			return 0;
		}
		if (used < sizeof(known)) {
			int w = snprintf(known + used, sizeof(known) - used, "%s%s (%s)", i ? ", " : "",
			                 l->items[i].serial, l->items[i].kind);
			used += w > 0 ? (size_t)w : 0;
		}
	}
	if (!l->n) /* nothing to connect to: exit 4 on every path (docs/exit-codes.md), not a typo's 2 */
		return bench_fail(err, BENCH_E_CONNECT,
		                  "no probe with serial '%s': no debug probe is attached (`bench probes` lists them)",
		                  serial);
	return bench_fail(err, BENCH_E_USAGE, "no probe with serial '%s': attached are %s", serial, known);
}

int probes_select(const struct probe_list *l, const char *serial, struct bench_error *err)
{
	const struct probe_info *p;
	char known[900] = "";
	size_t used = 0;

	if (serial && *serial)
		return probes_find_serial(l, serial, &p, err);
	if (l->n < 2) /* none: the session says so when OpenOCD finds none (probes_none_attached) */
		return 0;
	for (size_t i = 0; i < l->n && used < sizeof(known); i++) {
		int w = snprintf(known + used, sizeof(known) - used, "%s%s (%s, bus %u port %s)", i ? ", " : "",
		                 l->items[i].serial[0] ? l->items[i].serial : "unreadable serial", l->items[i].kind,
		                 l->items[i].bus, l->items[i].port);
		used += w > 0 ? (size_t)w : 0;
	}
	return bench_fail(err, BENCH_E_USAGE, "%zu probes attached, pass --probe SERIAL with one of: %s", l->n, known);
}

bool probes_none_attached(void)
{
	struct probe_list l;
	struct bench_error err;
	bool none = probes_enumerate(&l, &err) == 0 && l.n == 0;

	probes_free(&l);
	return none;
}

static int print_json(FILE *out, const struct probe_list *l, struct bench_error *err)
{
	cJSON *arr = cJSON_CreateArray();
	char *text, id[8];
	int rc = 0;

	for (size_t i = 0; arr && i < l->n; i++) {
		const struct probe_info *p = &l->items[i];
		cJSON *o = cJSON_CreateObject();
		bool ok = o && cJSON_AddItemToArray(arr, o) && cJSON_AddStringToObject(o, "kind", p->kind);
		str_fmt_cut(id, sizeof(id), "%04x", p->vid);
		ok = ok && cJSON_AddStringToObject(o, "vid", id);
		str_fmt_cut(id, sizeof(id), "%04x", p->pid);
		ok = ok && cJSON_AddStringToObject(o, "pid", id) && cJSON_AddStringToObject(o, "vendor", p->vendor) &&
		     cJSON_AddStringToObject(o, "product", p->product) &&
		     cJSON_AddStringToObject(o, "serial", p->serial) && cJSON_AddNumberToObject(o, "bus", p->bus) &&
		     cJSON_AddStringToObject(o, "port", p->port) &&
		     cJSON_AddNumberToObject(o, "interface", p->interface);
		if (!ok) {
			cJSON_Delete(arr);
			arr = NULL;
		}
	}
	text = arr ? cJSON_Print(arr) : NULL;
	cJSON_Delete(arr);
	if (!text)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory printing probes");
	if (fprintf(out, "%s\n", text) < 0)
		rc = bench_fail(err, BENCH_E_IO, "writing the probe list failed");
	free(text);
	return rc;
}

int probes_print(FILE *out, const struct probe_list *l, bool json, struct bench_error *err)
{
	if (json)
		return print_json(out, l, err);
	if (!l->n) {
		if (fputs("no debug probe attached (looked for ST-LINK, CMSIS-DAP, J-Link)\n", out) == EOF)
			return bench_fail(err, BENCH_E_IO, "writing the probe list failed");
		return 0;
	}
	fprintf(out, "%-13s %-9s %-26s %-20s %-4s %s\n", "kind", "id", "serial", "product", "bus", "port");
	for (size_t i = 0; i < l->n; i++) {
		const struct probe_info *p = &l->items[i];
		fprintf(out, "%-13s %04x:%04x %-26s %-20s %-4u %s\n", p->kind, p->vid, p->pid,
		        p->serial[0] ? p->serial : "(unreadable)", p->product, p->bus, p->port);
	}
	if (ferror(out))
		return bench_fail(err, BENCH_E_IO, "writing the probe list failed");
	return 0;
}
