/* Inside the virtual STM32F4 (stm32f4.c: memory map and small peripherals; stm32f4_flash.c: the
 * FLASH controller). Not for other units: they use stm32f4.h. */
#ifndef SIM_STM32F4_PRIV_H
#define SIM_STM32F4_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bus/bus.h"
#include "core/core.h"
#include "chip/stm32f4.h"

#define STM32F4_SYSMEM_BASE  0x1FFF0000u
#define STM32F4_SYSMEM_SIZE  0x10000u
#define STM32F4_OTP_OFF      0x7800u /* OTP data, 16 blocks x 32 bytes (RM0090 3.8) */
#define STM32F4_OTP_LEN      0x210u  /* ... plus 16 lock bytes at 0x1FFF7A00 */
#define STM32F4_UID_OFF      0x7A10u /* 96-bit unique ID (RM0090 39.1) */
#define STM32F4_FSIZE_OFF    0x7A22u /* flash size in KiB, 16 bits (RM0090 39.2) */
#define STM32F4_OPTBYTES_OFF 0xC000u /* option bytes (RM0090 3.6) */

struct stm32f4_flash_ctl {
	uint32_t acr, sr, cr, optcr;
	unsigned key_step;    /* 0: expecting KEY1, 1: expecting KEY2 */
	unsigned optkey_step; /* the same for OPTKEYR */
	bool key_dead;        /* a wrong key sequence: FLASH_CR locked until reset (RM0090 3.5.1) */
	bool optkey_dead;
};

struct stm32f4 {
	struct sim_config cfg;
	uint8_t *flash; /* STM32F4_FLASH_SIZE bytes, seen at 0x08000000 and at 0 */
	uint8_t *sram;
	uint8_t *ccm;
	uint8_t *sysmem; /* STM32F4_SYSMEM_SIZE bytes at STM32F4_SYSMEM_BASE */
	struct stm32f4_flash_ctl fl;
	uint32_t rcc[0x88 / 4];
	uint32_t pwr_cr, pwr_csr;
	uint32_t gpio[9][10]; /* GPIOA..I: MODER..AFRH (offsets 0x00-0x24) */
	uint32_t usart2[7];   /* SR, DR, BRR, CR1, CR2, CR3, GTPR */
	uint32_t dbgmcu_cr, dbgmcu_apb1_fz, dbgmcu_apb2_fz;
	stm32f4_code_write_fn on_code_write;
	void *on_code_write_ctx;
	FILE *uart_out;
	char line[256];
	size_t line_len;
};

/* FLASH interface registers (offset within 0x40023C00). */
enum bus_result stm32f4_flash_reg_read(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t *value);
enum bus_result stm32f4_flash_reg_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value);
/* A bus write into the flash array (offset from the start of flash, either window). */
enum bus_result stm32f4_flash_array_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value);
/* A bus write into system memory (OTP programming; the rest is read-only). */
enum bus_result stm32f4_sysmem_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value);
void stm32f4_flash_reset(struct stm32f4 *st);

#endif /* SIM_STM32F4_PRIV_H */
