/* Finding bench's data from its own location (datadir.h). */
#include "base/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/str.h"

int datadir_exe_dir(char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if ((size_t)snprintf(out, len, "%s", self[0] ? self : "/") >= len)
		return -1;
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int datadir_find(char *out, size_t len, char *tried, size_t tried_len)
{
	static const char *const rel[] = {"/../share/probebench", "/share/probebench"};
	char exe[PATH_MAX], cand[PATH_MAX + 32], boards[PATH_MAX + 48], real[PATH_MAX];
	size_t used = 0;

	if (tried && tried_len)
		tried[0] = '\0';
	if (datadir_exe_dir(exe, sizeof(exe))) {
		if (tried && tried_len)
			str_fmt_cut(tried, tried_len, "(bench's own location: /proc/self/exe unreadable)");
		return -1;
	}
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		/* exe is PATH_MAX, cand PATH_MAX + 32 and boards PATH_MAX + 48 bytes: each fits whole. */
		(void)str_fmt(cand, sizeof(cand), "%s%s", exe, rel[i]);
		/* Shown and returned without the "..": /usr/bin/../share/probebench is /usr/share/probebench. */
		if (realpath(cand, real))
			(void)str_copy(cand, sizeof(cand), real);
		(void)str_fmt(boards, sizeof(boards), "%s/boards", cand);
		if (tried && tried_len > used) {
			int w = snprintf(tried + used, tried_len - used, "%s%s", used ? " and " : "", boards);
			if (w > 0)
				used += (size_t)w < tried_len - used ? (size_t)w : tried_len - used - 1;
		}
		if (is_dir(boards)) {
			if ((size_t)snprintf(out, len, "%s", cand) >= len)
				return -1;
			return 0;
		}
	}
	return -1;
}
