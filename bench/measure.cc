// measure.cc: runs one benchmark: its kernel timed in its family's shape, the estimators applied, counters reported
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>
#ifdef LIKWID_PERFMON
#include <likwid-marker.h>
#endif

#include "contract.h"
#include "env.h"
#include "output.h"
#include "primitives.h"
#include "regbench.h"

namespace {

constexpr size_t kSamples = 100000;		// lat/flush samples per repetition
constexpr size_t kSamplesPerCall = 256;
constexpr uint64_t kMinTicksPerCall = 20000;	// kernels run long enough for the TSC to be exact
constexpr unsigned int kMinRounds = 12;		// rounds of fastest calls, however soon they settle
constexpr uint64_t kWriteValue = 0x5a5a5a5a5a5a5a5aull;

double g_budget;				// seconds one repetition measures at most (rb_measure_init)
const rb_clock *g_clock;			// the clock (rb_measure_init)
std::vector<double> g_core_per_tick;		// the core clock beside each repetition (core cycles per TSC tick)
rb_control_history g_control;			// every reading of the control so far

struct Buffer {
	std::unique_ptr<unsigned char[]> raw;
	void *p;
	explicit Buffer(size_t bytes) : raw(new unsigned char[bytes + 64]())
	{
		p = raw.get() + (64 - reinterpret_cast<uintptr_t>(raw.get()) % 64) % 64;
	}
};

bool fail(benchmark::State &st, const char *why)
{
	st.SkipWithError((std::string("error: ") + why).c_str());
	return false;
}

// Runs f under the fault guard; on a fault marks the benchmark failed.
bool run(benchmark::State &st, const rb_bench &b, rb_kernel_fn f, const rb_kernel_arg &a, uint64_t iters,
	 rb_span *span)
{
	char why[200];

	if (rb_guarded_run(f, &a, iters, b.clk, span, why, sizeof(why)))
		return fail(st, why);
	return true;
}

/*
 * Doubles iters until a call of f takes kMinTicksPerCall, judged by the
 * faster of two calls of each length: a kernel's first call pays for cold
 * caches, page faults and branch predictors (tens of thousands of ticks
 * on a VM), and a length taken from it alone can be one iteration, whose
 * few accesses no timer resolves.
 */
bool calibrate(benchmark::State &st, const rb_bench &b, rb_kernel_fn f, const rb_kernel_arg &a, uint64_t *iters)
{
	rb_span first = {}, second = {};

	for (*iters = 1; *iters < (1ull << 30); *iters *= 2) {
		if (!run(st, b, f, a, *iters, &first) || !run(st, b, f, a, *iters, &second))
			return false;
		if (std::min(first.ticks, second.ticks) >= kMinTicksPerCall)
			break;
	}
	return true;
}

/*
 * The control beside a repetition (a reading before and after its rounds),
 * and what it said, with what the scheduler says of the time between the
 * readings (env.h: other work waiting for or stealing this CPU), which the
 * control, timing short bursts, can miss.  Its dependent add also gives the core clock of the
 * moment (core cycles per tick) where no counter counts them: the core clock
 * moves with turbo and load, so a ratio taken at start-up would not fit a
 * benchmark run a minute later.
 */
class Watch {
public:
	// the repetition's time budget ends g_budget seconds from now
	explicit Watch(const rb_bench &b) : b_(b)
	{
		end_ = rb_tsc_start() + (uint64_t)(g_budget * b.clk->tsc_hz);
		rb_contention_read(&shared_);
	}

	// Reads the control: true when the machine is not disturbed, and no other work shared the CPU since
	// the last reading (or the start).
	bool calm()
	{
		rb_control c;
		rb_contention now;

		rb_control_read(&c, b_.clk);
		core_per_tick = c.tick_per_add > 0 ? 1 / c.tick_per_add : 0;
		rb_control_add(&g_control, &c);
		rb_contention_read(&now);
		bool shared = rb_contended(&shared_, &now);
		shared_ = now;
		return !rb_control_disturbed(&g_control, &c) && !shared;
	}

	bool time_left() const { return rb_tsc_start() < end_; }

	/*
	 * For a measurement that keeps its fastest calls: series of rounds of
	 * round(&gain) (false on a fault; gain: a fastest call dropped), each
	 * until they settle, between readings of the control.  A series the
	 * control read a disturbed machine before or after is followed by
	 * another while the budget lasts: rounds in a calm moment lower the
	 * fastest calls to the machine's figure.
	 */
	template <typename Round>
	bool rounds(Round round)
	{
		for (bool calm_before = calm();;) {
			rb_settling s = {};
			do {
				bool gain;

				if (!round(&gain))
					return false;
				rb_settling_round(&s, gain);
			} while (!rb_settled(&s, kMinRounds) && time_left());
			bool calm_after = calm();
			disturbed = !(calm_before && calm_after);
			if (!disturbed || !time_left())
				return true;
			calm_before = calm_after;
		}
	}

	bool disturbed = false;
	double core_per_tick = 0;

private:
	const rb_bench &b_;
	uint64_t end_;
	rb_contention shared_;		// at the last reading
};

// What one repetition measured: a cost per unit (ticks, and core cycles where counted), or the bound
// it lies below, or nothing (a fault).  The sampled runner sets its percentiles on the state itself.
struct Result {
	bool ok = false, below = false;
	double ticks = 0, core = 0, bound = 0;
};

Result cost(const rb_cost &c)
{
	Result r;

	r.ok = true;
	r.below = c.below;
	r.bound = c.bound;
	r.ticks = c.ticks;
	r.core = c.core;
	return r;
}

/*
 * RB_UNROLLED: cost per access from the twin with twice the accesses (minus
 * the chain baseline), between the fastest calls of each, in rounds until
 * they settle (again while the control reads a disturbed machine) or the
 * budget ends.
 */
Result run_unrolled(benchmark::State &st, const rb_bench &b, Watch &w)
{
	const rb_kernel &k = *b.k;
	rb_kernel_arg a = {b.io, nullptr, 0, kWriteValue, 0, b.clk->timer};
	rb_fastest once = rb_fastest_none(), twice = once, base_once = once, base_twice = once;
	uint64_t iters;
	auto round = [&](bool *gain) {
		rb_span s1, s2, b1, b2;

		if (!run(st, b, k.fn, a, iters, &s1) || !run(st, b, k.twin, a, iters, &s2))
			return false;
		if (k.base && (!run(st, b, k.base, a, iters, &b1) || !run(st, b, k.base_twin, a, iters, &b2)))
			return false;
		*gain = rb_fastest_gain(&once, s1.ticks, s1.core) | rb_fastest_gain(&twice, s2.ticks, s2.core);
		if (k.base)
			*gain |= rb_fastest_gain(&base_once, b1.ticks, b1.core) |
				 rb_fastest_gain(&base_twice, b2.ticks, b2.core);
		return true;
	};

	if (!calibrate(st, b, k.fn, a, &iters) || !w.rounds(round))
		return {};
	return cost(rb_unrolled_cost(&once, &twice, k.base ? &base_once : nullptr, k.base ? &base_twice : nullptr,
				     (double)(iters * k.unroll), b.clk->resolution));
}

/*
 * RB_SAMPLED: every access timed alone, kSamples of them (fewer when the
 * budget ends first), the timer's own median cost subtracted: as many empty
 * timings, taken between the calls of this repetition, since the timer's
 * cost moves with the host's load by more than an L1 access costs.  A sample
 * below that cost (the timer alone varies by a step or two) is counted in
 * below_overhead and kept as 0, never as a negative latency.  Samples beyond
 * the far-out fence are interrupts, migrations or host preemption: counted
 * as outliers, kept in the percentiles and the histogram, never dropped.
 */
Result run_sampled(benchmark::State &st, const rb_bench &b, Watch &w)
{
	const rb_family &f = *b.k->family;
	std::vector<uint64_t> chunk(kSamplesPerCall), raw, empty;
	std::vector<double> s, ratio;
	rb_kernel_arg a = {b.io, chunk.data(), 0, kWriteValue, 0, b.clk->timer};
	size_t under = 0;
	bool calm = w.calm();

	raw.reserve(kSamples);
	empty.reserve(kSamples);
	ratio.reserve(kSamples / kSamplesPerCall + 1);
	do {
		rb_span span;

		if (!run(st, b, b.k->fn, a, kSamplesPerCall, &span))
			return {};
		if (span.ticks)
			ratio.push_back((double)span.core / (double)span.ticks);
		raw.insert(raw.end(), chunk.begin(), chunk.end());
		empty.resize(raw.size());
		rb_timer_empty(b.clk->timer, &empty[raw.size() - kSamplesPerCall], kSamplesPerCall);
	} while (raw.size() < kSamples && w.time_left());
	w.disturbed = !(w.calm() && calm);
	double overhead = rb_median_u64(empty.data(), empty.size());
	s.reserve(raw.size());
	for (uint64_t v : raw) {
		double c = (double)v - overhead;
		under += c < 0;
		s.push_back(std::max(c, 0.0));
	}
	std::sort(s.begin(), s.end());
	auto pct = [&](double p) { return rb_percentile(s.data(), s.size(), p); };
	double step = b.clk->resolution;
	size_t outliers = rb_count_above(s.data(), s.size(), rb_outlier_fence(s.data(), s.size(), step));
	Result r;

	if (f.reports & RB_REPORT_HISTOGRAM) {
		rb_histogram h;
		rb_bin_samples(s.data(), s.size(), pct(0.999), step, &h);
		rb_contract_histogram(b.name, h);
	}
	r.ok = true;
	if (pct(0.5) < step) {
		r.below = true;
		r.bound = step;
		return r;
	}
	r.ticks = pct(0.5);
	std::nth_element(ratio.begin(), ratio.begin() + ratio.size() / 2, ratio.end());
	// with a counter, the live core/TSC ratio of these samples converts the TSC figure
	r.core = ratio.empty() ? 0 : r.ticks * ratio[ratio.size() / 2];
	if (f.reports & RB_REPORT_OUTLIERS) {
		st.counters["outliers"] = (double)outliers;
		st.counters["below_overhead"] = (double)under;
	}
	if (f.reports & RB_REPORT_PERCENTILES)
		for (const rb_percentile_counter &p : rb_percentile_counters)
			st.counters[p.counter] = pct(p.q);
	return r;
}

// RB_BATCH: calls of n elements (a count: cost per element) or n bytes (a size: cost per call), timed as
// RB_UNROLLED's are.
Result run_batch(benchmark::State &st, const rb_bench &b, Watch &w)
{
	const rb_kernel &k = *b.k;
	bool count = k.family->param == RB_PARAM_COUNT;
	Buffer mem(b.n * k.bytes);
	rb_kernel_arg a = {b.io, mem.p, b.n, 0xa5, 0, b.clk->timer};
	rb_fastest f = rb_fastest_none();
	uint64_t iters;

	auto round = [&](bool *gain) {
		rb_span span;

		if (!run(st, b, k.fn, a, iters, &span))
			return false;
		*gain = rb_fastest_gain(&f, span.ticks, span.core);
		return true;
	};

	memset(mem.p, 0x3c, b.n * k.bytes);
	if (!calibrate(st, b, k.fn, a, &iters) || !w.rounds(round))
		return {};
	return cost(rb_batch_cost(&f, b.clk->overhead, (double)iters * (count ? (double)b.n : 1), b.clk->resolution));
}

// One repetition: the family's runner beside the control; Google Benchmark's time is the cost.
void measure(benchmark::State &st, const rb_bench &b)
{
	const rb_kernel &k = *b.k;
	double bytes = k.family->param == RB_PARAM_SIZE ? (double)b.n : k.bytes;
	Watch w(b);
	Result r;

	switch (k.family->shape) {
	case RB_UNROLLED: r = run_unrolled(st, b, w); break;
	case RB_SAMPLED: r = run_sampled(st, b, w); break;
	case RB_BATCH: r = run_batch(st, b, w); break;
	}
	if (!r.ok)
		return;
	if (w.core_per_tick > 0)
		g_core_per_tick.push_back(w.core_per_tick);
	if (w.disturbed)
		rb_contract_disturbed(b.name);
	if (r.below) {
		char label[96];

		snprintf(label, sizeof(label), "below timer resolution (< %.3g cycles)", r.bound);
		st.SetLabel(label);
		rb_contract_below(b.name, label, r.bound);
		// no figure: the time is the bound it lies under, as the label says
		st.SetIterationTime(r.bound / b.clk->tsc_hz);
		return;
	}
	double core = b.clk->core_fd >= 0 ? r.core : r.ticks * w.core_per_tick, ns = r.ticks / b.clk->tsc_hz * 1e9;

	st.counters["cycles"] = r.ticks;
	st.counters["core_cycles"] = core;
	st.counters["ns"] = ns;
	if (bytes > 0)
		st.counters["bytes_per_second"] = bytes * b.clk->tsc_hz / r.ticks;
	st.SetIterationTime(ns * 1e-9);
}

/*
 * The device behind a hardware target.  One that is absent or not decoding
 * reads as all-ones.  The first benchmark that reads makes one guarded read
 * of the target's register, of the widest allowed width up to 32 bits: its
 * value goes into the context (target_first_read), and all-ones there fails
 * every reading benchmark; narrower reads then tell a register that answers
 * only them (ne2k's, pcnet's), whose widths the reason names.  Nothing is
 * read before a benchmark asks to read.
 * Before the first benchmark and after each one the device must still
 * answer (nothing touches it in between; a benchmark that failed is checked
 * again before the next): still decoding its space and, once it has been
 * read, its register not all-ones; when it stops, the run stops.
 */
struct Device {
	int state = 0;			// 0 not read yet, 1 answers, 2 did not answer at the first read
	unsigned int bytes = 4;		// the width of those reads
	std::string why;		// state 2: why not
	std::string lost;		// why it stopped answering during the run ("" while it answers)
	bool checked = false;		// it answered after the last benchmark, which ended well
} g_device;

struct RegisterRead {
	const iomap_target *t;
	unsigned int bytes;
	uint64_t value;
};

uint64_t read_register(const rb_kernel_arg *a, uint64_t iters)
{
	auto *r = static_cast<RegisterRead *>(a->mem);

	(void)iters;
	r->value = iomap_target_read(r->t, r->t->reg_off, r->bytes);
	return 0;
}

// One guarded read of the register, bytes wide: 0, or -1 with the fault in *why.
int read_guarded(const iomap_target &t, const rb_clock &clk, unsigned int bytes, uint64_t *value, std::string *why)
{
	RegisterRead r = {&t, bytes, 0};
	rb_kernel_arg a = {t.base, &r, 0, 0, 0, clk.timer};
	rb_span span;
	char fault[160];

	if (rb_guarded_run(read_register, &a, 1, &clk, &span, fault, sizeof(fault))) {
		*why = fault;
		return -1;
	}
	*value = r.value;
	return 0;
}

bool all_ones(uint64_t v, unsigned int bytes)
{
	return v == ~0ull >> (64 - 8 * bytes);
}

// After an all-ones first read: the allowed narrower widths whose reads answer, as widths= takes
// them ("8+16"), and what the widest one read in *read; "" when none does.
std::string narrower_answers(const iomap_target &t, const rb_clock &clk, std::string *read)
{
	std::string widths, fault;
	uint64_t v;
	char hex[24];

	for (unsigned int bytes = 1; bytes < g_device.bytes; bytes *= 2)
		if (iomap_target_allows_width(&t, bytes) && !read_guarded(t, clk, bytes, &v, &fault) &&
		    !all_ones(v, bytes)) {
			widths += (widths.empty() ? "" : "+") + std::to_string(bytes * 8);
			snprintf(hex, sizeof(hex), "0x%0*llx", (int)bytes * 2, (unsigned long long)v);
			*read = (bytes == 1 ? "an 8" : "a " + std::to_string(bytes * 8)) + "-bit read returned " + hex;
		}
	return widths;
}

const char *device_not_responding(const iomap_target &t, const rb_clock &clk)
{
	if (g_device.state == 0) {
		uint64_t value = 0;
		std::string fault;
		char hex[24];

		while (g_device.bytes > 1 && (!iomap_target_allows_width(&t, g_device.bytes) || g_device.bytes > t.len))
			g_device.bytes /= 2;
		if (read_guarded(t, clk, g_device.bytes, &value, &fault)) {
			g_device.why = "the first read faulted: " + fault;
			g_device.state = 2;
			return g_device.why.c_str();
		}
		snprintf(hex, sizeof(hex), "0x%0*llx", (int)g_device.bytes * 2, (unsigned long long)value);
		benchmark::AddCustomContext("target_first_read", hex);
		g_device.state = all_ones(value, g_device.bytes) ? 2 : 1;
		if (g_device.state == 2) {
			std::string narrow, widths = narrower_answers(t, clk, &narrow);

			g_device.why = "device not responding: the first " + std::to_string(g_device.bytes * 8) +
				       "-bit read returned all-ones" +
				       (widths.empty() ? " (is it present, powered and decoding?)"
						       : ", but " + narrow + " (does the register take only narrower "
							 "accesses? give the target widths=" + widths + ")");
		}
	}
	return g_device.state == 2 ? g_device.why.c_str() : nullptr;
}

// Why the device behind a hardware target no longer answers, or "": its decoding switched off, or
// its register (once it answered) reading all-ones or faulting.
std::string device_gone(const rb_bench &b)
{
	char why[300];
	uint64_t value;
	std::string fault;

	if (iomap_target_decoding(b.t, why, sizeof(why)))
		return why;
	if (g_device.state != 1)
		return "";
	if (read_guarded(*b.t, *b.clk, g_device.bytes, &value, &fault))
		return "a read of its register faulted: " + fault;
	if (all_ones(value, g_device.bytes))
		return "its register reads all-ones (" + std::to_string(g_device.bytes * 8) + "-bit) where it first "
		       "read a value";
	return "";
}

// The device stopped answering: this benchmark fails, the rest are not run, the run ends (rb_device_lost).
void device_lost(benchmark::State &st, const rb_bench &b, const std::string &why)
{
	g_device.lost = why;
	benchmark::AddCustomContext("target_lost", why);
	fail(st, ("the device stopped answering: " + why).c_str());
}

#ifdef LIKWID_PERFMON
bool g_markers = false;
#endif

}  // namespace

// Each benchmark is one likwid marker region named after it, when likwid-perfctr -m runs us.
void rb_run(benchmark::State &st, const rb_bench &b)
{
	if (rb_interrupted() || !g_device.lost.empty()) {
		// asked to stop, or the device is gone: what ran is kept, the rest is not started
		std::string why = rb_interrupted() ? "not run: the run was interrupted"
						   : "not run: the device stopped answering";
		rb_contract_skipped(b.name, why);
		return rb_skip(st, why);
	}
	std::string gone = b.t->hardware && !g_device.checked ? device_gone(b) : "";
	const char *dead = b.t->hardware && b.k->reads ? device_not_responding(*b.t, *b.clk) : nullptr;

	if (!gone.empty() || dead) {
		if (!gone.empty())
			device_lost(st, b, gone);
		else
			fail(st, dead);
		for (auto _ : st) {
		}
		return;
	}
#ifdef LIKWID_PERFMON
	if (g_markers)
		LIKWID_MARKER_START(b.name.c_str());
#endif
	for (auto _ : st)
		measure(st, b);
#ifdef LIKWID_PERFMON
	if (g_markers)
		LIKWID_MARKER_STOP(b.name.c_str());
#endif
	// a device that stopped during the benchmark makes its figures meaningless
	if (b.t->hardware && !st.error_occurred() && !(gone = device_gone(b)).empty())
		device_lost(st, b, gone);
	g_device.checked = b.t->hardware && !st.error_occurred();
}

bool rb_measure_context_key(const std::string &key)
{
	return key == "target_first_read" || key == "target_lost" || key == "core_hz_estimate" ||
	       key == "core_hz_source";
}

void rb_measure_context()
{
	char hz[32], source[200];
	std::vector<double> &v = g_core_per_tick;

	if (v.empty()) {
		snprintf(hz, sizeof(hz), "%.0f", g_clock->core_hz);
		snprintf(source, sizeof(source), "%s, at start-up (no repetition ran)", g_clock->core_hz_source);
	} else {
		std::nth_element(v.begin(), v.begin() + (long)(v.size() / 2), v.end());
		snprintf(hz, sizeof(hz), "%.0f", g_clock->tsc_hz * v[v.size() / 2]);
		snprintf(source, sizeof(source), "median of the %zu repetitions' dependent-add control (1 add per core "
			 "cycle, timed on the TSC beside each)", v.size());
	}
	benchmark::AddCustomContext("core_hz_estimate", hz);
	benchmark::AddCustomContext("core_hz_source", source);
}

const char *rb_device_lost()
{
	return g_device.lost.empty() ? nullptr : g_device.lost.c_str();
}

void rb_measure_init(const rb_clock &clk, double budget)
{
	g_budget = budget;
	g_clock = &clk;
	rb_control_prime(&g_control, &clk);
}

void rb_skip(benchmark::State &st, const std::string &why)
{
	st.SkipWithError(("skipped: " + why).c_str());
	for (auto _ : st) {
	}
}

/*
 * likwid-perfctr -m sets LIKWID_MODE and LIKWID_EVENTS for the program it
 * runs; without them the marker API would only print that it is inactive.
 */
void rb_markers_init()
{
#ifdef LIKWID_PERFMON
	if (getenv("LIKWID_MODE") && getenv("LIKWID_EVENTS")) {
		LIKWID_MARKER_INIT;
		LIKWID_MARKER_THREADINIT;
		g_markers = true;
	}
#endif
}

void rb_markers_close()
{
#ifdef LIKWID_PERFMON
	if (g_markers)
		LIKWID_MARKER_CLOSE;
#endif
}
