/* Unit tests of the AHB-AP (dap/ap.c) and the ROM table (scs/romtable.c), reached through JTAG as OpenOCD
 * reaches them (dap_rig.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dap_rig.h"

#define CSW_WORD_INC 0x23000052u
#define CSW_HALF_INC 0x23000051u
#define CSW_BYTE_INC 0x23000050u

static int setup(void **state)
{
	struct rig *r = rig_new();
	rig_power_up(r);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static uint32_t ap_reg_read(struct rig *r, unsigned reg)
{
	rig_write(r, DP_IR_DPACC, DP_REG_SELECT, reg & 0xF0u);
	return rig_read(r, DP_IR_APACC, reg & 0xCu);
}

static void ap_reg_write(struct rig *r, unsigned reg, uint32_t v)
{
	rig_write(r, DP_IR_DPACC, DP_REG_SELECT, reg & 0xF0u);
	rig_write(r, DP_IR_APACC, reg & 0xCu, v);
}

static uint32_t ctrl_stat(struct rig *r)
{
	return rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT);
}

static void test_identification(void **state)
{
	struct rig *r = *state;
	assert_int_equal(ap_reg_read(r, AP_REG_IDR), 0x24770011u);
	assert_int_equal(ap_reg_read(r, AP_REG_BASE), 0xE00FF003u);
	assert_int_equal(ap_reg_read(r, AP_REG_CFG), 0);
	assert_int_equal(ap_reg_read(r, AP_REG_CSW), AP_CSW_RESET);
	/* AP 1 does not exist: its IDR reads 0, which ends OpenOCD's AP search. */
	rig_write(r, DP_IR_DPACC, DP_REG_SELECT, 0x010000F0u);
	assert_int_equal(rig_read(r, DP_IR_APACC, 0xC), 0);
	assert_int_equal(ctrl_stat(r), 0xF0000000u);
}

static void test_csw_fields(void **state)
{
	struct rig *r = *state;
	/* DeviceEn stays 1, TrInProg stays 0 whatever is written. */
	ap_reg_write(r, AP_REG_CSW, 0xA3000082u);
	assert_int_equal(ap_reg_read(r, AP_REG_CSW), 0xA3000042u);
	/* Packed increment is not implemented: it reads back as single (OpenOCD mem_ap_init()). */
	ap_reg_write(r, AP_REG_CSW, 0x23000020u);
	assert_int_equal(ap_reg_read(r, AP_REG_CSW), 0x23000050u);
}

static void test_word_writes_autoincrement(void **state)
{
	struct rig *r = *state;
	ap_reg_write(r, AP_REG_CSW, CSW_WORD_INC);
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 0x10);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0xDEADBEEFu);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x01234567u);
	assert_memory_equal(r->ram + 0x10, "\xEF\xBE\xAD\xDE\x67\x45\x23\x01", 8);
	assert_int_equal(ap_reg_read(r, AP_REG_TAR), RIG_RAM_BASE + 0x18);
	/* No increment: TAR stays. */
	ap_reg_write(r, AP_REG_CSW, 0x23000002u);
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 0x10);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0xDEADBEEFu);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0xDEADBEEFu);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), RIG_RAM_BASE + 0x10);
}

static void test_tar_wraps_in_4k(void **state)
{
	struct rig *r = *state;
	ap_reg_write(r, AP_REG_CSW, CSW_WORD_INC);
	/* Crossing a 1 KiB boundary keeps incrementing (OpenOCD writes a whole 4 KiB on the M4). */
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 0x3FC);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x11111111u);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x33333333u);
	assert_memory_equal(r->ram + 0x3FC, "\x11\x11\x11\x11\x33\x33\x33\x33", 8);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), RIG_RAM_BASE + 0x404);
	/* Only TAR[11:0] increments (Cortex-M4 AHB-AP): the word after 0xFFC lands at the block start. */
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 0xFFC);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x44444444u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), RIG_RAM_BASE);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x22222222u);
	assert_memory_equal(r->ram + 0xFFC, "\x44\x44\x44\x44", 4);
	assert_memory_equal(r->ram, "\x22\x22\x22\x22", 4);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), RIG_RAM_BASE + 4);
}

static void test_byte_and_halfword_lanes(void **state)
{
	struct rig *r = *state;
	memcpy(r->ram, "\x10\x20\x30\x40", 4);
	ap_reg_write(r, AP_REG_CSW, CSW_BYTE_INC);
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 1);
	/* ADIv5.2 C2.2.6: byte at TAR[1:0] = 1 travels in DRW[15:8]. */
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0x00002000u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0x00300000u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0x40000000u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), RIG_RAM_BASE + 4);
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 3);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0xAB000000u);
	assert_int_equal(r->ram[3], 0xAB);
	assert_int_equal(r->ram[2], 0x30);
	ap_reg_write(r, AP_REG_CSW, CSW_HALF_INC);
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 2);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0xAB300000u);
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 0);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x0000BEEFu);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0xCAFE0000u);
	assert_memory_equal(r->ram, "\xEF\xBE\xFE\xCA", 4);
	assert_int_equal(ctrl_stat(r), 0xF0000000u);
}

static void test_unmapped_sets_sticky_then_works(void **state)
{
	struct rig *r = *state;
	memcpy(r->ram + 8, "\x78\x56\x34\x12", 4);
	ap_reg_write(r, AP_REG_CSW, CSW_WORD_INC);
	ap_reg_write(r, AP_REG_TAR, 0x30000000u);
	rig_write(r, DP_IR_APACC, AP_REG_DRW, 0x1u);
	assert_int_equal(ctrl_stat(r), 0xF0000000u | DP_CTRL_STICKYERR);
	/* TAR did not increment past the failed transfer. */
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), 0x30000000u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0);
	/* The next access works while the flag is still set, and the flag clears on W1C. */
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 8);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0x12345678u);
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ | DP_CTRL_STICKYERR);
	assert_int_equal(ctrl_stat(r), 0xF0000000u);
	assert_int_equal(r->dp.ap.bus_errors, 2);
	/* A reserved CSW.Size faults too. */
	ap_reg_write(r, AP_REG_CSW, 0x23000053u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0);
	assert_int_equal(ctrl_stat(r), 0xF0000000u | DP_CTRL_STICKYERR);
}

static void test_banked_data(void **state)
{
	struct rig *r = *state;
	for (int i = 0; i < 32; i++)
		r->ram[i] = (uint8_t)i;
	ap_reg_write(r, AP_REG_CSW, CSW_BYTE_INC); /* BDn are word accesses whatever CSW.Size says */
	ap_reg_write(r, AP_REG_TAR, RIG_RAM_BASE + 0x13);
	assert_int_equal(ap_reg_read(r, 0x18), 0x1B1A1918u);
	ap_reg_write(r, 0x1C, 0xA1A2A3A4u);
	assert_memory_equal(r->ram + 0x1C, "\xA4\xA3\xA2\xA1", 4);
	assert_int_equal(ap_reg_read(r, AP_REG_TAR), RIG_RAM_BASE + 0x13);
}

static void test_rom_table(void **state)
{
	struct rig *r = *state;
	ap_reg_write(r, AP_REG_CSW, CSW_WORD_INC);
	ap_reg_write(r, AP_REG_TAR, ROMTABLE_BASE);
	const uint32_t want[] = {0xFFF0F003u, 0xFFF02003u, 0xFFF03003u, 0xFFF01003u, 0xFFF41002u, 0xFFF42002u, 0};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), want[i]);
	ap_reg_write(r, AP_REG_TAR, ROMTABLE_BASE + 0xFCC);
	const uint32_t ids[] = {1, 0x04, 0, 0, 0, 0xC4, 0xB4, 0x0B, 0x00, 0x0D, 0x10, 0x05, 0xB1};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), ids[i]);
	/* Byte reads of the table. */
	ap_reg_write(r, AP_REG_CSW, CSW_BYTE_INC);
	ap_reg_write(r, AP_REG_TAR, ROMTABLE_BASE + 1);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_DRW), 0x0000F000u);
	assert_int_equal(ctrl_stat(r), 0xF0000000u);
}

static void test_component_ids(void **state)
{
	(void)state;
	uint32_t v = 0;
	assert_int_equal(romtable_id_read(ROMTABLE_SCS_BASE, 0xFE0, &v), 0);
	assert_int_equal(v, 0x0C);
	assert_int_equal(romtable_id_read(ROMTABLE_SCS_BASE, 0xFF4, &v), 0);
	assert_int_equal(v, 0xE0);
	assert_int_equal(romtable_id_read(ROMTABLE_DWT_BASE, 0xFE8, &v), 0);
	assert_int_equal(v, 0x3B);
	assert_int_equal(romtable_id_read(ROMTABLE_FPB_BASE, 0xFE8, &v), 0);
	assert_int_equal(v, 0x2B);
	assert_int_equal(romtable_id_read(ROMTABLE_ITM_BASE, 0xFE0, &v), 0);
	assert_int_equal(v, 0x01);
	assert_int_equal(romtable_id_read(ROMTABLE_ITM_BASE, 0xFD0, &v), 0);
	assert_int_equal(v, 0x04);
	assert_int_equal(romtable_id_read(ROMTABLE_ITM_BASE, 0xFFC, &v), 0);
	assert_int_equal(v, 0xB1);
	assert_int_equal(romtable_id_read(0xE0003000u, 0xFE0, &v), -1);
	assert_int_equal(romtable_id_read(ROMTABLE_SCS_BASE, 0xFC0, &v), -1);
	assert_int_equal(romtable_id_read(ROMTABLE_SCS_BASE, 0xFE1, &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_identification, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_csw_fields, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_word_writes_autoincrement, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tar_wraps_in_4k, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_byte_and_halfword_lanes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unmapped_sets_sticky_then_works, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_banked_data, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rom_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_component_ids, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
