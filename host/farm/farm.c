/* Board farms; see farm.h for the file format. The run side starts one thread per board, each
 * calling run_measure() (run.h: no globals, its own OpenOCD on free ports), then merges. */
#include "farm/farm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "firmware/board.h"
#include "session/probes.h"

static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
		      *s == '-' || *s == '.'))
			return false;
	return true;
}

/* Splits LINE (modified) at blanks into at most MAX fields; returns how many there were in all. */
static size_t split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n < max)
			fields[n] = t;
		n++;
	}
	return n;
}

static int parse_line(char *line, unsigned lineno, struct farm *out, struct bench_error *err)
{
	char *f[3];
	size_t n;
	struct farm_board *b;

	line[strcspn(line, "#")] = '\0';
	n = split(line, f, 3);
	if (n == 0)
		return 0;
	if (n > 3 || n < 2)
		return bench_fail(err, BENCH_E_USAGE, "%s:%u: expected NAME BOARD [PROBE-SERIAL], found %zu field%s",
		                  out->path, lineno, n, n == 1 ? "" : "s");
	if (!name_ok(f[0]) || strlen(f[0]) >= sizeof(out->boards[0].name))
		return bench_fail(err, BENCH_E_USAGE, "%s:%u: name '%s' must be 1-31 of A-Z a-z 0-9 _ . -", out->path,
		                  lineno, f[0]);
	if (strlen(f[1]) >= sizeof(out->boards[0].board) || (n == 3 && strlen(f[2]) >= sizeof(out->boards[0].serial)))
		return bench_fail(err, BENCH_E_USAGE, "%s:%u: board or serial too long", out->path, lineno);
	for (size_t i = 0; i < out->n; i++) {
		if (!strcmp(out->boards[i].name, f[0]))
			return bench_fail(err, BENCH_E_USAGE, "%s:%u: name '%s' already used on line %u", out->path,
			                  lineno, f[0], out->boards[i].line);
		if (n == 3 && !strcmp(out->boards[i].serial, f[2]))
			return bench_fail(err, BENCH_E_USAGE,
			                  "%s:%u: probe serial '%s' already used by '%s' on line %u", out->path, lineno,
			                  f[2], out->boards[i].name, out->boards[i].line);
	}
	if (out->n == FARM_MAX_BOARDS)
		return bench_fail(err, BENCH_E_USAGE, "%s:%u: more than %d boards", out->path, lineno, FARM_MAX_BOARDS);
	b = &out->boards[out->n++];
	memset(b, 0, sizeof(*b));
	/* The lengths were checked above, so these copies are whole. */
	(void)str_copy(b->name, sizeof(b->name), f[0]);
	(void)str_copy(b->board, sizeof(b->board), f[1]);
	if (n == 3)
		(void)str_copy(b->serial, sizeof(b->serial), f[2]);
	b->line = lineno;
	return 0;
}

int farm_parse(const char *text, size_t len, const char *path, struct farm *out, struct bench_error *err)
{
	char line[1024];
	unsigned lineno = 0;
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	str_fmt_cut(out->path, sizeof(out->path), "%s", path); /* for messages (FILE:LINE) */
	while (pos < len) {
		size_t end = pos, l;
		int rc;
		while (end < len && text[end] != '\n')
			end++;
		lineno++;
		l = end - pos;
		if (l >= sizeof(line))
			return bench_fail(err, BENCH_E_USAGE, "%s:%u: line longer than %zu characters", path, lineno,
			                  sizeof(line) - 1);
		memcpy(line, text + pos, l);
		line[l] = '\0';
		if (memchr(line, '\0', l))
			return bench_fail(err, BENCH_E_USAGE, "%s:%u: a NUL byte: not a farm file", path, lineno);
		rc = parse_line(line, lineno, out, err);
		if (rc < 0)
			return rc;
		pos = end + 1;
	}
	if (!out->n)
		return bench_fail(err, BENCH_E_USAGE, "%s: no boards: one line per board, NAME BOARD [PROBE-SERIAL]",
		                  path);
	return 0;
}

int farm_load(const char *path, struct farm *out, struct bench_error *err)
{
	FILE *f = fopen(path, "rb");
	static char buf[256 * 1024]; /* a farm file is a few lines; a bigger one is not a farm file */
	size_t n;
	int rc;

	if (!f)
		return bench_fail(err, BENCH_E_USAGE, "cannot open farm file %s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	rc = ferror(f) ? bench_fail(err, BENCH_E_USAGE, "cannot read farm file %s: %s", path, strerror(errno))
	     : n == sizeof(buf)
	         ? bench_fail(err, BENCH_E_USAGE, "%s: larger than %zu bytes: not a farm file", path, sizeof(buf))
	         : 0;
	if (fclose(f) != 0 && rc == 0)
		rc = bench_fail(err, BENCH_E_USAGE, "cannot read farm file %s: %s", path, strerror(errno));
	if (rc == 0)
		rc = farm_parse(buf, n, path, out, err);
	return rc;
}

int farm_validate(struct farm *f, const char *boards_dir, struct bench_error *err)
{
	for (size_t i = 0; i < f->n; i++) {
		struct farm_board *b = &f->boards[i];
		struct board bd;
		struct bench_error e;
		if (board_load(boards_dir, b->board, &bd, &e) < 0)
			return bench_fail(err, e.kind, "%s:%u: %s", f->path, b->line, e.msg);
		b->virtual_board = bd.virtual_board;
		if (!bd.virtual_board && !b->serial[0])
			return bench_fail(
			    err, BENCH_E_USAGE,
			    "%s:%u: board '%s' (%s) needs its probe's serial as a third field: `bench probes` "
			    "lists them",
			    f->path, b->line, b->name, b->board);
		if (bd.virtual_board && b->serial[0])
			return bench_fail(err, BENCH_E_USAGE,
			                  "%s:%u: '%s' is the virtual board %s: it takes no probe serial", f->path,
			                  b->line, b->name, b->board);
	}
	return 0;
}

int farm_check_serials(const struct farm *f, const struct probe_list *probes, struct bench_error *err)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct probe_info *p;
		struct bench_error e;
		if (f->boards[i].virtual_board)
			continue;
		if (probes_find_serial(probes, f->boards[i].serial, &p, &e) < 0)
			return bench_fail(err, e.kind, "%s:%u: %s", f->path, f->boards[i].line, e.msg);
	}
	return 0;
}
