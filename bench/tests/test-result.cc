// test-result.cc: a state decided from its repetitions, and a bound written rounded up, never down
#include <cstdio>
#include <string>

#include "../result.h"

static int fail;

static void check_bound(double bound, const char *want)
{
	rb_result r;

	r.add({rb_state::below_resolution, bound, "", false});
	std::string got = rb_result_line(r, 1), expect = std::string("below timer resolution (< ") + want + " cycles)";
	if (got != expect) {
		printf("FAIL: a bound of %.17g: '%s', wanted '%s'\n", bound, got.c_str(), expect.c_str());
		fail = 1;
	} else {
		printf("ok: a bound of %.17g: '%s'\n", bound, got.c_str());
	}
}

int main()
{
	check_bound(21, "21");			// a timer step: exact
	check_bound(26.25, "26.3");		// three digits, the last up
	check_bound(0.01234, "0.0124");
	check_bound(0.1, "0.1");		// 0.1 in binary is not rounded up to 0.101
	check_bound(1234.5, "1240");		// no exponent
	check_bound(8.01e-05, "0.0001");	// under 0.01: the power of ten above
	check_bound(0.001, "0.001");

	// most repetitions below the step make the benchmark below resolution, with the highest bound
	rb_result r;
	r.add({rb_state::below_resolution, 21, "", false});
	r.add({rb_state::measured, 0, "", false});
	r.add({rb_state::below_resolution, 42, "", false});
	if (r.state != rb_state::below_resolution || r.bound != 42) {
		printf("FAIL: two of three repetitions below: state %d, bound %g\n", (int)r.state, r.bound);
		fail = 1;
	} else {
		printf("ok: two of three repetitions below: below resolution, < 42\n");
	}
	return fail;
}
