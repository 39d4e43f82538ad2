/* Helpers shared by the CI reporters; see markup.h. */
#include "report/markup.h"

#include <string.h>

static void args_join(const struct bench_result *res, char *buf, size_t cap, char sep)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < res->n_args && used < cap; i++) {
		int n = snprintf(buf + used, cap - used, "%s%s=%lld", i ? (sep == ',' ? "," : ";") : "",
		                 res->args[i].name, (long long)res->args[i].value);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

void markup_label(const struct bench_result *res, char *buf, size_t cap)
{
	char args[512];

	if (!res->n_args) {
		snprintf(buf, cap, "%s", res->name);
		return;
	}
	args_join(res, args, sizeof(args), ',');
	snprintf(buf, cap, "%s[%s]", res->name, args);
}

void markup_args(const struct bench_result *res, char *buf, size_t cap)
{
	args_join(res, buf, cap, ';');
}

int markup_xml_puts(FILE *out, const char *s)
{
	for (; *s; s++) {
		const char *rep = NULL;
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			break;
		}
		if (rep) {
			if (fputs(rep, out) == EOF)
				return -1;
		} else if (putc(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c, out) == EOF) {
			return -1;
		}
	}
	return 0;
}

const char *markup_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

double markup_cycles_to_ns(const struct bench_report *rep, double cycles)
{
	if (!rep->context.core_clock_hz)
		return -1.0;
	return cycles * 1e9 / (double)rep->context.core_clock_hz;
}
