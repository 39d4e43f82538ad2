/* libFuzzer target: the JSON report reader (host/report/json_read.c, docs/report-schema.md) that
 * bench report and bench compare run on files from CI artifacts. A report it accepts is also
 * summarised (stats over its samples), as compare does. */
#include <stddef.h>
#include <stdint.h>

#include "report/json_read.h"
#include "results/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_report r;
	struct bench_error err;

	results_init(&r);
	if (json_read_text((const char *)data, size, "fuzz.json", &r, &err) == 0)
		results_finish(&r);
	results_free(&r);
	return 0;
}
