/* An exact profile's instructions disassembled (profile.h): the bytes at each address from the
 * ELF's allocated sections (libelf, as firmware/elf.c reads the ELF), decoded by capstone in Thumb
 * M-profile mode, the disassembler bench-sim's cycle model decodes with (sim/timing/cycles.c), so
 * the listing names each instruction as the model saw it. Not arm-none-eabi-objdump: a process per
 * report and a tool the host need not have; capstone is already a build dependency. */
#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "base/str.h"
#include "profile/profile.h"

/* Up to 4 bytes at addr from an allocated section with contents; how many, 0 when none. */
static size_t bytes_at(Elf *elf, uint32_t addr, uint8_t *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_type != SHT_PROGBITS ||
		    addr < sh.sh_addr || addr >= sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr >= d->d_size)
			return 0;
		size_t off = addr - sh.sh_addr, n = d->d_size - off < 4 ? d->d_size - off : 4;
		memcpy(out, (const uint8_t *)d->d_buf + off, n);
		return n;
	}
	return 0;
}

int profile_disasm(struct bench_profile *p, const char *elf_path)
{
	csh cs;
	cs_insn *insn = NULL;
	Elf *elf;
	int fd;

	if (!elf_path || elf_version(EV_CURRENT) == EV_NONE || (fd = open(elf_path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!(elf = elf_begin(fd, ELF_C_READ, NULL))) {
		(void)close(fd);
		return -1;
	}
	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS, &cs) != CS_ERR_OK) {
		(void)elf_end(elf);
		(void)close(fd);
		return -1;
	}
	for (size_t i = 0; i < p->n_insns; i++) {
		struct bench_profile_insn *in = &p->insns[i];
		uint8_t b[4];
		size_t n = bytes_at(elf, in->addr, b);
		if (n && cs_disasm(cs, b, n, in->addr, 1, &insn) == 1) {
			str_fmt_cut(in->disasm, sizeof(in->disasm), "%s%s%s", insn->mnemonic,
			            insn->op_str[0] ? " " : "", insn->op_str);
			cs_free(insn, 1);
		}
	}
	(void)cs_close(&cs);
	(void)elf_end(elf);
	(void)close(fd);
	return 0;
}
