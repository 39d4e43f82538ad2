/* The STM32F405/407 FLASH controller (RM0090 rev 19, section 3): the unlock sequences, sector and
 * mass erase, programming with FLASH_CR.PG at the parallelism FLASH_CR.PSIZE selects, the error
 * flags of FLASH_SR and write protection from FLASH_OPTCR.nWRP. Operations finish at once: BSY is
 * never seen set. This is what OpenOCD 0.12's src/flash/nor/stm32f2x.c drives: it unlocks with
 * KEYR, erases with CR = SER | SNB(n) | STRT and polls SR.BSY, then programs half-words through a
 * loader on the core (CR = PG | PSIZE_16, STRH) or, without a work area, through the MEM-AP. */
#include <string.h>

#include "chip/stm32f4_priv.h"

/* FLASH_CR (RM0090 3.9.7) */
#define CR_PG          (1u << 0)
#define CR_SER         (1u << 1)
#define CR_MER         (1u << 2)
#define CR_SNB_SHIFT   3
#define CR_SNB_MASK    (0xFu << CR_SNB_SHIFT) /* 4 bits on F405/407 */
#define CR_PSIZE_SHIFT 8
#define CR_PSIZE_MASK  (3u << CR_PSIZE_SHIFT)
#define CR_STRT        (1u << 16)
#define CR_EOPIE       (1u << 24)
#define CR_ERRIE       (1u << 25)
#define CR_LOCK        (1u << 31)
#define CR_RW_MASK     (CR_PG | CR_SER | CR_MER | CR_SNB_MASK | CR_PSIZE_MASK | CR_EOPIE | CR_ERRIE)

/* FLASH_SR (RM0090 3.9.6): EOP and the error flags are cleared by writing 1. */
#define SR_EOP      (1u << 0)
#define SR_OPERR    (1u << 1)
#define SR_WRPERR   (1u << 4)
#define SR_PGAERR   (1u << 5)
#define SR_PGPERR   (1u << 6)
#define SR_PGSERR   (1u << 7)
#define SR_W1C_MASK (SR_EOP | SR_OPERR | SR_WRPERR | SR_PGAERR | SR_PGPERR | SR_PGSERR)

/* FLASH_OPTCR (RM0090 3.9.8) */
#define OPTCR_OPTLOCK (1u << 0)
#define OPTCR_OPTSTRT (1u << 1)
#define OPTCR_RESET   0x0FFFAAEDu
#define OPTCR_RW_MASK 0x0FFFFFEDu /* nWRP, RDP, USER, BOR_LEV, OPTLOCK (bit 1 OPTSTRT is a trigger) */

#define ACR_RW_MASK 0x00000707u /* LATENCY[2:0], PRFTEN, ICEN, DCEN; ICRST/DCRST read 0 */

/* Unlock keys (RM0090 3.5.1 and 3.6.2) */
#define KEY1    0x45670123u
#define KEY2    0xCDEF89ABu
#define OPTKEY1 0x08192A3Bu
#define OPTKEY2 0x4C5D6E7Fu

/* 1 MiB in 12 sectors: 4 x 16 KiB, 1 x 64 KiB, 7 x 128 KiB (RM0090 table 5). */
static const struct {
	uint32_t off, size;
} sectors[] = {
    {0x00000, 0x04000}, {0x04000, 0x04000}, {0x08000, 0x04000}, {0x0C000, 0x04000},
    {0x10000, 0x10000}, {0x20000, 0x20000}, {0x40000, 0x20000}, {0x60000, 0x20000},
    {0x80000, 0x20000}, {0xA0000, 0x20000}, {0xC0000, 0x20000}, {0xE0000, 0x20000},
};
#define N_SECTORS (sizeof(sectors) / sizeof(sectors[0]))

static int sector_of(uint32_t off)
{
	for (unsigned i = 0; i < N_SECTORS; i++)
		if (off - sectors[i].off < sectors[i].size)
			return (int)i;
	return -1;
}

static bool sector_protected(const struct stm32f4 *st, int n)
{
	/* nWRPi = 0 protects sector i (RM0090 3.6.5). */
	return !((st->fl.optcr >> 16) & (1u << n));
}

static void code_changed(struct stm32f4 *st, uint32_t off, uint32_t size)
{
	if (!st->on_code_write)
		return;
	st->on_code_write(st->on_code_write_ctx, STM32F4_FLASH_BASE + off, size);
	st->on_code_write(st->on_code_write_ctx, STM32F4_FLASH_ALIAS + off, size);
}

static void op_done(struct stm32f4 *st)
{
	/* EOP is only set when end-of-operation interrupts are enabled (RM0090 3.9.6). */
	if (st->fl.cr & CR_EOPIE)
		st->fl.sr |= SR_EOP;
}

void stm32f4_flash_reset(struct stm32f4 *st)
{
	struct stm32f4_flash_ctl *fl = &st->fl;
	uint32_t optcr = fl->optcr ? fl->optcr : OPTCR_RESET;
	memset(fl, 0, sizeof(*fl));
	art_reset(&st->art); /* FLASH_ACR reads 0 after reset: no wait states, caches empty and off */
	fl->cr = CR_LOCK;
	/* Option bytes survive reset; OPTLOCK is set again (RM0090 3.9.8). */
	fl->optcr = optcr | OPTCR_OPTLOCK;
}

static void start_erase(struct stm32f4 *st, uint32_t cr)
{
	struct stm32f4_flash_ctl *fl = &st->fl;
	if (cr & CR_PG) {
		fl->sr |= SR_PGSERR; /* erase and program at once is a sequence error */
		return;
	}
	if (cr & CR_MER) {
		for (unsigned i = 0; i < N_SECTORS; i++) {
			if (sector_protected(st, (int)i)) {
				fl->sr |= SR_WRPERR; /* mass erase refuses if any sector is protected */
				return;
			}
		}
		memset(st->flash, 0xFF, STM32F4_FLASH_SIZE);
		code_changed(st, 0, STM32F4_FLASH_SIZE);
		op_done(st);
		return;
	}
	unsigned n = (cr & CR_SNB_MASK) >> CR_SNB_SHIFT;
	if (n >= N_SECTORS) {
		fl->sr |= SR_PGSERR; /* no such sector on a 1 MiB part */
		return;
	}
	if (sector_protected(st, (int)n)) {
		fl->sr |= SR_WRPERR;
		return;
	}
	memset(st->flash + sectors[n].off, 0xFF, sectors[n].size);
	code_changed(st, sectors[n].off, sectors[n].size);
	op_done(st);
}

enum bus_result stm32f4_flash_reg_read(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t *value)
{
	const struct stm32f4_flash_ctl *fl = &st->fl;
	uint32_t v;
	switch (off & ~3u) {
	case 0x00:
		v = fl->acr;
		break;
	case 0x04: /* KEYR, OPTKEYR: write-only */
	case 0x08:
		v = 0;
		break;
	case 0x0C:
		v = fl->sr;
		break;
	case 0x10:
		v = fl->cr;
		break;
	case 0x14:
		v = fl->optcr;
		break;
	default:
		return BUS_ERROR; /* OPTCR1 exists on F42x/43x only */
	}
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

static enum bus_result key_write(uint32_t value, unsigned *step, bool *dead, bool locked, uint32_t k1, uint32_t k2,
                                 bool *unlocked)
{
	*unlocked = false;
	/* A write when already unlocked, or a wrong key, is a bus error and locks the register
	 * until the next reset (RM0090 3.5.1, 3.6.2). */
	if (*dead || !locked) {
		*dead = true;
		return BUS_ERROR;
	}
	if (*step == 0 && value == k1) {
		*step = 1;
		return BUS_OK;
	}
	if (*step == 1 && value == k2) {
		*step = 0;
		*unlocked = true;
		return BUS_OK;
	}
	*step = 0;
	*dead = true;
	return BUS_ERROR;
}

enum bus_result stm32f4_flash_reg_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value)
{
	struct stm32f4_flash_ctl *fl = &st->fl;
	bool unlocked;
	enum bus_result r;
	uint32_t w = off & ~3u;
	/* KEYR/OPTKEYR/CR/OPTCR take word writes; other sizes are merged into the word. */
	switch (w) {
	case 0x00: {
		/* The accelerator follows the register at once: LATENCY, PRFTEN, ICEN, DCEN, and the
		 * cache resets ICRST/DCRST, which read 0 (RM0090 3.9.1). */
		uint32_t written = bus_merge(fl->acr, off, size, value);
		fl->acr = written & ACR_RW_MASK;
		art_write_acr(&st->art, written, fl->acr);
		return BUS_OK;
	}
	case 0x04:
		r = key_write(value, &fl->key_step, &fl->key_dead, fl->cr & CR_LOCK, KEY1, KEY2, &unlocked);
		if (unlocked)
			fl->cr &= ~CR_LOCK;
		return r;
	case 0x08:
		r = key_write(value, &fl->optkey_step, &fl->optkey_dead, fl->optcr & OPTCR_OPTLOCK, OPTKEY1, OPTKEY2,
		              &unlocked);
		if (unlocked)
			fl->optcr &= ~OPTCR_OPTLOCK;
		return r;
	case 0x0C:
		fl->sr &= ~(bus_merge(0, off, size, value) & SR_W1C_MASK);
		return BUS_OK;
	case 0x10: {
		if (fl->cr & CR_LOCK)
			return BUS_OK; /* locked: writes are ignored */
		uint32_t v = bus_merge(fl->cr, off, size, value);
		fl->cr = (v & CR_RW_MASK) | (v & CR_LOCK); /* LOCK can be set, never cleared, by software */
		if ((v & CR_STRT) && (v & (CR_SER | CR_MER)))
			start_erase(st, v); /* STRT reads 0 again once done */
		return BUS_OK;
	}
	case 0x14: {
		if (fl->optcr & OPTCR_OPTLOCK)
			return BUS_OK;
		uint32_t v = bus_merge(fl->optcr, off, size, value);
		/* OPTSTRT programs the option bytes from the register at once; OPTLOCK may be set. */
		fl->optcr = v & OPTCR_RW_MASK;
		return BUS_OK;
	}
	default:
		return BUS_ERROR;
	}
}

/* Programs `size` bytes at `mem` (flash bits only go 1 -> 0, as on silicon). */
static void program(uint8_t *mem, unsigned size, uint32_t value)
{
	for (unsigned i = 0; i < size; i++)
		mem[i] &= (uint8_t)(value >> (8 * i));
}

/* Checks a write against CR.PG, PSIZE and alignment; sets the error flag and returns false when
 * the write must not change the array (RM0090 3.9.6: PGSERR, PGPERR, PGAERR). */
static bool program_allowed(struct stm32f4 *st, uint32_t off, unsigned size)
{
	struct stm32f4_flash_ctl *fl = &st->fl;
	if (!(fl->cr & CR_PG) || (fl->cr & CR_LOCK)) {
		fl->sr |= SR_PGSERR;
		return false;
	}
	unsigned psize = 1u << ((fl->cr & CR_PSIZE_MASK) >> CR_PSIZE_SHIFT);
	if (size != psize) {
		fl->sr |= SR_PGPERR;
		return false;
	}
	if (off % size) {
		fl->sr |= SR_PGAERR;
		return false;
	}
	return true;
}

enum bus_result stm32f4_flash_array_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value)
{
	if (!program_allowed(st, off, size))
		return BUS_OK; /* no AHB error: the flag in FLASH_SR is all the firmware sees */
	int n = sector_of(off);
	if (n < 0 || sector_protected(st, n)) {
		st->fl.sr |= SR_WRPERR;
		return BUS_OK;
	}
	program(st->flash + off, size, value);
	code_changed(st, off, size);
	op_done(st);
	return BUS_OK;
}

enum bus_result stm32f4_sysmem_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value)
{
	/* Only the OTP area (data and lock bytes) is programmable; a locked OTP block (lock byte
	 * 0x00) refuses (RM0090 3.8). The rest of system memory is ROM. */
	if (off < STM32F4_OTP_OFF || off + size > STM32F4_OTP_OFF + STM32F4_OTP_LEN)
		return BUS_ERROR;
	if (!program_allowed(st, off, size))
		return BUS_OK;
	uint32_t rel = off - STM32F4_OTP_OFF;
	if (rel < 0x200 && st->sysmem[STM32F4_OTP_OFF + 0x200 + rel / 32] == 0x00) {
		st->fl.sr |= SR_WRPERR;
		return BUS_OK;
	}
	program(st->sysmem + off, size, value);
	op_done(st);
	return BUS_OK;
}
