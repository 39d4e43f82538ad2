// A small C++ kernel for the C++ firmware: a template with constexpr members.
#ifndef CXX_FUT_HPP
#define CXX_FUT_HPP

namespace fir
{
template <typename T, unsigned N> struct Filter {
	T taps[N];
	constexpr T dot(T x) const
	{
		T acc = 0;
		for (unsigned i = 0; i < N; i++)
			acc += taps[i] * (x + static_cast<T>(i));
		return acc;
	}
};
} // namespace fir

int scale(int x);

#endif
