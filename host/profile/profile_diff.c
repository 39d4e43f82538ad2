/* One report's exact profiles of one pair at several inputs, each set beside the first input's
 * (profile.h): which functions took the extra cycles (fut-softfp input=3 against input=0). */
#include <string.h>

#include "profile/profile.h"
#include "results/compare_profile.h"

#define PROFILE_DIFF_TOP 10

int profile_print_input_diffs(FILE *out, const struct bench_report *rep)
{
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < rep->n_profiles; i++) {
		const struct bench_profile *base = &rep->profiles[i];
		bool first = true;

		if (!base->exact)
			continue;
		for (size_t k = 0; k < i && first; k++) /* base: the first profile of its pair */
			first = !rep->profiles[k].exact || strcmp(rep->profiles[k].name, base->name);
		if (!first)
			continue;
		for (size_t k = i + 1; k < rep->n_profiles; k++) {
			const struct bench_profile *p = &rep->profiles[k];
			struct profile_diff d;
			char la[160], lb[160], title[400];
			int bad;

			if (!p->exact || strcmp(p->name, base->name))
				continue;
			if (shown == PROFILE_CONSOLE_MAX) {
				more++;
				continue;
			}
			shown++;
			if (profile_diff(base, p, &d))
				return -1;
			profile_label(base, la, sizeof(la));
			profile_label(p, lb, sizeof(lb));
			(void)snprintf(title, sizeof(title), "profile %s against %s (A)", lb, la);
			bad = profile_diff_print(out, &d, title, PROFILE_DIFF_TOP);
			profile_diff_free(&d);
			if (bad)
				return -1;
		}
	}
	if (more && fprintf(out,
	                    "\n(%zu more inputs set beside the first: bench compare on the JSON reports, or the "
	                    "profiles in the JSON)\n",
	                    more) < 0)
		return -1;
	return 0;
}
