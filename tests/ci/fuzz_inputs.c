/* libFuzzer target over the parsers of issue 6 that read untrusted bytes: the JSON report reader,
 * the farm file parser and the USB descriptor parser. The first byte picks the parser; the rest is
 * its input (for USB: 18 bytes of device descriptor, then the configuration descriptor). Built with
 * -DBENCH_FUZZ=ON (clang); tests/ci/CMakeLists.txt runs it briefly on the fixtures as a test. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "farm/farm.h"
#include "session/probes.h"
#include "report/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct farm f;
	struct bench_error err;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0: {
		struct bench_report r;
		results_init(&r);
		(void)json_read_text((const char *)data + 1, size - 1, "fuzz", &r, &err);
		results_free(&r);
		break;
	}
	case 1:
		(void)farm_parse((const char *)data + 1, size - 1, "fuzz", &f, &err);
		break;
	default: {
		struct probe_desc d;
		struct probe_info p;
		memset(&d, 0, sizeof(d));
		d.device = data + 1;
		d.device_len = size - 1 < 18 ? size - 1 : 18;
		if (size > 19) {
			d.config = data + 19;
			d.config_len = size - 19;
		}
		(void)probes_parse(&d, &p, &err);
		break;
	}
	}
	return 0;
}
