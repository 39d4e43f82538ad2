/* An image that does not fit the STM32F4's 1 MiB flash: 512 bytes of 0xA5 from 0x080FFF00, the
 * last 256 of them past the end of flash (0x08100000). OpenOCD writes the part inside the bank,
 * then fails with "no flash bank found" for the rest; `program` must report the failure and the
 * board keep serving. (A whole 1.5 MiB image fails the same way, after ~30 s of programming the
 * first 1 MiB over JTAG: too slow for a test.) */
	.section .image, "a"
	.fill 0x200, 1, 0xA5
