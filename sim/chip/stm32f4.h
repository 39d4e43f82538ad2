/* The STM32F405/407 around the virtual board's Cortex-M4F: its memory map and the few peripherals
 * firmware and OpenOCD touch (RM0090 rev 19). Everything is registered on the system bus (bus.h),
 * so the core (through unicorn) and the debugger (through the AHB-AP) see one machine:
 *
 *   0x00000000  1 MiB  flash alias (BOOT0 = 0: the same bytes as 0x08000000)  RM0090 2.4
 *   0x08000000  1 MiB  flash; writes go to the FLASH controller               RM0090 3.3
 *   0x10000000  64 KiB CCM data RAM                                           RM0090 2.3.1
 *   0x1FFF0000  64 KiB system memory: bootloader (erased), OTP 0x1FFF7800 (528 bytes, programmable
 *               through the FLASH controller), unique ID 0x1FFF7A10, flash size 0x1FFF7A22 (1024 KiB),
 *               option bytes 0x1FFFC000                                        RM0090 2.4, 3.8, 39
 *   0x20000000  128 KiB SRAM1+SRAM2 (112 + 16 KiB, contiguous)                RM0090 2.3.1
 *   0x40000000  APB1, APB2, AHB1 (0x40000000-0x4007FFFF), AHB2 (0x50000000-0x50060BFF) and the FSMC
 *               registers (0xA0000000): three bus regions dispatching to the block table of
 *               stm32f4_map.c, every block of RM0090 table 1 that the STM32F407 has. Modelled blocks
 *               behave as on silicon, the others keep plain registers; an address between blocks
 *               (a reserved hole) is an AHB error (bus fault / MEM-AP sticky error), as on silicon.
 *   0xE0042000  4 KiB DBGMCU (IDCODE 0x10076413: STM32F405/407, revision 1)  RM0090 38.6
 *
 * Every region is 4 KiB aligned in base and size, so a core can map each one into unicorn as is.
 * The Cortex-M private peripheral bus (0xE0000000-0xE00FFFFF minus DBGMCU) is the core's. */
#ifndef SIM_STM32F4_H
#define SIM_STM32F4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bus/bus.h"

#define STM32F4_FLASH_BASE    0x08000000u
#define STM32F4_FLASH_ALIAS   0x00000000u
#define STM32F4_FLASH_SIZE    (1024u * 1024u)
#define STM32F4_SRAM_BASE     0x20000000u
#define STM32F4_SRAM_SIZE     (128u * 1024u)
#define STM32F4_CCM_BASE      0x10000000u
#define STM32F4_CCM_SIZE      (64u * 1024u)
#define STM32F4_DBGMCU_IDCODE 0x10076413u /* REV_ID 0x1007 (rev 1), DEV_ID 0x413 (F405/407/415/417) */

/* RM0090 2.3.1 and 2.1 (bus matrix): SRAM1 (112 KiB) and SRAM2 (16 KiB) are separate slaves of the
 * bus matrix; the CCM data RAM sits on the D-bus alone. */
#define STM32F4_SRAM1_SIZE (112u * 1024u)
#define STM32F4_SRAM2_BASE (STM32F4_SRAM_BASE + STM32F4_SRAM1_SIZE)
#define STM32F4_SRAM2_SIZE (16u * 1024u)

/* RM0090 table 61: the STM32F405/407's maskable interrupt lines into the NVIC (positions 0-81). */
#define STM32F4_NUM_IRQ 82
/* PM0214 4.3.7: the STM32F4's NVIC implements 4 bits of each priority byte (16 levels). */
#define STM32F4_PRIO_BITS 4

struct stm32f4;

/* The core's clock (cycles now, for an access at addr) and its interrupt lines (RM0090 table 61 positions). */
typedef uint64_t (*stm32f4_clock_fn)(void *ctx, uint32_t addr);
typedef void (*stm32f4_irq_fn)(void *ctx, unsigned irq);
/* One line for the user, once per block: "the firmware used CRC (0x40023000), which ...". */
typedef void (*stm32f4_note_fn)(void *ctx, const char *msg);

struct stm32f4_config {
	bool uart_echo; /* copy USART output of the firmware to stm32f4_set_uart_out's stream */
};

/* Called after flash contents changed (program or erase) with the changed range, once for each
 * address the bytes are visible at (0x08000000-based and the alias at 0): the core drops translated
 * code and cycle-model blocks there (uc_ctl_remove_cache, cyc_invalidate). */
typedef void (*stm32f4_code_write_fn)(void *ctx, uint32_t addr, uint32_t size);

/* Adds the memory map above to `bus`. Flash reads erased (0xFF), RAM zero. Returns 0, or -1 with
 * a message in err (out of memory, or a region overlaps one already on the bus). */
int stm32f4_init(struct sim_bus *bus, struct stm32f4 **out, const struct stm32f4_config *cfg, char *err, size_t errlen);
void stm32f4_free(struct stm32f4 *st);

/* Registers the one code-write listener (NULL removes it). */
void stm32f4_on_code_write(struct stm32f4 *st, stm32f4_code_write_fn fn, void *ctx);

/* Connects the chip to the core: timers count core cycles and raise interrupts through these. */
void stm32f4_connect(struct stm32f4 *st, stm32f4_clock_fn clock, stm32f4_irq_fn irq, void *ctx);
/* Cycles from `now` until a peripheral next raises an interrupt by itself (a timer update), or UINT64_MAX. */
uint64_t stm32f4_next_event(struct stm32f4 *st, uint64_t now);
/* Brings the timers to core cycle `now`, raising the interrupts due. */
void stm32f4_advance(struct stm32f4 *st, uint64_t now);

/* Registers the listener for the once-per-block notes (NULL: they are dropped). */
void stm32f4_on_note(struct stm32f4 *st, stm32f4_note_fn fn, void *ctx);

/* Names what is at addr on the virtual board: "CRC (0x40023000, modelled)", "DMA2 (0x40026400, plain registers)",
 * "SRAM", "a reserved hole in the peripheral map", ... Returns out. */
const char *stm32f4_describe(uint32_t addr, char *out, size_t len);

/* Peripheral reset values, as after power-on or NRST (AIRCR.SYSRESETREQ resets the whole chip,
 * RM0090 6.1.2). Memories keep their contents. */
void stm32f4_reset(struct stm32f4 *st);

/* Factory programming through the back door (no flash controller): for core_load_elf. addr is in
 * either flash window. Returns 0, or -1 when [addr, addr+len) is not inside flash. */
int stm32f4_flash_load(struct stm32f4 *st, uint32_t addr, const void *data, size_t len);

/* Where USART output goes when cfg->uart_echo is set: stdout by default. Each line is printed as
 * "uart: <text>\n" (USART2, the ST-LINK virtual COM port of ST's boards) or "uart: USART1: <text>\n" for the others:
 * a line as long as the firmware sends it (up to 1 MiB, then in pieces), an empty line as "uart: " and
 * nothing after it, '\r' dropped; an unfinished line is flushed by stm32f4_free. */
void stm32f4_set_uart_out(struct stm32f4 *st, FILE *out);
/* Prints the USARTs' unfinished lines now (the end of a run). */
void stm32f4_uart_flush(struct stm32f4 *st);

/* Called once when the bytes any USART has sent end with `mark` (from the first byte the
 * transmitter sends, '\r' included): the run can stop there (bench-sim --until-uart). The mark is
 * matched whether or not output is echoed; the string must outlive the chip. NULL mark: none. */
typedef void (*stm32f4_uart_mark_fn)(void *ctx);
void stm32f4_on_uart_mark(struct stm32f4 *st, const char *mark, stm32f4_uart_mark_fn fn, void *ctx);

/* FLASH_ACR.LATENCY as the firmware last set it (RM0090 3.5.1), for a cycle model that follows it. */
unsigned stm32f4_flash_latency(const struct stm32f4 *st);

/* The flash accelerator's timing model (stm32f4_art.h), which FLASH_ACR writes drive: the core
 * asks it for the wait cycles of code and literals in flash. */
struct stm32f4_art *stm32f4_art(struct stm32f4 *st);

#endif /* SIM_STM32F4_H */
