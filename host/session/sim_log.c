/* Reading bench-sim's log as it grows (see sim_log.h). */
#include "session/sim_log.h"

#include <string.h>

#include "base/str.h"

void sim_log_init(struct sim_log *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	if (str_copy(l->path, sizeof(l->path), path))
		l->path[0] = '\0'; /* a cut path names another file: read none (proc_start refused it anyway) */
}

void sim_log_poll(struct sim_log *l, sim_log_line_fn fn, void *ctx)
{
	FILE *f = l->path[0] ? fopen(l->path, "r") : NULL;
	char buf[4096];
	size_t got;

	if (!f)
		return;
	if (fseek(f, l->offset, SEEK_SET) != 0) {
		(void)fclose(f); /* read-only */
		return;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (size_t i = 0; i < got; i++) {
			l->offset++;
			if (buf[i] != '\n') {
				if (l->part_len < sizeof(l->part) - 1)
					l->part[l->part_len++] = buf[i];
				continue;
			}
			l->part[l->part_len] = '\0';
			fn(ctx, l->part);
			l->part_len = 0;
		}
	}
	(void)fclose(f); /* read-only */
}
