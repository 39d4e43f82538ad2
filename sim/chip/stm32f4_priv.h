/* Inside the virtual STM32F4 (stm32f4.c: memory map and small peripherals; stm32f4_flash.c: the
 * FLASH controller). Not for other units: they use stm32f4.h. */
#ifndef SIM_STM32F4_PRIV_H
#define SIM_STM32F4_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bus/bus.h"
#include "chip/stm32f4.h"
#include "chip/stm32f4_art.h"

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

/* One USART (RM0090 30.6): SR, DR, BRR, CR1, CR2, CR3, GTPR, and the line being printed. */
/* A USART's registers and the line its transmitter is in the middle of: kept whole until its
 * '\n' (grown on the heap past STM32F4_UART_LINE bytes, up to STM32F4_UART_LINE_MAX), so a long
 * line comes out as one `uart: ` line. `tail` is how much of the end mark (stm32f4_on_uart_mark)
 * the last bytes sent match. */
#define STM32F4_UART_LINE     256u
#define STM32F4_UART_LINE_MAX (1024u * 1024u)
struct stm32f4_usart {
	uint32_t reg[7];
	char first[STM32F4_UART_LINE];
	char *line; /* first, or a heap copy once longer */
	size_t line_len, line_cap;
	bool line_open; /* part of this line is already out (past STM32F4_UART_LINE_MAX, or no memory) */
	size_t tail;
};

/* One of TIM2-TIM7 (RM0090 18.4, 20.4): the registers, and the counter kept lazily. The counter and
 * prescaler counter are valid at core cycle `sync`; `rem` carries the part of a timer-clock tick
 * that the core-to-timer clock ratio left over (stm32f4_tim.c). */
struct stm32f4_tim {
	uint32_t reg[0x54 / 4];
	uint32_t cnt, psc_cnt; /* counter, prescaler counter */
	uint32_t psc, arr;     /* the active (shadow) prescaler and auto-reload (RM0090 18.3.1) */
	uint64_t sync;
	uint64_t rem;
};

#define STM32F4_N_TIM   6 /* TIM2..TIM7 */
#define STM32F4_N_USART 6 /* USART1, USART2, USART3, UART4, UART5, USART6 */
#define STM32F4_N_GPIO  9 /* GPIOA..GPIOI */

struct stm32f4_block;

struct stm32f4 {
	struct stm32f4_config cfg;
	uint8_t *flash; /* STM32F4_FLASH_SIZE bytes, seen at 0x08000000 and at 0 */
	uint8_t *sram;
	uint8_t *ccm;
	uint8_t *sysmem; /* STM32F4_SYSMEM_SIZE bytes at STM32F4_SYSMEM_BASE */
	uint8_t *bkpsram;
	struct stm32f4_flash_ctl fl;
	struct stm32f4_art art; /* flash read timing, driven by fl.acr (stm32f4_art.h) */
	uint32_t rcc[0x88 / 4];
	uint32_t pwr_cr, pwr_csr;
	uint32_t gpio[STM32F4_N_GPIO][10]; /* GPIOA..I: MODER..AFRH (offsets 0x00-0x24) */
	uint32_t gpio_lckr[STM32F4_N_GPIO];
	unsigned gpio_lck_step[STM32F4_N_GPIO]; /* LCKR key sequence position (RM0090 8.4.8) */
	uint32_t syscfg[0x24 / 4];
	uint32_t exti[6]; /* IMR, EMR, RTSR, FTSR, SWIER, PR */
	uint32_t crc_dr, crc_idr;
	uint32_t rng_cr, rng_sr, rng_state;
	struct stm32f4_usart usart[STM32F4_N_USART];
	struct stm32f4_tim tim[STM32F4_N_TIM];
	uint32_t dbgmcu_cr, dbgmcu_apb1_fz, dbgmcu_apb2_fz;
	/* Blocks kept as plain registers (stm32f4_map.c): storage made on first touch, and which blocks
	 * the firmware has touched (reported once each). */
	uint32_t **plain;
	bool *used;
	const struct stm32f4_block *last_block;
	void *windows; /* the bus regions' contexts (stm32f4_map.c) */
	stm32f4_code_write_fn on_code_write;
	void *on_code_write_ctx;
	stm32f4_note_fn on_note;
	void *on_note_ctx;
	stm32f4_clock_fn clock;
	stm32f4_irq_fn irq;
	void *core_ctx;
	FILE *uart_out;
	const char *uart_mark; /* stm32f4_on_uart_mark: the bytes that end a run, and whom to tell */
	size_t uart_mark_len;
	stm32f4_uart_mark_fn on_uart_mark;
	void *on_uart_mark_ctx;
};

/* A block of the memory map (stm32f4_map.c): RM0090 rev 19 table 1 / 2.3, as stm32f407xx.h lists it. */
enum stm32f4_kind {
	STM32F4_MODELLED = 0, /* behaviour modelled */
	STM32F4_PLAIN,        /* registers read back what was written, reset values from RM0090 */
	STM32F4_FLAGGED,      /* modelled, but not as silicon behaves (RNG: deterministic): reported once */
};

typedef enum bus_result (*stm32f4_read_fn)(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off,
                                           unsigned size, enum bus_initiator who, uint32_t *value);
typedef enum bus_result (*stm32f4_write_fn)(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off,
                                            unsigned size, enum bus_initiator who, uint32_t value);

struct stm32f4_block {
	const char *name;
	uint32_t base, size;
	enum stm32f4_kind kind;
	unsigned unit; /* which GPIO port, timer, USART */
	stm32f4_read_fn read;
	stm32f4_write_fn write;
};

extern const struct stm32f4_block stm32f4_blocks[];
extern const size_t stm32f4_n_blocks;

/* FLASH interface registers (offset within 0x40023C00). */
enum bus_result stm32f4_flash_reg_read(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t *value);
enum bus_result stm32f4_flash_reg_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value);
/* A bus write into the flash array (offset from the start of flash, either window). */
enum bus_result stm32f4_flash_array_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value);
/* A bus write into system memory (OTP programming; the rest is read-only). */
enum bus_result stm32f4_sysmem_write(struct stm32f4 *st, uint32_t off, unsigned size, uint32_t value);
void stm32f4_flash_reset(struct stm32f4 *st);

/* stm32f4_rcc.c: RCC, PWR, the FLASH block. */
enum bus_result stm32f4_rcc_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_rcc_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value);
enum bus_result stm32f4_pwr_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_pwr_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value);
enum bus_result stm32f4_flash_blk_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                       enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_flash_blk_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                        enum bus_initiator who, uint32_t value);
/* The timer clock of APB1 timers per core (HCLK) cycle, as num/den from RCC_CFGR.PPRE1 (RM0090 7.2: x2 when the
 * APB1 prescaler is not 1). */
void stm32f4_apb1_timer_ratio(const struct stm32f4 *st, uint32_t *num, uint32_t *den);
/* RCC and PWR at a system reset (RM0090 7.3.24, 5.4). */
void stm32f4_rcc_reset(struct stm32f4 *st);

/* stm32f4_map.c: the block table and the windows that dispatch to it. */
int stm32f4_map_init(struct stm32f4 *st, struct sim_bus *bus);
void stm32f4_map_reset(struct stm32f4 *st);
void stm32f4_map_free(struct stm32f4 *st);

/* stm32f4_gpio.c: GPIO ports, SYSCFG, EXTI. */
enum bus_result stm32f4_gpio_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_gpio_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   enum bus_initiator who, uint32_t value);
enum bus_result stm32f4_syscfg_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                    enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_syscfg_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                     enum bus_initiator who, uint32_t value);
enum bus_result stm32f4_exti_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_exti_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   enum bus_initiator who, uint32_t value);
void stm32f4_gpio_reset(struct stm32f4 *st);

/* stm32f4_tim.c: TIM2..TIM7. */
enum bus_result stm32f4_tim_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_tim_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value);
void stm32f4_tim_reset(struct stm32f4 *st);

/* stm32f4_misc.c: CRC, RNG, USARTs. */
enum bus_result stm32f4_crc_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_crc_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value);
enum bus_result stm32f4_rng_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_rng_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value);
enum bus_result stm32f4_usart_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   enum bus_initiator who, uint32_t *value);
enum bus_result stm32f4_usart_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                    enum bus_initiator who, uint32_t value);
void stm32f4_misc_reset(struct stm32f4 *st);
void stm32f4_uart_flush_all(struct stm32f4 *st);
/* The USARTs' line buffers: set up by stm32f4_init, the heap ones freed by stm32f4_free. */
void stm32f4_uart_init(struct stm32f4 *st);
void stm32f4_uart_free(struct stm32f4 *st);

/* Raises interrupt `irq` (RM0090 table 61 position) on the core's NVIC, when connected. Inline:
 * the peripherals' files call it and stm32f4.c calls them, so it is no call into stm32f4.c. */
static inline void stm32f4_raise_irq(struct stm32f4 *st, unsigned irq)
{
	if (st->irq)
		st->irq(st->core_ctx, irq);
}

/* Core cycles now, for an access at `addr` (0 before stm32f4_connect). */
static inline uint64_t stm32f4_now(struct stm32f4 *st, uint32_t addr)
{
	return st->clock ? st->clock(st->core_ctx, addr) : 0;
}

#endif /* SIM_STM32F4_PRIV_H */
