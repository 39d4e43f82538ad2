/* The end of a stand-alone run (run_end.h). */
#include "run_end.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bus/msg.h"
#include "ledger.h"

/* Best function symbol for addr in one symbol table: the covering one, else the nearest below. */
static void best_symbol(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, uint32_t addr, char *name, size_t len,
                        uint32_t *start)
{
	bool weak = false;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || sh->sh_entsize == 0)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	bool covered = false;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		uint32_t lo = (uint32_t)sym.st_value & ~1u; /* the Thumb bit */
		if (lo > addr)
			continue;
		/* A symbol that covers addr beats one that does not; then the higher start wins; at one
		 * start a strong symbol beats a weak alias (libopencm3's blocking_handler under the
		 * weak names of every handler it stands for). */
		bool covers = addr < lo + (uint32_t)sym.st_size;
		bool is_weak = GELF_ST_BIND(sym.st_info) == STB_WEAK;
		bool better = (covers && !covered) ||
		              (covers == covered && (!name[0] || lo > *start || (lo == *start && weak && !is_weak)));
		if (!better)
			continue;
		const char *s = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!s || !s[0])
			continue;
		(void)snprintf(name, len, "%s", s);
		*start = lo;
		covered = covers;
		weak = is_weak;
	}
}

bool sim_symbol_at(const char *elf, uint32_t addr, char *out, size_t len)
{
	out[0] = '\0';
	if (!elf || elf_version(EV_CURRENT) == EV_NONE)
		return false;
	int fd = open(elf, O_RDONLY);
	if (fd < 0)
		return false;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	char name[128] = "";
	uint32_t start = 0;
	for (Elf_Scn *scn = e ? elf_nextscn(e, NULL) : NULL; scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			best_symbol(e, scn, &sh, addr, name, sizeof(name), &start);
	}
	if (e)
		(void)elf_end(e);
	(void)close(fd);
	if (!name[0])
		return false;
	int w = addr == start ? snprintf(out, len, "%s", name) : snprintf(out, len, "%s+0x%x", name, addr - start);
	return w > 0;
}

const char *sim_end_name(enum core_end why)
{
	static const char *const names[] = {
	    [CORE_END_DONE] = "done",
	    [CORE_END_STOPPED] = "uart-mark",
	    [CORE_END_SPIN] = "spin",
	    [CORE_END_SLEEP] = "sleep",
	    [CORE_END_LOCKUP] = "lockup",
	    [CORE_END_HALTED] = "halted",
	    [CORE_END_MAX_CYCLES] = "max-cycles",
	    [CORE_END_ERROR] = "error",
	};
	return (unsigned)why < sizeof(names) / sizeof(names[0]) && names[why] ? names[why] : "?";
}

/* The active exception's name (Armv7-M ARM B1.5.2, table B1-4) into buf, or NULL in thread mode. */
static const char *exc_name(int exc, char *buf, size_t len)
{
	static const char *const names[16] = {
	    [2] = "NMI",     [3] = "HardFault", [4] = "MemManage", [5] = "BusFault", [6] = "UsageFault",
	    [11] = "SVCall", [12] = "DebugMon", [14] = "PendSV",   [15] = "SysTick",
	};
	if (exc <= 0)
		return NULL;
	if (exc < 16 && names[exc])
		return names[exc];
	(void)snprintf(buf, len, exc < 16 ? "exception%d" : "IRQ%d", exc < 16 ? exc : exc - 16);
	return buf;
}

int sim_report_end(FILE *out, const char *elf, const struct core_end_info *e, bool unattached, bool quiet)
{
	if (e->why == CORE_END_DONE)
		return SIM_EXIT_OK;
	char sym[160], ebuf[24];
	bool have_sym = sim_symbol_at(elf, e->pc, sym, sizeof(sym));
	const char *en = exc_name(e->exc, ebuf, sizeof(ebuf));
	if (fprintf(out, "end pc=0x%08x cyccnt=%u reason=%s", e->pc, e->cyccnt, sim_end_name(e->why)) < 0 ||
	    (en && fprintf(out, " exc=%s", en) < 0) || (have_sym && fprintf(out, " symbol=%s", sym) < 0) ||
	    fputc('\n', out) == EOF)
		return SIM_EXIT_FAIL;
	const char *where = have_sym ? sym : "no symbol";
	switch (e->why) {
	case CORE_END_STOPPED:
		return SIM_EXIT_OK;
	case CORE_END_SLEEP:
		if (unattached)
			return SIM_EXIT_OK;
		if (!quiet)
			sim_msg("the firmware sleeps at 0x%08x (%s) with nothing left to wake it: it has ended", e->pc,
			        where);
		return SIM_EXIT_NO_PROGRESS;
	case CORE_END_SPIN:
		if (!quiet)
			sim_msg("the firmware spins at 0x%08x (%s)%s%s and nothing can interrupt it: it has ended",
			        e->pc, where, en ? " in " : "", en ? en : "");
		return SIM_EXIT_NO_PROGRESS;
	case CORE_END_MAX_CYCLES:
		if (!quiet)
			sim_msg("--max-cycles elapsed at 0x%08x (%s) before the firmware ended: give more cycles",
			        e->pc, where);
		return SIM_EXIT_FAIL;
	case CORE_END_ERROR:
		sim_msg("the built-in debugger could not reach the core's debug registers");
		return SIM_EXIT_FAIL;
	default:
		return SIM_EXIT_FAIL;
	}
}

/* stm32f4_on_uart_mark: the mark went out; the run ends at the next block boundary. */
static void on_uart_mark(void *ctx)
{
	core_end_run(ctx);
}

int sim_run_standalone(struct board *b, const struct sim_options *o)
{
	uint64_t max = o->max_cycles ? o->max_cycles : UINT64_MAX;
	struct sim_ledger ledger;
	struct core_end_info end = {0};
	if (o->until_uart)
		stm32f4_on_uart_mark(b->chip, o->until_uart, on_uart_mark, b->core);
	if (o->ledger)
		sim_ledger_start(&ledger, b->core, stdout);
	(void)(o->no_debugger
	           ? core_run_unattached(b->core, max, &end)
	           : core_run_standalone(b->core, max, stdout, o->ledger ? sim_ledger_halt : NULL, &ledger, &end));
	stm32f4_uart_flush(b->chip); /* a last line without its newline (pqm4's `#`) before the end line */
	int rc = sim_report_end(stdout, o->elf, &end, o->no_debugger, o->quiet);
	if (o->ledger && sim_ledger_report(&ledger, b->core, stdout, o->ledger_file) != 0)
		rc = SIM_EXIT_FAIL;
	if (fflush(stdout) != 0)
		rc = SIM_EXIT_FAIL;
	return rc;
}
