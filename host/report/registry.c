/* Every reporter, by name (`--format`, `bench report --as`). Adding a format is one line here
 * and one file beside this one. */
#include <string.h>

#include "report/reporter.h"

extern const struct reporter_ops console_reporter, json_reporter, csv_reporter, bmf_reporter, github_reporter,
    junit_reporter;

const struct reporter_ops *const reporter_table[] = {
    &console_reporter, &json_reporter, &csv_reporter, &bmf_reporter, &github_reporter, &junit_reporter, NULL,
};

const struct reporter_ops *reporter_find(const char *name)
{
	for (size_t i = 0; reporter_table[i]; i++)
		if (!strcmp(reporter_table[i]->name, name))
			return reporter_table[i];
	return NULL;
}
