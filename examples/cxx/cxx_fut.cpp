// The C++ function under test, in its own file so BENCH_CALL measures a call (docs/target.md).
#include "cxx_fut.hpp"

int scale(int x)
{
	return fir::Filter<int, 4>{{1, 3, 3, 1}}.dot(x);
}
