/* A firmware with no bench markers at all, shaped like an Embench-IoT benchmark: the measured work
 * sits between calls to start_trigger() and stop_trigger(), where a host plants breakpoints
 * (`bench run --start start_trigger --stop stop_trigger`). */
#include <stdint.h>

volatile uint32_t result;
volatile uint32_t trigger_count;

__attribute__((noinline)) void start_trigger(void)
{
	trigger_count++;
}

__attribute__((noinline)) void stop_trigger(void)
{
	trigger_count++;
}

/* CRC-32 (reflected, 0xEDB88320) over a small table: real work the compiler cannot fold away. */
static uint32_t crc32(const uint8_t *p, uint32_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static const uint8_t data[] = "123456789";

void reset_handler(void)
{
	start_trigger();
	result = crc32(data, 9); /* 0xCBF43926, the CRC-32 check value */
	stop_trigger();
	for (;;)
		;
}
