/* AHB-AP MEM-AP (see ap.h). References: ADIv5.2 (ARM IHI 0031C) C2.2 "MEM-AP functions" (byte
 * lanes C2.2.6, TAR auto-increment C2.2.2, banked data registers C2.2.3), C2.6 register
 * descriptions; Cortex-M4 TRM r0p1 8.2. */
#include "dap/ap.h"

void ap_init(struct mem_ap *ap, struct sim_bus *bus)
{
	ap->bus = bus;
	ap->bus_reads = 0;
	ap->bus_writes = 0;
	ap->bus_errors = 0;
	ap_reset(ap);
}

void ap_reset(struct mem_ap *ap)
{
	ap->csw = AP_CSW_RESET;
	ap->tar = 0;
}

/* CSW.Size in bytes; 0 for the reserved encodings (this AHB-AP does 8, 16 and 32 bits only). */
static unsigned csw_bytes(uint32_t csw)
{
	switch (csw & AP_CSW_SIZE_MASK) {
	case 0:
		return 1;
	case 1:
		return 2;
	case 2:
		return 4;
	default:
		return 0;
	}
}

/* ADIv5.2 C2.2.2: auto-increment is only guaranteed within a 1 KiB block (TAR[9:0]); the
 * Cortex-M3/M4 AHB-AP increments TAR[11:0], a 4 KiB block, and OpenOCD 0.12 relies on that for
 * these cores (cortex_m.c: tar_autoincr_block = 1 << 12, CORTEX_M_F_TAR_AUTOINCR_BLOCK_4K): it
 * rewrites TAR only at 4 KiB boundaries. */
#define AP_TAR_INC_MASK 0xFFFu

static uint32_t tar_increment(uint32_t tar, unsigned bytes)
{
	return (tar & ~AP_TAR_INC_MASK) | ((tar + bytes) & AP_TAR_INC_MASK);
}

static enum ap_result bus_access(struct mem_ap *ap, uint32_t addr, unsigned bytes, int is_write, uint32_t *lane_data)
{
	/* Unaligned transfers: the AHB-AP drives an aligned HADDR (Cortex-M4 TRM 8.2: "the AHB-AP
	 * does not support unaligned transfers"), so the low address bits only select byte lanes. */
	uint32_t aligned = addr & ~(uint32_t)(bytes - 1);
	enum bus_result r;
	if (is_write) {
		/* C2.2.6: data for a narrow write sits in the byte lanes the address selects. */
		r = bus_write(ap->bus, aligned, bytes, BUS_DEBUG, bus_extract(*lane_data, aligned, bytes));
		ap->bus_writes++;
	} else {
		uint32_t v = 0;
		r = bus_read(ap->bus, aligned, bytes, BUS_DEBUG, &v);
		*lane_data = r == BUS_OK ? bus_merge(0, aligned, bytes, v) : 0;
		ap->bus_reads++;
	}
	if (r != BUS_OK) {
		ap->bus_errors++;
		return AP_FAULT;
	}
	return AP_OK;
}

static enum ap_result drw_access(struct mem_ap *ap, int is_write, uint32_t *data)
{
	unsigned bytes = csw_bytes(ap->csw);
	if (bytes == 0)
		return AP_FAULT;
	enum ap_result r = bus_access(ap, ap->tar, bytes, is_write, data);
	/* C2.2.2: TAR is not incremented when the transfer ends in an error. */
	if (r == AP_OK && (ap->csw & AP_CSW_ADDRINC_MASK))
		ap->tar = tar_increment(ap->tar, bytes);
	return r;
}

/* C2.2.3: BDn reaches TAR[31:4] + 4n with a word access and never increments TAR. */
static uint32_t bd_address(const struct mem_ap *ap, unsigned reg)
{
	return (ap->tar & ~0xFu) | (reg - AP_REG_BD0);
}

enum ap_result ap_read(struct mem_ap *ap, unsigned reg, uint32_t *value)
{
	*value = 0;
	switch (reg) {
	case AP_REG_CSW:
		*value = ap->csw;
		return AP_OK;
	case AP_REG_TAR:
		*value = ap->tar;
		return AP_OK;
	case AP_REG_DRW:
		return drw_access(ap, 0, value);
	case AP_REG_CFG:
		*value = 0; /* little-endian, 32-bit addresses and data (C2.6.3) */
		return AP_OK;
	case AP_REG_BASE:
		*value = AP_BASE_M4;
		return AP_OK;
	case AP_REG_IDR:
		*value = AP_IDR_AHB_AP_M4;
		return AP_OK;
	default:
		if (reg >= AP_REG_BD0 && reg <= AP_REG_BD3)
			return bus_access(ap, bd_address(ap, reg), 4, 0, value);
		/* Reserved AP registers read as zero (C2.6, table C2-6: RES0). */
		return AP_OK;
	}
}

enum ap_result ap_write(struct mem_ap *ap, unsigned reg, uint32_t value)
{
	switch (reg) {
	case AP_REG_CSW: {
		/* DeviceEn and TrInProg are read-only (C2.6.4); packed transfers (AddrInc 0b10) are
		 * optional and this AP lacks them, so they read back as single increment: OpenOCD's
		 * mem_ap_init() probes exactly that and then uses single transfers. */
		uint32_t v = (value & ~(AP_CSW_DEVICEEN | AP_CSW_TRINPROG)) | AP_CSW_DEVICEEN;
		if ((v & AP_CSW_ADDRINC_MASK) == AP_CSW_ADDRINC_PACKED)
			v = (v & ~AP_CSW_ADDRINC_MASK) | AP_CSW_ADDRINC_SINGLE;
		ap->csw = v;
		return AP_OK;
	}
	case AP_REG_TAR:
		ap->tar = value;
		return AP_OK;
	case AP_REG_DRW:
		return drw_access(ap, 1, &value);
	case AP_REG_CFG:
	case AP_REG_BASE:
	case AP_REG_IDR:
		return AP_OK; /* read-only: writes ignored */
	default:
		if (reg >= AP_REG_BD0 && reg <= AP_REG_BD3)
			return bus_access(ap, bd_address(ap, reg), 4, 1, &value);
		return AP_OK;
	}
}
