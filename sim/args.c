/* bench-sim's command line (args.h). */
#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bus/msg.h"

const char sim_usage_text[] =
    "usage: bench-sim [options]\n"
    "The virtual STM32F4 (Cortex-M4F) board with its on-board ST-LINK, driven by stock OpenOCD over SWD\n"
    "(st-link or hla driver, stlink-server TCP backend) or its remote_bitbang JTAG adapter.\n"
    "\n"
    "  --stlink-port N   serve an STLINK-V3 as stlink-server does on 127.0.0.1:N (0: a free port).\n"
    "                    stdout's first line is `stlink-port N`. OpenOCD: `st-link backend tcp N`\n"
    "                    (dapdirect_swd) or `hla_stlink_backend tcp N` (hla_swd)\n"
    "  --jtag-port N     serve remote_bitbang on 127.0.0.1:N (0: a free port; the default when\n"
    "                    neither --jtag-socket nor --stlink-port is given); prints `jtag-port N`\n"
    "  --jtag-socket P   serve remote_bitbang on the Unix socket P (faster; OpenOCD:\n"
    "                    `remote_bitbang host P` with `remote_bitbang port 0`)\n"
    "  --ctl-port N      control interface on 127.0.0.1:N (0: a free port; prints `ctl-port N`)\n"
    "  --wait-states N   force N flash wait states (0-15) instead of the FLASH_ACR.LATENCY the firmware\n"
    "                    writes (default `auto`: follow the firmware, RM0090 3.4; docs/cycle-model.md)\n"
    "  --memory-blocks[=M]  loads pipeline only within one of SRAM1, SRAM2, CCM, as measured on\n"
    "                    silicon (docs/cycle-model.md). M: `entry` (the default) from the registers\n"
    "                    at each block's entry (pairs it cannot tell keep pipelining; about 1.2x the\n"
    "                    time of off), `exact` (the bare option) from every load's address (every\n"
    "                    load hooked: about 2.2x), `off` ignores the rule\n"
    "  --unaligned[=M]   unaligned LDR/LDRH/LDRSH/STR/STRH cost extra cycles (TRM 3.3.2: +1 for a\n"
    "                    halfword at an odd address or a word at 2 mod 4, +2 for a word at an odd one;\n"
    "                    docs/cycle-model.md). M: `entry` (the default) from the registers at each\n"
    "                    block's entry or exit, a code hook on the rest, `exact` (the bare option) a\n"
    "                    hook on every load and store (about 1.64x the host instructions), `off`\n"
    "                    ignores the rule\n"
    "  --trace           print every executed instruction to stderr\n"
    "  --elf FILE        load FILE's segments into flash/RAM before starting (factory programmed)\n"
    "  --standalone      no debugger: run --elf, print each marker halt, exit 0 at BKPT #4. Any other\n"
    "                    end prints `end pc=0x... cyccnt=N reason=R [exc=E] [symbol=S]`: exit 3 when the\n"
    "                    firmware can go no further (R spin: a branch to itself nothing can interrupt, as a\n"
    "                    fault handler's `b .`; sleep: WFI with nothing to wake it), 1 on lockup or when\n"
    "                    --max-cycles elapse (R max-cycles), 0 at --until-uart's mark (R uart-mark)\n"
    "  --max-cycles N    --standalone: give up after N cycles (default: no limit)\n"
    "  --until-uart S    --standalone: end (exit 0) once a USART has sent S (pqm4's `#` end mark)\n"
    "  --ledger[=FILE]   --standalone: at the end print the cycles by reason (`ledger REASON CYCLES\n"
    "                    SHARE%`, `ledger total CYCLES`; docs/cycle-model.md); FILE: also as JSON\n"
    "  --record=PATH     write at every halt what the core ran since the last resume, by calling\n"
    "                    context and instruction, with its cycles by reason and the lowest MSP/PSP\n"
    "                    (docs/sim-record.md); PATH is created, or emptied\n"
    "  --no-debugger     --standalone without the built-in debugger (C_DEBUGEN stays 0: markers take\n"
    "                    DebugMonitor/HardFault); exit 0 when the core sleeps with nothing to wake it\n"
    "  --quiet           no informational messages or notes on stderr, no UART echo\n"
    "  --no-spin         sleep in poll() between JTAG or ST-LINK requests instead of busy-waiting\n"
    "                    up to 200 us for the next one (faster round trips on an idle machine, slower on a loaded "
    "one)\n"
    "  --help            this text\n"
    "\n"
    "Control interface: one command per line, one reply line: `stats`, `wait-states N|auto`,\n"
    "`trace on|off`, `dap-wait N`, `where ADDR`, `quit`.\n"
    "Exit: 0 on SIGINT/SIGTERM/quit, 2 on bad usage, 1 on errors; --standalone: above (docs/exit-codes.md).\n";
/* A rule's mode, `--OPT` (exact) or `--OPT=exact|entry|off` (--memory-blocks, --unaligned): the
 * index of the mode in that order. From the argument as given (argv, not optarg: the value is
 * optional, and testing optarg for NULL here makes clang's analyser assume it may be NULL for every
 * other option). */
static int parse_rule_mode(const char *arg, const char *opt, unsigned *idx)
{
	static const char *const modes[] = {"exact", "entry", "off"};
	const char *eq = strchr(arg, '=');
	const char *m = eq ? eq + 1 : modes[0];
	for (unsigned k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		if (strcmp(m, modes[k]) == 0) {
			*idx = k;
			return 0;
		}
	}
	sim_msg("bad %s `%s`: give entry, exact or off", opt, m);
	return -1;
}

/* `--ledger` or `--ledger=FILE`. FILE must not be the --elf (checked once both are known). */
static int parse_ledger(const char *arg, struct sim_options *o)
{
	const char *eq = strchr(arg, '=');
	o->ledger = true;
	o->ledger_file = eq ? eq + 1 : NULL;
	if (eq && !eq[1]) {
		sim_msg("--ledger= needs a file name: --ledger=FILE writes the totals as JSON there");
		return -1;
	}
	return 0;
}

/* True when a and b name the same existing file. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int sim_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || !end || end == s || *end || s[0] == '-' || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Returns 0, 1 for --help (exit 0), or -1 for bad usage (message printed). */
int sim_parse_args(int argc, char **argv, struct sim_options *o)
{
	enum {
		O_JTAG_PORT = 256,
		O_JTAG_SOCKET,
		O_CTL_PORT,
		O_WAIT,
		O_TRACE,
		O_ELF,
		O_STANDALONE,
		O_NO_DEBUGGER,
		O_MAX,
		O_QUIET,
		O_SPIN,
		O_NO_SPIN,
		O_STLINK_PORT,
		O_MEMORY_BLOCKS,
		O_LEDGER,
		O_RECORD,
		O_UNTIL_UART,
		O_UNALIGNED
	};
	static const struct option longopts[] = {
	    {"stlink-port", required_argument, NULL, O_STLINK_PORT},
	    {"jtag-port", required_argument, NULL, O_JTAG_PORT},
	    {"jtag-socket", required_argument, NULL, O_JTAG_SOCKET},
	    {"ctl-port", required_argument, NULL, O_CTL_PORT},
	    {"wait-states", required_argument, NULL, O_WAIT},
	    {"memory-blocks", optional_argument, NULL, O_MEMORY_BLOCKS},
	    {"trace", no_argument, NULL, O_TRACE},
	    {"elf", required_argument, NULL, O_ELF},
	    {"standalone", no_argument, NULL, O_STANDALONE},
	    {"no-debugger", no_argument, NULL, O_NO_DEBUGGER},
	    {"max-cycles", required_argument, NULL, O_MAX},
	    {"ledger", optional_argument, NULL, O_LEDGER},
	    {"record", required_argument, NULL, O_RECORD},
	    {"until-uart", required_argument, NULL, O_UNTIL_UART},
	    {"unaligned", optional_argument, NULL, O_UNALIGNED},
	    {"quiet", no_argument, NULL, O_QUIET},
	    {"spin", no_argument, NULL, O_SPIN},
	    {"no-spin", no_argument, NULL, O_NO_SPIN},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	*o = (struct sim_options){
	    .stlink_port = -1, .jtag_port = -1, .ctl_port = -1, .wait_states = -1, .memory_blocks = SIM_MB_ENTRY};
	int c;
	uint64_t v;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case O_STLINK_PORT:
		case O_JTAG_PORT:
		case O_CTL_PORT:
			if (sim_parse_u64(optarg, 65535, &v) < 0) {
				sim_msg("bad port `%s`: give 0-65535 (0 picks a free port)", optarg);
				return -1;
			}
			if (c == O_JTAG_PORT)
				o->jtag_port = (long)v;
			else if (c == O_STLINK_PORT)
				o->stlink_port = (long)v;
			else
				o->ctl_port = (long)v;
			break;
		case O_JTAG_SOCKET:
			o->jtag_socket = optarg;
			break;
		case O_WAIT:
			if (strcmp(optarg, "auto") == 0) {
				o->wait_states = -1;
				break;
			}
			if (sim_parse_u64(optarg, 15, &v) < 0) {
				sim_msg("bad --wait-states `%s`: give 0-15, or auto to follow FLASH_ACR.LATENCY",
				        optarg);
				return -1;
			}
			o->wait_states = (int)v;
			break;
		case O_TRACE:
			o->trace = true;
			break;
		case O_ELF:
			o->elf = optarg;
			break;
		case O_STANDALONE:
			o->standalone = true;
			break;
		case O_NO_DEBUGGER:
			o->no_debugger = true;
			break;
		case O_MAX:
			if (sim_parse_u64(optarg, UINT64_MAX, &o->max_cycles) < 0) {
				sim_msg("bad --max-cycles `%s`: give a number of cycles", optarg);
				return -1;
			}
			break;
		case O_QUIET:
			o->quiet = true;
			break;
		case O_SPIN: /* the default since spinning won idle and loaded; kept for old scripts */
			o->spin = true;
			break;
		case O_NO_SPIN:
			o->no_spin = true;
			break;
		case O_MEMORY_BLOCKS: {
			static const enum sim_memory_blocks mb[] = {SIM_MB_EXACT, SIM_MB_ENTRY, SIM_MB_OFF};
			unsigned k;
			if (parse_rule_mode(argv[optind - 1], "--memory-blocks", &k) < 0)
				return -1;
			o->memory_blocks = mb[k];
			break;
		}
		case O_LEDGER: /* argv, not optarg: as --memory-blocks */
			if (parse_ledger(argv[optind - 1], o) < 0)
				return -1;
			break;
		case O_RECORD:
			if (!*optarg) {
				sim_msg("--record= needs a file name: --record=PATH writes the halt records there");
				return -1;
			}
			o->record = optarg;
			break;
		case O_UNALIGNED: {
			static const enum sim_unaligned ua[] = {SIM_UA_EXACT, SIM_UA_ENTRY, SIM_UA_OFF};
			unsigned k;
			if (parse_rule_mode(argv[optind - 1], "--unaligned", &k) < 0)
				return -1;
			o->unaligned = ua[k];
			break;
		}
		case O_UNTIL_UART:
			if (!optarg[0]) {
				sim_msg("--until-uart needs a string: the bytes that end the run (pqm4: '#')");
				return -1;
			}
			o->until_uart = optarg;
			break;
		case 'h':
			return 1;
		default:
			sim_msg("unknown option `%s`: see bench-sim --help", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		sim_msg("unexpected argument `%s`: see bench-sim --help", argv[optind]);
		return -1;
	}
	if (o->no_debugger && !o->standalone) {
		sim_msg("--no-debugger goes with --standalone");
		return -1;
	}
	if (o->ledger && !o->standalone) {
		sim_msg("--ledger goes with --standalone (a whole run's cycles by reason)");
		return -1;
	}
	if (o->until_uart && !o->standalone) {
		sim_msg("--until-uart goes with --standalone");
		return -1;
	}
	if (o->standalone && !o->elf) {
		sim_msg("--standalone needs --elf FILE");
		return -1;
	}
	if (o->ledger_file && o->elf && same_file(o->ledger_file, o->elf)) {
		sim_msg("--ledger=%s is the --elf: it would be overwritten; give another file", o->ledger_file);
		return -1;
	}
	if (o->record && o->ledger) {
		sim_msg("--record and --ledger both listen to the cycle ledger: give one (each record has the "
		        "cycles by reason)");
		return -1;
	}
	if (o->record && o->elf && same_file(o->record, o->elf)) {
		sim_msg("--record=%s is the --elf: it would be overwritten; give another file", o->record);
		return -1;
	}
	if (o->jtag_port < 0 && !o->jtag_socket && o->stlink_port < 0)
		o->jtag_port = 0;
	return 0;
}
