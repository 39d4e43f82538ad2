/* Fault decoding for `bench run`: Armv7-M ARM B3.2.15 (CFSR: MMFSR, BFSR, UFSR), B3.2.16 (HFSR),
 * B1.5.6 (exception frame: R0-R3, R12, LR, ReturnAddress, xPSR), B1.5.8 (EXC_RETURN). */
#include "run/run_fault.h"

#include <stdio.h>
#include <string.h>

#include "base/str.h"

struct bit_name {
	uint32_t mask;
	const char *name;
};

static const struct bit_name hfsr_bits[] = {
    {1u << 1, "VECTTBL"},
    {1u << 30, "FORCED"},
    {1u << 31, "DEBUGEVT"},
};

static const struct bit_name cfsr_bits[] = {
    {1u << 0, "MemManage IACCVIOL"},    {1u << 1, "MemManage DACCVIOL"},    {1u << 3, "MemManage MUNSTKERR"},
    {1u << 4, "MemManage MSTKERR"},     {1u << 5, "MemManage MLSPERR"},     {1u << 8, "BusFault IBUSERR"},
    {1u << 9, "BusFault PRECISERR"},    {1u << 10, "BusFault IMPRECISERR"}, {1u << 11, "BusFault UNSTKERR"},
    {1u << 12, "BusFault STKERR"},      {1u << 13, "BusFault LSPERR"},      {1u << 16, "UsageFault UNDEFINSTR"},
    {1u << 17, "UsageFault INVSTATE"},  {1u << 18, "UsageFault INVPC"},     {1u << 19, "UsageFault NOCP"},
    {1u << 24, "UsageFault UNALIGNED"}, {1u << 25, "UsageFault DIVBYZERO"},
};

static void append(char *out, size_t len, size_t *used, const char *s)
{
	int w = snprintf(out + *used, len > *used ? len - *used : 0, "%s%s", *used ? "; " : "", s);
	if (w > 0)
		*used = *used + (size_t)w < len ? *used + (size_t)w : len;
}

void run_fault_bits(uint32_t cfsr, uint32_t hfsr, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < sizeof(hfsr_bits) / sizeof(hfsr_bits[0]); i++)
		if (hfsr & hfsr_bits[i].mask)
			append(out, len, &used, hfsr_bits[i].name);
	for (size_t i = 0; i < sizeof(cfsr_bits) / sizeof(cfsr_bits[0]); i++)
		if (cfsr & cfsr_bits[i].mask)
			append(out, len, &used, cfsr_bits[i].name);
}

const char *run_fault_exception_name(uint32_t ipsr)
{
	static const char *const names[] = {NULL, NULL, "NMI", "HardFault", "MemManage", "BusFault", "UsageFault"};
	return ipsr < sizeof(names) / sizeof(names[0]) ? names[ipsr] : NULL;
}

/* ", data address 0x42470060 (BFAR: the peripheral bit-band alias)" when a fault address register is valid. */
static void fault_address(struct backend *bk, uint32_t cfsr, run_fault_namer namer, void *ctx, char *out, size_t len)
{
	struct bench_error e;
	uint32_t addr;
	char what[160];
	const char *reg = NULL;

	out[0] = '\0';
	if ((cfsr & RUN_CFSR_BFARVALID) && !backend_read_u32(bk, RUN_REG_BFAR, &addr, &e))
		reg = "BFAR";
	else if ((cfsr & RUN_CFSR_MMARVALID) && !backend_read_u32(bk, RUN_REG_MMFAR, &addr, &e))
		reg = "MMFAR";
	if (!reg)
		return;
	if (namer && namer(ctx, addr, what, sizeof(what)))
		str_fmt_cut(out, len, ", data address 0x%08x (%s: %s)", addr, reg, what);
	else
		str_fmt_cut(out, len, ", data address 0x%08x (%s)", addr, reg);
}

bool run_fault_describe(struct backend *bk, const struct elf_file *elf, uint32_t pc, run_fault_namer namer,
                        void *namer_ctx, char *out, size_t len)
{
	char addr_text[240];
	struct bench_error e;
	uint32_t xpsr, ipsr, cfsr = 0, hfsr = 0, lr = 0, sp = 0, stacked_pc = 0;
	const char *exc;
	char bits[256], where[160];
	bool have_pc = false;

	if (backend_read_reg(bk, BK_REG_XPSR, &xpsr, &e))
		return false;
	ipsr = xpsr & 0x1ffu;
	exc = run_fault_exception_name(ipsr);
	if (!exc)
		return false;
	if (backend_read_u32(bk, RUN_REG_CFSR, &cfsr, &e) || backend_read_u32(bk, RUN_REG_HFSR, &hfsr, &e))
		cfsr = hfsr = 0;
	/* At handler entry (where a vector catch halts, DEMCR.VC_*) LR holds EXC_RETURN, whose bit 2
	 * says which stack holds the frame (B1.5.8), and SP points at the frame. Deeper in a handler
	 * the frame's offset is unknown: then name where the core is instead of guessing. */
	if (!backend_read_reg(bk, BK_REG_LR, &lr, &e) && (lr & 0xffffff00u) == 0xffffff00u) {
		enum backend_reg sp_reg = lr & 4u ? BK_REG_PSP : BK_REG_MSP;
		if (!backend_read_reg(bk, sp_reg, &sp, &e) && !backend_read_u32(bk, sp + 24u, &stacked_pc, &e))
			have_pc = true;
	}
	run_fault_bits(cfsr, hfsr, bits, sizeof(bits));
	fault_address(bk, cfsr, namer, namer_ctx, addr_text, sizeof(addr_text));
	if (have_pc) {
		elf_describe_addr(elf, stacked_pc & ~1u, where, sizeof(where));
		str_fmt_cut(out, len, "%s (%s) at %s%s", exc, bits[0] ? bits : "no fault status bits", where,
		            addr_text);
	} else {
		elf_describe_addr(elf, pc & ~1u, where, sizeof(where));
		str_fmt_cut(out, len, "%s (%s), halted in %s%s", exc, bits[0] ? bits : "no fault status bits", where,
		            addr_text);
	}
	return true;
}

int run_fault_catch(struct backend *bk, struct bench_error *err)
{
	uint32_t demcr;
	int rc = backend_read_u32(bk, RUN_REG_DEMCR, &demcr, err);

	if (rc)
		return rc;
	return backend_write_u32(bk, RUN_REG_DEMCR, demcr | RUN_DEMCR_VC_FAULTS, err);
}
