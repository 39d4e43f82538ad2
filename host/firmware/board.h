/* Boards as data: boards/<name>/board.json (docs/boards.md), parsed with cJSON. The folder holds
 * the OpenOCD config too; paths in a board are absolute after board_load(). */
#ifndef HOST_FIRMWARE_BOARD_H
#define HOST_FIRMWARE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define BOARD_DEFAULT "sim-stm32f4"

struct board {
	char name[64];
	char description[160];
	char mcu[32];
	char core[32];
	uint64_t core_clock_hz;
	char counter[32];       /* "DWT_CYCCNT", "CCNT", "none" */
	char backend[16];       /* "openocd" (default), "qemu", "gdb" (the user's gdbserver, --gdb) */
	char arch[16];          /* core family the ELF must be built for: "cortex-m" (default), "tricore" */
	char qemu_system[32];   /* QEMU boards: the emulator, "qemu-system-arm" (default), "qemu-system-tricore" */
	char qemu_machine[64];  /* QEMU boards: -M; default the board name without "qemu-" */
	char openocd_cfg[1024]; /* absolute path; "" when the board has none */
	char dir[1024];         /* the board's folder */
	bool virtual_board;     /* "virtual": cycles are modelled */
	/* "transport": how OpenOCD reaches the chip (docs/boards.md): "dap" (ST-LINK, dapdirect_swd; the
	 * default), "hla" (ST-LINK, hla_swd) or, on the virtual board only, "jtag" (remote_bitbang). */
	char transport[8];
	uint32_t flash_base, flash_size;
	uint32_t ram_base, ram_size;
	/* "csfr_base": a TriCore core's CSFR window on the bus (AURIX core 0: 0xF8810000); 0: none */
	uint32_t csfr_base;
};

/* The folder holding every board: $BENCH_BOARDS_DIR, else boards/ in bench's data folder found from
 * its own location (base/datadir.h); NULL when there is none. */
const char *board_root(void);
/* Where board_root() looked for the data folder ("A and B"), for messages; "" when it found one. */
const char *board_root_tried(void);
/* Parses board.json text; dir is the board's folder (for relative paths). Errors: BENCH_E_BOARD
 * with the field that is wrong. Returns 0 or a negated bench_err. */
int board_parse(const char *json, size_t len, const char *dir, struct board *out, struct bench_error *err);
/* Loads boards/<name>/board.json from root (NULL: board_root()). An unknown name is BENCH_E_BOARD
 * with the list of known boards in the message. Names with '/' or starting with '.' are refused. */
int board_load(const char *root, const char *name, struct board *out, struct bench_error *err);
/* Checks that `transport` is one the board can use (see struct board); BENCH_E_USAGE otherwise,
 * naming `what` (the flag or field it came from). */
int board_check_transport(const struct board *b, const char *transport, const char *what, struct bench_error *err);
/* True when bench starts bench-sim for the board (a virtual board OpenOCD reaches, sim-stm32f4): only
 * such a board has bench-sim's log with the firmware's UART lines (--uart). QEMU boards are virtual
 * too but QEMU serves them. */
bool board_sim_served(const struct board *b);
/* Writes the known board names, comma-separated and sorted, into out. Returns how many. */
size_t board_list(const char *root, char *out, size_t len);

#endif /* HOST_FIRMWARE_BOARD_H */
