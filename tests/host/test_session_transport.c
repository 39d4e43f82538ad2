/* The report's transport name for each transport OpenOCD 0.12 can select (src/transport/transport.c
 * and the adapters' .transports lists; docs/report-schema.md context.transport): a JTAG wire is
 * "jtag" whatever adapter drives it, the ST-LINK's own commands "hla", an ADIv5 DAP over SWD "dap". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "session/session.h"

static void openocd_names(void **state)
{
	(void)state;
	assert_string_equal(session_transport_name("jtag"), "jtag"); /* remote_bitbang, FTDI, J-Link JTAG */
	assert_string_equal(session_transport_name("dapdirect_jtag"), "jtag");
	assert_string_equal(session_transport_name("hla_swd"), "hla");
	assert_string_equal(session_transport_name("hla_jtag"), "hla");
	assert_string_equal(session_transport_name("dapdirect_swd"), "dap");
	assert_string_equal(session_transport_name("swd"), "dap"); /* CMSIS-DAP, J-Link SWD */
	/* Not a wire the schema names (STM8's swim), or not an answer at all: board.json's stays. */
	assert_null(session_transport_name("swim"));
	assert_null(session_transport_name(""));
	assert_null(session_transport_name("invalid command name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(openocd_names)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
