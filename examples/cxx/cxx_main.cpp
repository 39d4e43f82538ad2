// A C++17 firmware measured by bench: every bench.h macro from C++, BENCH_CALL on a C function
// (fut, examples/fut.c) and a C++ one (scale), a global whose constructor must have run, and the
// firmware's own DebugMon_Handler calling BENCH_HANDLER_ENTRY() (it replaces the port's weak one).
#include <stdint.h>

#include "bench.h"
#include "cxx_fut.hpp"

extern "C" int fut(int input);
extern "C" void DebugMon_Handler(void);

volatile int input = 3; // bench run --arg input=...
volatile int result_c, result_cxx, result_fir;
volatile uint32_t attached;

namespace
{
class Accumulator
{
      public:
	Accumulator() : total_(1000)
	{
	} // runs before main (Reset_Handler's init_array loop)
	void add(int v)
	{
		total_ += v;
	}
	int total() const
	{
		return total_;
	}

      private:
	int total_;
};
Accumulator accumulator;
} // namespace

volatile int constructed = 0;

extern "C" void DebugMon_Handler(void)
{
	BENCH_HANDLER_ENTRY();
	for (;;) {
	}
}

int main()
{
	if (accumulator.total() != 1000) // the constructor did not run: stop where bench reports a fault
		__asm__ volatile("bkpt #0x0f");
	bench_init();
	attached = static_cast<uint32_t>(bench_debugger_attached());
	constexpr fir::Filter<int, 3> smooth{{1, 2, 1}};
	while (bench_sync()) {
		BENCH_CALL(fut, result_c, fut, input);
		BENCH_CALL(scale, result_cxx, scale, input);
		int v = input;
		bench_launder(v);
		BENCH_BEGIN(fir);
		int acc = smooth.dot(v);
		bench_do_not_optimize(acc);
		BENCH_END(fir);
		result_fir = acc;
		accumulator.add(acc);
		bench_clobber_memory();
	}
	constructed = accumulator.total();
	bench_done();
	return 0;
}
