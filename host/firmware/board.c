/* Boards as data (docs/boards.md): boards/<name>/board.json parsed with cJSON. Code here only
 * checks fields and fills defaults; what differs between boards lives in their folders. */
#include "firmware/board.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

#include "base/datadir.h"
#include "base/str.h"

/* Filled once: the folder's path, or "" with board_tried saying where bench looked. */
static char board_dir_found[PATH_MAX + 16];
static char board_tried[2 * PATH_MAX + 16];

const char *board_root(void)
{
	const char *env = getenv("BENCH_BOARDS_DIR");
	char data[PATH_MAX];

	if (env && *env)
		return env;
	if (!board_dir_found[0] && !board_tried[0]) {
		/* board_dir_found is PATH_MAX + 16 bytes: data + "/boards" always fits. */
		if (datadir_find(data, sizeof(data), board_tried, sizeof(board_tried)) == 0)
			(void)str_fmt(board_dir_found, sizeof(board_dir_found), "%s/boards", data);
		else if (!board_tried[0])
			(void)str_copy(board_tried, sizeof(board_tried), "(nowhere)");
	}
	return board_dir_found[0] ? board_dir_found : NULL;
}

const char *board_root_tried(void)
{
	(void)board_root();
	return board_tried;
}

static int bad(struct bench_error *err, const char *dir, const char *field, const char *what)
{
	return bench_fail(err, BENCH_E_BOARD, "board file %s/board.json: field \"%s\" %s: fix the board file", dir,
	                  field, what);
}

static int get_str(const cJSON *root, const char *key, char *out, size_t len, bool required, const char *dir,
                   struct bench_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);

	if (!v) {
		if (required)
			return bad(err, dir, key, "is missing");
		return 0;
	}
	if (!cJSON_IsString(v) || !v->valuestring)
		return bad(err, dir, key, "must be a string");
	if (str_copy(out, len, v->valuestring))
		return bad(err, dir, key, "is too long");
	return 0;
}

/* "0x08000000" or a number; 32-bit. */
static int get_u32(const cJSON *obj, const char *key, uint32_t *out, const char *dir, struct bench_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *end;
	unsigned long long x;

	if (!v)
		return bad(err, dir, key, "is missing");
	if (cJSON_IsNumber(v)) {
		if (v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
		    v->valuedouble != (double)(uint32_t)v->valuedouble)
			return bad(err, dir, key, "must be a 32-bit unsigned integer");
		*out = (uint32_t)v->valuedouble;
		return 0;
	}
	if (!cJSON_IsString(v) || !v->valuestring || !*v->valuestring)
		return bad(err, dir, key, "must be a number or a \"0x...\" string");
	errno = 0;
	x = strtoull(v->valuestring, &end, 0);
	if (errno || *end || x > 0xffffffffull || v->valuestring[0] == '-')
		return bad(err, dir, key, "must be a 32-bit unsigned integer");
	*out = (uint32_t)x;
	return 0;
}

static int get_mem(const cJSON *root, const char *key, uint32_t *base, uint32_t *size, const char *dir,
                   struct bench_error *err)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, key);
	int rc;

	if (!m)
		return 0;
	if (!cJSON_IsObject(m))
		return bad(err, dir, key, "must be an object {\"base\": ..., \"size\": ...}");
	rc = get_u32(m, "base", base, dir, err);
	if (!rc)
		rc = get_u32(m, "size", size, dir, err);
	return rc;
}

static int parse_fields(const cJSON *root, const char *dir, struct board *b, struct bench_error *err)
{
	const cJSON *v;
	char cfg[512] = "";
	int rc;

	if (!cJSON_IsObject(root))
		return bench_fail(err, BENCH_E_BOARD,
		                  "board file %s/board.json is not a JSON object: fix the board file", dir);
	if ((rc = get_str(root, "name", b->name, sizeof(b->name), true, dir, err)) ||
	    (rc = get_str(root, "description", b->description, sizeof(b->description), false, dir, err)) ||
	    (rc = get_str(root, "mcu", b->mcu, sizeof(b->mcu), false, dir, err)) ||
	    (rc = get_str(root, "core", b->core, sizeof(b->core), false, dir, err)) ||
	    (rc = get_str(root, "counter", b->counter, sizeof(b->counter), false, dir, err)) ||
	    (rc = get_str(root, "backend", b->backend, sizeof(b->backend), false, dir, err)) ||
	    (rc = get_str(root, "openocd_cfg", cfg, sizeof(cfg), false, dir, err)) ||
	    (rc = get_str(root, "transport", b->transport, sizeof(b->transport), false, dir, err)) ||
	    (rc = get_str(root, "arch", b->arch, sizeof(b->arch), false, dir, err)) ||
	    (rc = get_str(root, "qemu_system", b->qemu_system, sizeof(b->qemu_system), false, dir, err)) ||
	    (rc = get_str(root, "qemu_machine", b->qemu_machine, sizeof(b->qemu_machine), false, dir, err)))
		return rc;
	if (strcmp(b->arch, "cortex-m") && strcmp(b->arch, "tricore"))
		return bad(err, dir, "arch", "must be \"cortex-m\" or \"tricore\"");
	v = cJSON_GetObjectItemCaseSensitive(root, "core_clock_hz");
	if (!v)
		return bad(err, dir, "core_clock_hz", "is missing");
	if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 1e10 ||
	    v->valuedouble != (double)(uint64_t)v->valuedouble)
		return bad(err, dir, "core_clock_hz", "must be a positive integer (Hz)");
	b->core_clock_hz = (uint64_t)v->valuedouble;
	v = cJSON_GetObjectItemCaseSensitive(root, "virtual");
	if (v && !cJSON_IsBool(v))
		return bad(err, dir, "virtual", "must be true or false");
	b->virtual_board = v && cJSON_IsTrue(v);
	/* "gdb": a board reached only through the user's own gdbserver (bench run --gdb HOST:PORT). */
	if (strcmp(b->backend, "qemu") && strcmp(b->backend, "openocd") && strcmp(b->backend, "gdb"))
		return bad(err, dir, "backend", "must be \"openocd\", \"qemu\" or \"gdb\"");
	if (board_check_transport(b, b->transport, "transport", err))
		return bad(err, dir, "transport",
		           b->virtual_board ? "must be \"dap\", \"hla\" or \"jtag\""
		                            : "must be \"dap\" or \"hla\" (jtag is the virtual board's only)");
	if ((rc = get_mem(root, "flash", &b->flash_base, &b->flash_size, dir, err)) ||
	    (rc = get_mem(root, "ram", &b->ram_base, &b->ram_size, dir, err)))
		return rc;
	if (cJSON_GetObjectItemCaseSensitive(root, "csfr_base") &&
	    (rc = get_u32(root, "csfr_base", &b->csfr_base, dir, err)))
		return rc;
	if (cfg[0]) {
		if (strstr(cfg, ".."))
			return bad(err, dir, "openocd_cfg", "must stay inside the board folder");
		if ((size_t)snprintf(b->openocd_cfg, sizeof(b->openocd_cfg), "%s/%s", dir, cfg) >=
		    sizeof(b->openocd_cfg))
			return bad(err, dir, "openocd_cfg", "makes a path that is too long");
	} else if (!strcmp(b->backend, "openocd")) {
		return bad(err, dir, "openocd_cfg", "is missing (an OpenOCD board needs its config)");
	}
	return 0;
}

bool board_sim_served(const struct board *b)
{
	/* session/openocd_proc.c starts bench-sim for every virtual board of the openocd backend. */
	return b->virtual_board && !strcmp(b->backend, "openocd");
}

int board_parse(const char *json, size_t len, const char *dir, struct board *out, struct bench_error *err)
{
	cJSON *root;
	int rc;

	memset(out, 0, sizeof(*out));
	strcpy(out->counter, "DWT_CYCCNT");
	strcpy(out->backend, "openocd");
	strcpy(out->transport, "dap");
	strcpy(out->arch, "cortex-m");
	strcpy(out->qemu_system, "qemu-system-arm");
	if (str_copy(out->dir, sizeof(out->dir), dir))
		return bench_fail(err, BENCH_E_BOARD, "board folder path too long: move the boards folder");
	root = cJSON_ParseWithLength(json, len);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= json && at <= json + len ? (size_t)(at - json) : 0;
		return bench_fail(err, BENCH_E_BOARD,
		                  "board file %s/board.json is not valid JSON (near byte %zu): fix "
		                  "the board file",
		                  dir, off);
	}
	rc = parse_fields(root, dir, out, err);
	cJSON_Delete(root);
	return rc;
}

int board_check_transport(const struct board *b, const char *transport, const char *what, struct bench_error *err)
{
	if (!strcmp(transport, "dap") || !strcmp(transport, "hla") || (!strcmp(transport, "jtag") && b->virtual_board))
		return 0;
	if (!strcmp(transport, "jtag"))
		return bench_fail(err, BENCH_E_USAGE,
		                  "%s jtag: board %s is reached through its ST-LINK: give dap (dapdirect_swd) or hla "
		                  "(hla_swd)",
		                  what, b->name);
	return bench_fail(err, BENCH_E_USAGE,
	                  "%s %s: give dap (ST-LINK, dapdirect_swd), hla (ST-LINK, hla_swd) or jtag "
	                  "(the virtual board's remote_bitbang)",
	                  what, transport);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t board_list(const char *root, char *out, size_t len)
{
	DIR *d;
	struct dirent *de;
	char *names[256];
	size_t n = 0, used = 0;

	if (len)
		out[0] = '\0';
	if (!root)
		root = board_root();
	if (!root)
		return 0;
	d = opendir(root);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL && n < sizeof(names) / sizeof(names[0])) {
		char path[2048];
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		if (str_fmt(path, sizeof(path), "%s/%s/board.json", root, de->d_name) || stat(path, &st) ||
		    !S_ISREG(st.st_mode))
			continue;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(out + used, len > used ? len - used : 0, "%s%s", i ? ", " : "", names[i]);
		if (w > 0 && used + (size_t)w < len)
			used += (size_t)w;
		free(names[i]);
	}
	return n;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long sz;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || sz > 1 << 20 || fseek(f, 0, SEEK_SET)) {
		(void)fclose(f); /* read-only */
		return -1;
	}
	*buf = malloc((size_t)sz + 1);
	if (!*buf || fread(*buf, 1, (size_t)sz, f) != (size_t)sz) {
		free(*buf);
		*buf = NULL;
		(void)fclose(f); /* read-only */
		return -1;
	}
	(*buf)[sz] = '\0';
	*len = (size_t)sz;
	(void)fclose(f); /* read-only */
	return 0;
}

int board_load(const char *root, const char *name, struct board *out, struct bench_error *err)
{
	char dir[1024], path[1100], known[512];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!root)
		root = board_root();
	if (!root)
		return bench_fail(err, BENCH_E_BOARD,
		                  "board '%s' not found: no boards folder next to bench (looked for %s): pass "
		                  "--boards-dir DIR or set BENCH_BOARDS_DIR",
		                  name, board_root_tried());
	if (!*name || name[0] == '.' || strchr(name, '/') || strlen(name) >= sizeof(out->name) ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/%s", root, name) >= sizeof(dir))
		goto unknown;
	if (str_fmt(path, sizeof(path), "%s/board.json", dir) || read_file(path, &buf, &len))
		goto unknown;
	rc = board_parse(buf, len, dir, out, err);
	free(buf);
	if (!rc && strcmp(out->name, name))
		rc = bad(err, dir, "name", "does not match the folder name");
	return rc;
unknown:
	if (board_list(root, known, sizeof(known)) == 0)
		return bench_fail(err, BENCH_E_BOARD,
		                  "unknown board '%s': no boards in %s: pass --boards-dir DIR or set BENCH_BOARDS_DIR "
		                  "(`bench boards` shows where bench looks)",
		                  name, root);
	return bench_fail(err, BENCH_E_BOARD,
	                  "unknown board '%s': pick one of: %s (from %s; --boards-dir DIR or BENCH_BOARDS_DIR picks "
	                  "another folder)",
	                  name, known, root);
}
