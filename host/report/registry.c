/* Every reporter, by name (`--format`, `bench report --format`). Adding a format is one line here
 * and one file beside this one; the help texts and the "unknown format" error list the names from
 * this table, and tests/ci/cli.table checks docs/reports.md's table against `bench report --help`. */
#include <string.h>

#include "report/reporter.h"

extern const struct reporter_ops console_reporter, json_reporter, csv_reporter, bmf_reporter, github_reporter,
    junit_reporter, html_reporter, svg_reporter;

const struct reporter_ops *const reporter_table[] = {
    &console_reporter, &json_reporter, &csv_reporter, &bmf_reporter, &github_reporter,
    &junit_reporter,   &html_reporter, &svg_reporter, NULL,
};

const struct reporter_ops *reporter_find(const char *name)
{
	for (size_t i = 0; reporter_table[i]; i++)
		if (!strcmp(reporter_table[i]->name, name))
			return reporter_table[i];
	return NULL;
}

const char *reporter_names(char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; reporter_table[i]; i++) {
		const char *sep = i == 0 ? "" : reporter_table[i + 1] ? ", " : " or ";
		int n = snprintf(buf + used, len - used, "%s%s", sep, reporter_table[i]->name);
		if (n < 0 || (size_t)n >= len - used)
			break; /* truncated: the buffer holds what fitted */
		used += (size_t)n;
	}
	return buf;
}

int reporter_unknown(const char *option, const char *name, struct bench_error *err)
{
	char names[160];

	return bench_fail(err, BENCH_E_USAGE, "unknown %s '%s': use %s", option, name,
	                  reporter_names(names, sizeof(names)));
}
