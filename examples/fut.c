/* The function under test of the barebench article (D. Penning, "Was wird nur aus meinem Code?",
 * /work/shared/seeds/001_*.txt, figure 5): an int times pi in single precision. With the FPU it is
 * VCVT, VMUL, VCVT - the same cycles for every input; with -mfloat-abi=soft it calls the libgcc
 * routines __aeabi_i2f, __aeabi_fmul, __aeabi_f2iz, whose time depends on the input.
 * Its own file, so the call is measured as in the article (no inlining into the harness). */
int fut(int input);

int fut(int input)
{
	return input * 3.14159265359f;
}
