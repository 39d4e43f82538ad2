/* An empty program: sim/CMakeLists.txt links one layer's every object into it with only the layers
 * below that layer, so a call into an upper layer is an undefined reference at build time. */
int main(void)
{
	return 0;
}
