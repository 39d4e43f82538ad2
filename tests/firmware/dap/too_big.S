/* An image larger than the STM32F4's 1 MiB flash: 1.5 MiB of 0xA5 from 0x08000000 (the linker
 * script claims 2 MiB). `program` must fail with a clear message and the board keep serving. */
	.section .vectors, "a"
	.word 0x20020000
	.word 0x08000009
	.fill 0x180000 - 8, 1, 0xA5
