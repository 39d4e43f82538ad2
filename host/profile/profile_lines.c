/* An address's source line from the ELF's DWARF .debug_line, through elfutils libdw (the library
 * family of the libelf bench reads ELFs with): dwarf_addrdie finds the compile unit covering the
 * address, dwarf_getsrc_die the line row at or before it (DWARF 5, 6.2). Built without libdw
 * (BENCH_HAVE_LIBDW unset), every lookup is unknown and profiles have functions only. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile/profile.h"

#ifdef BENCH_HAVE_LIBDW
#include <elfutils/libdw.h>

struct profile_lines {
	int fd;
	Dwarf *dw;
};

struct profile_lines *profile_lines_open(const char *elf_path)
{
	struct profile_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->fd = elf_path ? open(elf_path, O_RDONLY | O_CLOEXEC) : -1;
	if (l->fd < 0) {
		free(l);
		return NULL;
	}
	l->dw = dwarf_begin(l->fd, DWARF_C_READ);
	if (!l->dw) { /* no DWARF in the ELF: functions only */
		(void)close(l->fd);
		free(l);
		return NULL;
	}
	return l;
}

void profile_lines_close(struct profile_lines *l)
{
	if (!l)
		return;
	(void)dwarf_end(l->dw);
	(void)close(l->fd);
	free(l);
}

bool profile_lines_find(struct profile_lines *l, uint32_t addr, const char **file, unsigned *line)
{
	Dwarf_Die cu;
	Dwarf_Line *row;
	const char *src;
	int ln = 0;

	if (!l || !dwarf_addrdie(l->dw, addr, &cu))
		return false;
	row = dwarf_getsrc_die(&cu, addr);
	if (!row || dwarf_lineno(row, &ln) || ln <= 0 || !(src = dwarf_linesrc(row, NULL, NULL)))
		return false;
	*file = src; /* owned by l->dw: valid until profile_lines_close */
	*line = (unsigned)ln;
	return true;
}

#else

struct profile_lines *profile_lines_open(const char *elf_path)
{
	(void)elf_path;
	return NULL;
}

void profile_lines_close(struct profile_lines *l)
{
	(void)l;
}

bool profile_lines_find(struct profile_lines *l, uint32_t addr, const char **file, unsigned *line)
{
	(void)l;
	(void)addr;
	(void)file;
	(void)line;
	return false;
}

#endif
