/* The System Control Space page 0xE000E000-0xE000EFFF as a table of named registers (Armv7-M ARM
 * B3.2 "System Control Space (SCS)", table B3-4 for the SCB; B3.3 SysTick; B3.4 NVIC; the FP
 * registers B3.2.20-B3.2.24; the debug registers C1.6; chapter B4 for the CPUID scheme). Each row
 * says where a register is, its name, its section, and either its value (an ID register), the word
 * of state it reads and the bits a write stores (with the value at reset), or the functions that
 * read and write it; scs_read/scs_write find the row and do the byte-lane work once.
 * Values are those of the STM32F4's Cortex-M4F r0p1 (PM0214 chapter 4). */
#include "scs/debug.h"
#include "scs/exc.h"
#include "scs/scs.h"
#include "scs/scs_state.h"
#include "scs/systick.h"
#include "scs/romtable.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define ICSR_PENDSTSET  (1u << 26)
#define ICSR_PENDSTCLR  (1u << 25)
#define ICSR_PENDSVSET  (1u << 28)
#define ICSR_PENDSVCLR  (1u << 27)
#define ICSR_NMIPENDSET (1u << 31)

/* ---- NVIC (B3.4) and SCB (B3.2) registers with behaviour ---------------------------------------- */

static uint32_t irq_bits(const struct scs *s, const bool *arr, unsigned word)
{
	uint32_t v = 0;
	for (unsigned b = 0; b < 32; b++) {
		unsigned irq = word * 32 + b;
		if (irq < s->num_irq && arr[EXC_IRQ0 + irq])
			v |= 1u << b;
	}
	return v;
}

static void irq_set_bits(struct scs *s, bool *arr, unsigned word, uint32_t v, bool value)
{
	for (unsigned b = 0; b < 32; b++) {
		unsigned irq = word * 32 + b;
		if (irq < s->num_irq && (v & (1u << b)))
			arr[EXC_IRQ0 + irq] = value;
	}
	scs_request_stop(s);
}

static uint32_t icsr_read(struct scs *s)
{
	int cur = exc_current(s);
	unsigned nactive = 0;
	int pend = 0, pend_prio = 0x7FFFFFFF;
	for (int e = EXC_NMI; e < s->num_exc; e++) {
		nactive += s->exc.active[e];
		if (s->exc.pending[e] && s->exc.enabled[e]) {
			int p = e < EXC_MEMMANAGE ? e - 4 : s->exc.prio[e];
			if (p < pend_prio) {
				pend = e;
				pend_prio = p;
			}
		}
	}
	bool irq_pending = false;
	for (int e = EXC_IRQ0; e < s->num_exc; e++)
		irq_pending |= s->exc.pending[e];
	return (uint32_t)cur | (nactive <= 1 ? 1u << 11 : 0) | (uint32_t)pend << 12 | (irq_pending ? 1u << 22 : 0) |
	       (s->exc.pending[EXC_SYSTICK] ? ICSR_PENDSTSET : 0) | (s->exc.pending[EXC_PENDSV] ? ICSR_PENDSVSET : 0) |
	       (s->exc.pending[EXC_NMI] ? ICSR_NMIPENDSET : 0);
}

static void icsr_write(struct scs *s, uint32_t v)
{
	if (v & ICSR_NMIPENDSET)
		exc_set_pending(s, EXC_NMI);
	if (v & ICSR_PENDSVSET)
		exc_set_pending(s, EXC_PENDSV);
	else if (v & ICSR_PENDSVCLR)
		s->exc.pending[EXC_PENDSV] = false;
	if (v & ICSR_PENDSTSET)
		exc_set_pending(s, EXC_SYSTICK);
	else if (v & ICSR_PENDSTCLR)
		s->exc.pending[EXC_SYSTICK] = false;
}

static uint32_t shcsr_read(const struct scs *s)
{
	static const struct {
		int exc;
		unsigned bit;
	} act[] = {{EXC_MEMMANAGE, 0}, {EXC_BUSFAULT, 1}, {EXC_USAGEFAULT, 3}, {EXC_SVCALL, 7},
	           {EXC_DEBUGMON, 8},  {EXC_PENDSV, 10},  {EXC_SYSTICK, 11}};
	uint32_t v = 0;
	for (size_t i = 0; i < sizeof(act) / sizeof(act[0]); i++)
		if (s->exc.active[act[i].exc])
			v |= 1u << act[i].bit;
	v |= (s->exc.pending[EXC_USAGEFAULT] ? 1u << 12 : 0) | (s->exc.pending[EXC_MEMMANAGE] ? 1u << 13 : 0) |
	     (s->exc.pending[EXC_BUSFAULT] ? 1u << 14 : 0) | (s->exc.pending[EXC_SVCALL] ? 1u << 15 : 0);
	v |= (s->exc.enabled[EXC_MEMMANAGE] ? 1u << 16 : 0) | (s->exc.enabled[EXC_BUSFAULT] ? 1u << 17 : 0) |
	     (s->exc.enabled[EXC_USAGEFAULT] ? 1u << 18 : 0);
	return v;
}

static void shcsr_write(struct scs *s, uint32_t v)
{
	s->exc.enabled[EXC_MEMMANAGE] = (v >> 16) & 1u;
	s->exc.enabled[EXC_BUSFAULT] = (v >> 17) & 1u;
	s->exc.enabled[EXC_USAGEFAULT] = (v >> 18) & 1u;
	s->exc.pending[EXC_USAGEFAULT] = (v >> 12) & 1u;
	s->exc.pending[EXC_MEMMANAGE] = (v >> 13) & 1u;
	s->exc.pending[EXC_BUSFAULT] = (v >> 14) & 1u;
	s->exc.pending[EXC_SVCALL] = (v >> 15) & 1u;
	scs_request_stop(s);
}

static void write_prio_bytes(struct scs *s, int first_exc, uint32_t v, uint32_t bytemask)
{
	for (unsigned b = 0; b < 4; b++) {
		int e = first_exc + (int)b;
		if ((bytemask >> (8 * b)) & 0xFFu && e < s->num_exc)
			s->exc.prio[e] = (uint8_t)((v >> (8 * b)) & s->exc.prio_mask);
	}
	scs_request_stop(s);
}

static void aircr_write(struct scs *s, uint32_t v)
{
	if ((v >> 16) != 0x05FAu)
		return; /* VECTKEY (B3.2.6) */
	s->scb.aircr_prigroup = (v >> 8) & 7u;
	if (v & 4u) { /* SYSRESETREQ: the whole chip but the debug logic */
		s->ops->local_reset(s->core, true);
	} else if (v & 1u) { /* VECTRESET: the core only */
		s->ops->local_reset(s->core, false);
	} else if (v & 2u) { /* VECTCLRACTIVE */
		memset(s->exc.active, 0, sizeof(s->exc.active));
	}
}

/* ---- row functions: i is the word's index within its row ---------------------------------------- */

static uint32_t ictr_read(struct scs *s, unsigned i)
{
	(void)i;
	return (s->num_irq - 1u) / 32u; /* INTLINESNUM: interrupt lines in steps of 32 */
}

static uint32_t iser_read(struct scs *s, unsigned i)
{
	return irq_bits(s, s->exc.enabled, i);
}

static void iser_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)lanes, (void)who;
	irq_set_bits(s, s->exc.enabled, i, v, true);
}

static void icer_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)lanes, (void)who;
	irq_set_bits(s, s->exc.enabled, i, v, false);
}

static uint32_t ispr_read(struct scs *s, unsigned i)
{
	return irq_bits(s, s->exc.pending, i);
}

static void ispr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)lanes, (void)who;
	irq_set_bits(s, s->exc.pending, i, v, true);
}

static void icpr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)lanes, (void)who;
	irq_set_bits(s, s->exc.pending, i, v, false);
}

static uint32_t iabr_read(struct scs *s, unsigned i)
{
	return irq_bits(s, s->exc.active, i);
}

/* NVIC_IPRn: the priority bytes of IRQs 4n..4n+3 (B3.4.7). */
static uint32_t ipr_read(struct scs *s, unsigned i)
{
	uint32_t v = 0;
	for (unsigned b = 0; b < 4; b++) {
		unsigned irq = 4 * i + b;
		if (irq < s->num_irq)
			v |= (uint32_t)s->exc.prio[EXC_IRQ0 + irq] << (8 * b);
	}
	return v;
}

static void ipr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)who;
	if (4 * i < s->num_irq)
		write_prio_bytes(s, EXC_IRQ0 + (int)(4 * i), v, lanes);
}

/* SHPR1-3: the priority bytes of exceptions 4..15 (B3.2.10). */
static uint32_t shpr_read(struct scs *s, unsigned i)
{
	uint32_t v = 0;
	for (unsigned b = 0; b < 4; b++)
		v |= (uint32_t)s->exc.prio[4 + 4 * i + b] << (8 * b);
	return v;
}

static void shpr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)who;
	write_prio_bytes(s, 4 + 4 * (int)i, v, lanes);
}

static uint32_t icsr_row_read(struct scs *s, unsigned i)
{
	(void)i;
	return icsr_read(s);
}

static void icsr_row_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	icsr_write(s, v);
}

static uint32_t aircr_read(struct scs *s, unsigned i)
{
	(void)i;
	return 0xFA050000u | s->scb.aircr_prigroup << 8; /* VECTKEYSTAT reads 0xFA05 */
}

static void aircr_row_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	aircr_write(s, v);
}

static uint32_t shcsr_row_read(struct scs *s, unsigned i)
{
	(void)i;
	return shcsr_read(s);
}

static void shcsr_row_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	shcsr_write(s, v);
}

/* CPACR and FPCCR decide whether FP instructions trap (NOCP, lazy stacking): the blocks' hooks follow. */
static void fp_access_changed(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)v, (void)lanes, (void)who;
	exc_update_fp_trap(s);
	scs_request_stop(s);
}

static uint32_t fpccr_read(struct scs *s, unsigned i)
{
	(void)i;
	return s->scb.fpccr;
}

static void fpccr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	/* ASPEN, LSPEN and LSPACT are writable; the frame-state bits are the core's (B3.2.22). */
	s->scb.fpccr = (s->scb.fpccr & ~0xC0000001u) | (v & 0xC0000001u);
	fp_access_changed(s, i, v, lanes, who);
}

static void stir_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	if ((v & 0x1FFu) < s->num_irq)
		exc_set_pending(s, EXC_IRQ0 + (int)(v & 0x1FFu));
}

static uint32_t syst_csr_read(struct scs *s, unsigned i)
{
	(void)i;
	return systick_csr_read(s);
}

static void syst_csr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	systick_csr_write(s, v);
}

static uint32_t syst_rvr_read(struct scs *s, unsigned i)
{
	(void)i;
	return systick_rvr_read(s);
}

static void syst_rvr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	systick_rvr_write(s, v);
}

static uint32_t syst_cvr_read(struct scs *s, unsigned i)
{
	(void)i;
	return systick_cvr_read(s);
}

static void syst_cvr_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	systick_cvr_write(s, v);
}

static uint32_t dhcsr_row_read(struct scs *s, unsigned i)
{
	(void)i;
	return debug_dhcsr_read(s);
}

static void dhcsr_row_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes;
	debug_dhcsr_write(s, who, v);
}

static void dcrsr_row_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes;
	debug_dcrsr_write(s, who, v);
}

static uint32_t demcr_read(struct scs *s, unsigned i)
{
	(void)i;
	return debug_demcr(s);
}

static void demcr_row_write(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who)
{
	(void)i, (void)lanes, (void)who;
	debug_demcr_write(s, v);
}

static uint32_t coresight_id_read(struct scs *s, unsigned i)
{
	(void)s;
	uint32_t v = 0;
	if (romtable_id_read(ROMTABLE_SCS_BASE, 0xFD0u + 4u * i, &v) != 0)
		v = 0;
	return v;
}

/* ---- the table ----------------------------------------------------------------------------------- */

enum scs_kind {
	SCS_CONST, /* reads `value` (ID registers); writes are ignored */
	SCS_FIELD, /* a word of state at `field`: reads it; a write stores v & wmask, then calls `write` if set */
	SCS_W1C,   /* a word of state at `field`, write-one-to-clear (B3.2.15): only the lanes written */
	SCS_FN,    /* `read` and `write`; either may be NULL (RAZ, WI) */
};

/* Who resets a stored word: the core's reset (B1.5.5, also VECTRESET and SYSRESETREQ) or only a power-on
 * reset (the debug registers, C1.4: a local reset keeps the debugger's state). */
enum scs_domain { SCS_CORE = 0, SCS_DEBUG = 1 };

struct scs_reg {
	uint16_t off;     /* the first word's offset in the page */
	uint16_t words;   /* consecutive words the row covers (NVIC_ISER0-7, NVIC_IPR0-123) */
	const char *name; /* the manual's name; for a row of several words, of the first */
	const char *ref;  /* where the Armv7-M ARM defines it */
	enum scs_kind kind;
	bool lanes; /* a byte or halfword write passes only the lanes written (the rest zero) instead of
	             * merging with a read: byte-accessible registers (B3.4.7, B3.2.10) and set/clear bits */
	enum scs_domain domain;
	uint16_t field; /* SCS_FIELD, SCS_W1C: offsetof(struct scs, ...) of the stored word */
	uint32_t wmask; /* SCS_FIELD: the bits a write stores (0: read-only) */
	uint32_t value; /* SCS_CONST: the value; SCS_FIELD, SCS_W1C: the value at reset */
	uint32_t (*read)(struct scs *s, unsigned i);
	void (*write)(struct scs *s, unsigned i, uint32_t v, uint32_t lanes, enum bus_initiator who);
};

/* The table rows below: each argument is one designated initializer's value or, for FIELD and W1C,
 * a member name for offsetof(), which parentheses would not compile. */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define CONST(o, n, r, v)                                                                                              \
	{                                                                                                              \
		.off = o, .words = 1, .name = n, .ref = r, .kind = SCS_CONST, .value = v                               \
	}
#define FIELD(o, n, r, f, m, v, wr)                                                                                    \
	{                                                                                                              \
		.off = o, .words = 1, .name = n, .ref = r, .kind = SCS_FIELD, .field = offsetof(struct scs, f),        \
		.wmask = m, .value = v, .write = wr                                                                    \
	}
#define W1C(o, n, r, f, d)                                                                                             \
	{                                                                                                              \
		.off = o, .words = 1, .name = n, .ref = r, .kind = SCS_W1C, .lanes = true, .domain = d,                \
		.field = offsetof(struct scs, f)                                                                       \
	}
#define FN(o, w, n, r, l, rd, wr)                                                                                      \
	{                                                                                                              \
		.off = o, .words = w, .name = n, .ref = r, .kind = SCS_FN, .lanes = l, .read = rd, .write = wr         \
	}
/* NOLINTEND(bugprone-macro-parentheses) */

/* Sorted by offset, rows never overlap (scs_check). Offsets no row covers are reserved: RAZ/WI. */
static const struct scs_reg scs_regs[] = {
    FN(0x004, 1, "ICTR", "B3.4", false, ictr_read, NULL),
    CONST(0x008, "ACTLR", "B3.2", 0),
    FN(0x010, 1, "SYST_CSR", "B3.3.3", false, syst_csr_read, syst_csr_write),
    FN(0x014, 1, "SYST_RVR", "B3.3.4", false, syst_rvr_read, syst_rvr_write),
    FN(0x018, 1, "SYST_CVR", "B3.3.5", false, syst_cvr_read, syst_cvr_write),
    CONST(0x01C, "SYST_CALIB", "B3.3.6", 0x40002903u), /* SKEW, TENMS (PM0214 4.5.4) */
    FN(0x100, 8, "NVIC_ISER0", "B3.4", true, iser_read, iser_write),
    FN(0x180, 8, "NVIC_ICER0", "B3.4", true, iser_read, icer_write),
    FN(0x200, 8, "NVIC_ISPR0", "B3.4", true, ispr_read, ispr_write),
    FN(0x280, 8, "NVIC_ICPR0", "B3.4", true, ispr_read, icpr_write),
    FN(0x300, 8, "NVIC_IABR0", "B3.4", false, iabr_read, NULL),
    FN(0x400, 124, "NVIC_IPR0", "B3.4.7", true, ipr_read, ipr_write),
    CONST(0xD00, "CPUID", "B3.2", 0x410FC241u), /* Cortex-M4 r0p1 */
    FN(0xD04, 1, "ICSR", "B3.2", false, icsr_row_read, icsr_row_write),
    FIELD(0xD08, "VTOR", "B3.2", scb.vtor, 0xFFFFFF80u, 0, NULL),
    FN(0xD0C, 1, "AIRCR", "B3.2.6", false, aircr_read, aircr_row_write),
    FIELD(0xD10, "SCR", "B3.2", scb.scr, 0x16u, 0, NULL),
    FIELD(0xD14, "CCR", "B3.2.8", scb.ccr, 0x31Bu, 0x200u, NULL), /* STKALIGN resets to 1 on r0p1 (PM0214 4.4.8) */
    FN(0xD18, 3, "SHPR1", "B3.2.10", true, shpr_read, shpr_write),
    FN(0xD24, 1, "SHCSR", "B3.2", false, shcsr_row_read, shcsr_row_write),
    W1C(0xD28, "CFSR", "B3.2.15", scb.cfsr, SCS_CORE),
    W1C(0xD2C, "HFSR", "B3.2.16", scb.hfsr, SCS_CORE),
    W1C(0xD30, "DFSR", "C1.6.1", dbg.dfsr, SCS_DEBUG),
    FIELD(0xD34, "MMFAR", "B3.2", scb.mmfar, 0xFFFFFFFFu, 0, NULL),
    FIELD(0xD38, "BFAR", "B3.2", scb.bfar, 0xFFFFFFFFu, 0, NULL),
    FIELD(0xD3C, "AFSR", "B3.2", scb.afsr, 0, 0, NULL), /* nothing implementation defined: reads 0 */
    /* The CPUID scheme of the Cortex-M4F r0p1 (PM0214 4.4, Cortex-M4 TRM 4.1 table 4-1). */
    CONST(0xD40, "ID_PFR0", "B4", 0x00000030u),
    CONST(0xD44, "ID_PFR1", "B4", 0x00000200u),
    CONST(0xD48, "ID_DFR0", "B4", 0x00100000u),
    CONST(0xD4C, "ID_AFR0", "B4", 0x00000000u),
    CONST(0xD50, "ID_MMFR0", "B4", 0x00100030u),
    CONST(0xD54, "ID_MMFR1", "B4", 0x00000000u),
    CONST(0xD58, "ID_MMFR2", "B4", 0x01000000u),
    CONST(0xD5C, "ID_MMFR3", "B4", 0x00000000u),
    CONST(0xD60, "ID_ISAR0", "B4", 0x01101110u),
    CONST(0xD64, "ID_ISAR1", "B4", 0x02111000u),
    CONST(0xD68, "ID_ISAR2", "B4", 0x21112231u),
    CONST(0xD6C, "ID_ISAR3", "B4", 0x01111110u),
    CONST(0xD70, "ID_ISAR4", "B4", 0x01310132u),
    FIELD(0xD88, "CPACR", "B3.2.20", scb.cpacr, 0x00F00000u, 0, fp_access_changed), /* CP10, CP11 */
    CONST(0xD90, "MPU_TYPE", "B3.5", 0x00000800u), /* 8 regions (the MPU is not modelled) */
    FN(0xDF0, 1, "DHCSR", "C1.6.3", false, dhcsr_row_read, dhcsr_row_write),
    FN(0xDF4, 1, "DCRSR", "C1.6.4", false, NULL, dcrsr_row_write),
    {.off = 0xDF8,
     .words = 1,
     .name = "DCRDR",
     .ref = "C1.6",
     .kind = SCS_FIELD,
     .domain = SCS_DEBUG,
     .field = offsetof(struct scs, dbg.dcrdr),
     .wmask = 0xFFFFFFFFu},
    FN(0xDFC, 1, "DEMCR", "C1.6.5", false, demcr_read, demcr_row_write),
    FN(0xF00, 1, "STIR", "B3.4", false, NULL, stir_write),
    FN(0xF34, 1, "FPCCR", "B3.2.22", false, fpccr_read, fpccr_write),
    FIELD(0xF38, "FPCAR", "B3.2.20-B3.2.24", scb.fpcar, ~7u, 0, NULL),
    FIELD(0xF3C, "FPDSCR", "B3.2.20-B3.2.24", scb.fpdscr, 0x07C00000u, 0, NULL), /* AHP, DN, FZ, RMode */
    CONST(0xF40, "MVFR0", "B3.2.20-B3.2.24", 0x10110021u),                       /* single precision VFPv4-D16 */
    CONST(0xF44, "MVFR1", "B3.2.20-B3.2.24", 0x11000011u),
    FN(0xFD0, 12, "PIDR4", "CoreSight IHI 0029 B2.1", false, coresight_id_read, NULL), /* romtable.s */
};

#define N_REGS (sizeof(scs_regs) / sizeof(scs_regs[0]))

static const struct scs_reg *scs_find(uint32_t word)
{
	size_t lo = 0, hi = N_REGS;
	while (lo < hi) { /* the last row starting at or below word */
		size_t mid = (lo + hi) / 2;
		if (scs_regs[mid].off <= word)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct scs_reg *r = &scs_regs[lo - 1];
	return word < r->off + 4u * r->words ? r : NULL;
}

static uint32_t *scs_field(struct scs *s, const struct scs_reg *r)
{
	return (uint32_t *)((char *)s + r->field);
}

static uint32_t read_word(struct scs *s, const struct scs_reg *r, uint32_t word)
{
	unsigned i = (word - r->off) / 4;
	switch (r->kind) {
	case SCS_CONST:
		return r->value;
	case SCS_FIELD:
	case SCS_W1C:
		return *scs_field(s, r);
	case SCS_FN:
	default:
		return r->read ? r->read(s, i) : 0;
	}
}

static void write_word(struct scs *s, const struct scs_reg *r, uint32_t word, uint32_t v, uint32_t lanes,
                       enum bus_initiator who)
{
	unsigned i = (word - r->off) / 4;
	switch (r->kind) {
	case SCS_CONST:
		return;
	case SCS_FIELD:
		if (!r->wmask)
			return;
		*scs_field(s, r) = v & r->wmask;
		if (r->write)
			r->write(s, i, v, lanes, who);
		return;
	case SCS_W1C:
		*scs_field(s, r) &= ~v;
		return;
	case SCS_FN:
	default:
		if (r->write)
			r->write(s, i, v, lanes, who);
		return;
	}
}

enum bus_result scs_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v)
{
	(void)who;
	uint32_t word = off & ~3u;
	const struct scs_reg *r = scs_find(word);
	*v = bus_extract(r ? read_word(ctx, r, word) : 0, off, size);
	return BUS_OK;
}

enum bus_result scs_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v)
{
	struct scs *s = ctx;
	uint32_t word = off & ~3u;
	const struct scs_reg *r = scs_find(word);
	if (!r)
		return BUS_OK; /* reserved: WI */
	if (size == 4)
		write_word(s, r, word, v, 0xFFFFFFFFu, who);
	else if (r->lanes)
		write_word(s, r, word, bus_merge(0, off, size, v), bus_lanes(off, size), who);
	else /* the other bytes keep their value: read, merge, write the word */
		write_word(s, r, word, bus_merge(read_word(s, r, word), off, size, v), 0xFFFFFFFFu, who);
	return BUS_OK;
}

void scs_reset(struct scs *s, bool debug_domain)
{
	for (size_t i = 0; i < N_REGS; i++) {
		const struct scs_reg *r = &scs_regs[i];
		if ((r->kind == SCS_FIELD || r->kind == SCS_W1C) && (r->domain == SCS_DEBUG) == debug_domain)
			*scs_field(s, r) = r->value;
	}
}

const char *scs_name(uint32_t off)
{
	const struct scs_reg *r = scs_find(off & ~3u);
	return r ? r->name : NULL;
}

int scs_check(char *err, size_t errlen)
{
	for (size_t i = 1; i < N_REGS; i++) {
		const struct scs_reg *p = &scs_regs[i - 1], *r = &scs_regs[i];
		if (r->off < p->off + 4u * p->words) {
			(void)snprintf(err, errlen, "core: SCS table: %s at 0x%03x overlaps or precedes %s", r->name,
			               r->off, p->name);
			return -1;
		}
	}
	return 0;
}
