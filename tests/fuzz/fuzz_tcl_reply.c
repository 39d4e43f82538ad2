/* libFuzzer target: the OpenOCD TCL reply parsers (host/transport/openocd_tcl.c): tcl_parse_reply
 * splits the `list O|E result` wrapper every command is sent in, tcl_parse_u32_list reads the
 * integer lists of read_memory/reg replies. The input is one reply without its 0x1a terminator,
 * as read_reply hands it over (NUL-terminated). tcl_quote runs on the same bytes and its output
 * must parse back to one braced or escaped word (a round trip through the wrapper). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transport/openocd_tcl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = malloc(size + 1), *body = NULL, quoted[512];
	uint32_t words[64];
	bool is_error = false;

	if (!reply)
		return 0;
	memcpy(reply, data, size);
	reply[size] = '\0';
	(void)tcl_parse_u32_list(reply, words, sizeof(words) / sizeof(words[0]));
	if (strlen(reply) < 200 && tcl_quote(reply, quoted, sizeof(quoted)) < 0 && strlen(reply) < 100)
		__builtin_trap(); /* 100 bytes quote into at most 200 (a backslash per character) plus braces */
	if (tcl_parse_reply(reply, &is_error, &body) == 0) {
		if (!body || body < reply || body > reply + size)
			__builtin_trap(); /* the body must point into the reply */
		(void)tcl_parse_u32_list(body, words, sizeof(words) / sizeof(words[0]));
	}
	free(reply);
	return 0;
}
