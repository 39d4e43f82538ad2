/* The functions under test, in their own file so BENCH_CALL measures a call (docs/target.md):
 * CRC-32/MPEG-2 (polynomial 0x04C11DB7, initial 0xFFFFFFFF, no reflection, no final XOR: what the
 * STM32F4 CRC unit computes on 32-bit words, RM0090 section 4.3) over the first n words of
 * crc_data, on the unit (reset, then one DR write a word, RM0090 4.4) and in software a bit at a
 * time. Written for probebench. */
#include "main.h"

uint32_t crc_data[CRC_DATA_WORDS];

uint32_t crc_hw(uint32_t n)
{
	CRC_CR = CRC_CR_RESET; /* DR back to 0xFFFFFFFF */
	for (uint32_t i = 0; i < n; i++)
		CRC_DR = crc_data[i];
	return CRC_DR;
}

uint32_t crc_sw(uint32_t n)
{
	uint32_t crc = 0xFFFFFFFFu;
	for (uint32_t i = 0; i < n; i++) {
		crc ^= crc_data[i];
		for (int b = 0; b < 32; b++)
			crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
	}
	return crc;
}
