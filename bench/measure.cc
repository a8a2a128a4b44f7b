// measure.cc: runs one benchmark: its kernel timed in its family's shape, the estimators applied, counters reported, how it ended recorded
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include <benchmark/benchmark.h>
#ifdef LIKWID_PERFMON
#include <likwid-marker.h>
#endif

#include "env.h"
#include "inkernel.h"
#include "measure.h"
#include "primitives.h"
#include "session.h"
#include "signals.h"

namespace {

constexpr size_t kSamples = 50000;		// lat/flush samples per repetition
constexpr size_t kSamplesPerCall = 256;
constexpr uint64_t kMinTicksPerCall = 20000;	// kernels run long enough for the timer to be exact
constexpr unsigned int kMinRounds = 12;		// rounds of fastest calls, however soon they stop dropping
// rounds even past the budget: the one round a host's steal lands on can leave a twin faster than its kernel
constexpr unsigned int kFewestRounds = 3;
constexpr uint64_t kWriteValue = 0x5a5a5a5a5a5a5a5aull;

struct Buffer {
	std::unique_ptr<unsigned char[]> raw;
	void *p;
	explicit Buffer(size_t bytes) : raw(new unsigned char[bytes + 64]())
	{
		p = raw.get() + (64 - reinterpret_cast<uintptr_t>(raw.get()) % 64) % 64;
	}
};

// What one benchmark's runner works with.
struct Bench {
	const rb_kernel &k;
	const rb_clock &clk;
	rb_measure_state &m;
	void __iomem *io;
	size_t n;			// rep elements or copy bytes, else 0
	rb_result &r;
	std::string fault;		// why a kernel faulted, once one did
	int kfd = -1;			// kernel: the regbench module's /dev/regbench, which runs r.line there
};

// Which of k's functions f is, as the module names its forms.
rb_inkernel_form form_of(const rb_kernel &k, rb_kernel_fn f)
{
	if (f == k.twin)
		return RB_IN_TWIN;
	if (f == k.base)
		return RB_IN_BASE;
	if (f == k.base_twin)
		return RB_IN_BASE_TWIN;
	return RB_IN_PLAIN;
}

/*
 * Runs f under the fault guard, or on a kernel: target the module's form of
 * it in the kernel (the same timer and shape, timed there); false on a
 * fault or a refusal, whose reason b keeps.
 */
bool run(Bench &b, rb_kernel_fn f, const rb_kernel_arg &a, uint64_t iters, rb_span *span)
{
	char why[200];
	int failed;

	if (b.kfd >= 0) {
		span->core = 0;
		failed = rb_inkernel_run(b.kfd, b.r.line, form_of(b.k, f), b.clk.timer, b.r.off, &a, iters, &span->ticks,
					 why, sizeof(why));
	} else {
		failed = rb_guarded_run(f, &a, iters, &b.clk, span, why, sizeof(why));
	}
	if (failed) {
		b.fault = why;
		return false;
	}
	return true;
}

/*
 * Doubles iters until a call of f takes kMinTicksPerCall, judged by the
 * faster of two calls of each length: a kernel's first call pays for cold
 * caches, page faults and branch predictors (tens of thousands of ticks
 * on a VM), and a length taken from it alone can be one iteration, whose
 * few accesses no timer resolves.
 */
bool calibrate(Bench &b, rb_kernel_fn f, const rb_kernel_arg &a, uint64_t *iters)
{
	rb_span first = {}, second = {};

	for (*iters = 1; *iters < (1ull << 30); *iters *= 2) {
		if (!run(b, f, a, *iters, &first) || !run(b, f, a, *iters, &second))
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
	// the repetition's time budget ends budget seconds from now
	explicit Watch(Bench &b) : b_(b)
	{
		end_ = rb_timer_start() + (uint64_t)(b.m.budget * b.clk.tick_hz);
		rb_contention_read(&shared_);
	}

	// Reads the control: true when the machine is not disturbed, and no other work shared the CPU since
	// the last reading (or the start).
	bool calm()
	{
		rb_control c;
		rb_contention now;

		rb_control_read(&c, &b_.clk);
		core_per_tick = c.tick_per_add > 0 ? 1 / c.tick_per_add : 0;
		rb_control_add(&b_.m.control, &c);
		rb_contention_read(&now);
		bool shared = rb_contended(&shared_, &now);
		shared_ = now;
		return !rb_control_disturbed(&b_.m.control, &c) && !shared;
	}

	bool time_left() const { return rb_timer_start() < end_; }

	/*
	 * For a measurement that keeps its fastest calls: series of rounds of
	 * round(&dropped) (false on a fault; dropped: a fastest call dropped),
	 * each until its fastest calls stop dropping (rb_rounds_enough), between
	 * readings of the control.  A series the
	 * control read a disturbed machine before or after is followed by
	 * another while the budget lasts: rounds in a calm moment lower the
	 * fastest calls to the machine's figure.
	 */
	template <typename Round>
	bool rounds(Round round)
	{
		for (bool calm_before = calm();;) {
			rb_rounds s = {};
			do {
				bool dropped;

				if (!round(&dropped))
					return false;
				rb_rounds_count(&s, dropped);
			} while (s.rounds < kFewestRounds || (!rb_rounds_enough(&s, kMinRounds) && time_left()));
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
	Bench &b_;
	uint64_t end_;
	rb_contention shared_;		// at the last reading
};

// What one repetition measured: a cost per unit (ticks, and core cycles where counted), or the bound
// it lies below, or nothing (a fault).  The sampled runner sets its percentiles on the state itself.
struct Cost {
	bool ok = false, below = false;
	double ticks = 0, core = 0, bound = 0;
};

Cost cost(const rb_cost &c)
{
	Cost r;

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
 * they stop dropping (again while the control reads a disturbed machine) or the
 * budget ends.
 */
Cost run_unrolled(Bench &b, Watch &w)
{
	const rb_kernel &k = b.k;
	rb_kernel_arg a = {b.io, nullptr, 0, kWriteValue, 0, b.clk.timer, 0, 0};
	rb_fastest once = rb_fastest_none(), twice = once, base_once = once, base_twice = once;
	uint64_t iters;
	auto round = [&](bool *dropped) {
		rb_span s1, s2, b1, b2;

		if (!run(b, k.fn, a, iters, &s1) || !run(b, k.twin, a, iters, &s2))
			return false;
		if (k.base && (!run(b, k.base, a, iters, &b1) || !run(b, k.base_twin, a, iters, &b2)))
			return false;
		*dropped = rb_fastest_lowered(&once, s1.ticks, s1.core) | rb_fastest_lowered(&twice, s2.ticks, s2.core);
		if (k.base)
			*dropped |= rb_fastest_lowered(&base_once, b1.ticks, b1.core) |
				 rb_fastest_lowered(&base_twice, b2.ticks, b2.core);
		return true;
	};

	if (!calibrate(b, k.fn, a, &iters) || !w.rounds(round))
		return {};
	return cost(rb_unrolled_cost(&once, &twice, k.base ? &base_once : nullptr, k.base ? &base_twice : nullptr,
				     (double)(iters * k.unroll), b.clk.resolution));
}

// A seed for a sampled call's dither (never 0): splitmix64 of a count, so that every run draws alike.
uint64_t dither_seed()
{
	static uint64_t n;
	uint64_t z = (n += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z ? z : 1;
}

/*
 * RB_SAMPLED: every access timed alone, kSamples of them (fewer when the
 * budget ends first), each call of the kernel followed by a call of its
 * baseline (the same loop without the access: sampled.h), since the timer's
 * cost moves with the host's load by more than an L1 access costs.  The
 * start of every sample is dithered against the timer's tick, so the mean
 * of the samples minus the baseline's mean is the access's mean cost below
 * one step of the timer (estimate.h: rb_dithered_mean), with its interval;
 * a repetition whose interval reaches 0 is below resolution, its bound the
 * interval's top.  Samples beyond the far-out fence are interrupts,
 * migrations or host preemption: counted as outliers, left out of both
 * means, kept in the percentiles and the histogram.  The samples less the
 * baseline's median are what the histogram bins and min and max are: a
 * sample below that median (the timer alone varies by a step or two) is
 * counted in below_overhead and kept as 0, never as a negative latency.
 * Between min and max, p50 to p999 are those of the durations the
 * quantized samples stand for (each spread over its step), less the
 * baseline's mean.  On a kernel: target the module runs the same loop and
 * baseline (bench/kmod/kernels.c), with the seed and range given here.
 */
Cost run_sampled(benchmark::State &st, Bench &b, Watch &w)
{
	const rb_family &f = *b.k.family;
	std::vector<uint64_t> chunk(kSamplesPerCall), raw, base;
	std::vector<double> s, ratio;
	std::vector<rb_batch> batches;
	rb_kernel_arg a = {b.io, chunk.data(), 0, kWriteValue, 0, b.clk.timer, 0, b.clk.dither_range};
	bool calm = w.calm();

	raw.reserve(kSamples);
	base.reserve(kSamples);
	ratio.reserve(kSamples / kSamplesPerCall + 1);
	do {
		rb_span span;

		a.dither_seed = dither_seed();
		if (!run(b, b.k.fn, a, kSamplesPerCall, &span))
			return {};
		if (span.ticks)
			ratio.push_back((double)span.core / (double)span.ticks);
		raw.insert(raw.end(), chunk.begin(), chunk.end());
		a.dither_seed = dither_seed();
		if (!run(b, b.k.base, a, kSamplesPerCall, &span))
			return {};
		base.insert(base.end(), chunk.begin(), chunk.end());
	} while (raw.size() < kSamples && w.time_left());
	w.disturbed = !(w.calm() && calm);

	std::vector<uint64_t> sorted(raw), base_sorted(base);
	// the histogram's grid is the resolution's; a sample's own step is the counter's granule (clock.h)
	double step = b.clk.resolution, grain = b.clk.granularity;
	double overhead = rb_median_u64(base_sorted.data(), base_sorted.size());
	size_t under = 0;

	std::sort(sorted.begin(), sorted.end());
	s.reserve(raw.size());
	for (uint64_t v : sorted) {
		double c = (double)v - overhead;
		under += c < 0;
		s.push_back(std::max(c, 0.0));
	}
	double fence = rb_outlier_fence(s.data(), s.size(), grain);
	size_t outliers = rb_count_above(s.data(), s.size(), fence);
	for (size_t i = 0; i < raw.size(); i += kSamplesPerCall)
		batches.push_back(rb_batch_of(&raw[i], &base[i], kSamplesPerCall, fence + overhead));
	rb_dithered d = rb_dithered_mean(batches.data(), batches.size());
	/*
	 * The baseline's mean (as the dithered mean counts it) is what a
	 * percentile is counted from: the timer's cost is nearly one duration,
	 * whose mean the dither gives exactly, where a quantile undone from
	 * quantized readings is only within a step (estimate.h).
	 */
	double base_sum = 0, base_kept = 0;
	for (uint64_t v : base)
		if ((double)v <= fence + overhead) {
			base_sum += (double)v;
			base_kept++;
		}
	double base_mean = base_kept ? base_sum / base_kept : overhead;
	Cost r;

	b.r.batches.insert(b.r.batches.end(), batches.begin(), batches.end());
	b.r.sampled_means.push_back(d.mean);
	if (f.reports & RB_REPORT_HISTOGRAM) {
		// every repetition's samples on the machine's one grid: they add up, as runs of the machine do
		if (b.r.histogram.empty())
			b.r.histogram.assign(RB_HIST_BUCKETS, 0);
		rb_bin_samples(s.data(), s.size(), step, b.r.histogram.data());
		b.r.histogram_step = step;
	}
	r.ok = true;
	if (!(d.low > 0)) {
		// even the dithered estimate cannot tell it from nothing: below the top of its interval
		r.below = true;
		r.bound = d.high > 0 ? d.high : std::isfinite(d.high) ? d.high - d.low : step;
		return r;
	}
	r.ticks = d.mean;
	std::nth_element(ratio.begin(), ratio.begin() + ratio.size() / 2, ratio.end());
	// with a counter, the live core-cycles-per-tick ratio of these samples converts the timer's figure
	r.core = ratio.empty() ? 0 : r.ticks * ratio[ratio.size() / 2];
	if (f.reports & RB_REPORT_OUTLIERS) {
		st.counters["outliers"] = (double)outliers;
		st.counters["below_overhead"] = (double)under;
	}
	if (f.reports & RB_REPORT_PERCENTILES)
		for (const rb_percentile_counter &p : rb_percentile_counters) {
			// min and max are the extreme samples as the histogram bins them; between them, quantiles
			double q = rb_dithered_quantile(sorted.data(), sorted.size(), grain, p.q) - base_mean;
			st.counters[p.counter] = p.q <= 0 ? s.front() : p.q >= 1 ? s.back()
						 : std::min(std::max(q, s.front()), s.back());
		}
	return r;
}

// RB_BATCH: calls of n elements (a count: cost per element) or n bytes (a size: cost per call), timed as
// RB_UNROLLED's are.
Cost run_batch(Bench &b, Watch &w)
{
	const rb_kernel &k = b.k;
	bool count = k.family->param == RB_PARAM_COUNT;
	Buffer mem(b.n * k.bytes);
	rb_kernel_arg a = {b.io, mem.p, b.n, 0xa5, 0, b.clk.timer, 0, 0};
	rb_fastest f = rb_fastest_none();
	uint64_t iters;

	auto round = [&](bool *dropped) {
		rb_span span;

		if (!run(b, k.fn, a, iters, &span))
			return false;
		*dropped = rb_fastest_lowered(&f, span.ticks, span.core);
		return true;
	};

	memset(mem.p, 0x3c, b.n * k.bytes);
	if (!calibrate(b, k.fn, a, &iters) || !w.rounds(round))
		return {};
	return cost(rb_batch_cost(&f, b.clk.overhead, (double)iters * (count ? (double)b.n : 1), b.clk.resolution));
}

// One repetition: the family's runner beside the control; Google Benchmark's time is the cost.
rb_repetition measure(benchmark::State &st, Bench &b)
{
	const rb_kernel &k = b.k;
	double bytes = k.family->param == RB_PARAM_SIZE ? (double)b.n : k.bytes;
	Watch w(b);
	Cost r;

	switch (k.family->shape) {
	case RB_UNROLLED: r = run_unrolled(b, w); break;
	case RB_SAMPLED: r = run_sampled(st, b, w); break;
	case RB_BATCH: r = run_batch(b, w); break;
	}
	if (!r.ok)
		return {rb_state::error, 0, b.fault, false};
	if (w.core_per_tick > 0)
		b.m.core_per_tick.push_back(w.core_per_tick);
	if (r.below) {
		// no figure: the time is the bound it lies under
		st.SetIterationTime(r.bound / b.clk.tick_hz);
		return {rb_state::below_resolution, r.bound, "", w.disturbed};
	}
	double core = b.clk.core_fd >= 0 ? r.core : r.ticks * w.core_per_tick, ns = r.ticks / b.clk.tick_hz * 1e9;

	st.counters["cycles"] = r.ticks;
	st.counters["core_cycles"] = core;
	st.counters["ns"] = ns;
	if (bytes > 0)
		st.counters["bytes_per_second"] = bytes * b.clk.tick_hz / r.ticks;
	st.SetIterationTime(ns * 1e-9);
	rb_repetition rep{rb_state::measured, 0, "", w.disturbed};
	rep.cycles = r.ticks;
	return rep;
}

/*
 * One repetition, where an exception (an allocation that fails: a _rep
 * buffer of 128 MiB under ulimit -v) becomes the benchmark's error, and the
 * run goes on.
 */
rb_repetition measure_or_error(benchmark::State &st, Bench &b)
{
	try {
		return measure(st, b);
	} catch (const std::bad_alloc &e) {
		size_t bytes = b.k.family->shape == RB_BATCH ? b.n * b.k.bytes : 0;
		return {rb_state::error, 0, std::string("out of memory (") + e.what() + ")" +
			(bytes ? " for its " + std::to_string(bytes) + "-byte buffer" : ""), false};
	} catch (const std::exception &e) {
		return {rb_state::error, 0, e.what(), false};
	}
}

// A repetition that does not measure: Google Benchmark is told with the reason alone (the reporters
// write its text from the record).
void stop(benchmark::State &st, rb_result &r, const rb_repetition &rep)
{
	st.SkipWithError(rep.reason.c_str());
	for (auto _ : st) {
	}
	r.add(rep);
}

}  // namespace

// Each benchmark is one likwid marker region named after it, when likwid-perfctr -m runs us.
void rb_measure_once(benchmark::State &st, rb_session &s, rb_result &r)
{
	const rb_kernel &k = *r.kernel;
	Bench b{k, s.clock, s.measure, r.io, r.param, r, "", r.line >= 0 ? iomap_target_kernel_fd(&s.target) : -1};
	rb_repetition rep;

	if (rb_interrupted() || !s.device.lost().empty()) {
		// asked to stop, or the device is gone: what ran is kept, the rest is not started
		return stop(st, r, {rb_state::not_run, 0, rb_interrupted() ? "the run was interrupted"
								: "the device stopped answering", false});
	}
	std::string dead = s.device.before(k.reads);
	if (!dead.empty())
		return stop(st, r, {rb_state::error, 0, dead, false});
#ifdef LIKWID_PERFMON
	if (s.measure.markers)
		LIKWID_MARKER_START(r.name.c_str());
#endif
	for (auto _ : st)
		rep = measure_or_error(st, b);
#ifdef LIKWID_PERFMON
	if (s.measure.markers)
		LIKWID_MARKER_STOP(r.name.c_str());
#endif
	if (rep.state == rb_state::error)
		st.SkipWithError(rep.reason.c_str());
	std::string lost = s.device.after(rep.state != rb_state::error);
	if (!lost.empty()) {
		st.SkipWithError(lost.c_str());
		rep = {rb_state::error, 0, lost, false};
	}
	r.add(rep);
}

void rb_measure_skipped(benchmark::State &st, rb_result &r)
{
	stop(st, r, {rb_state::skipped, 0, r.reason, false});
}

void rb_measure_context(rb_session &s)
{
	char hz[32], source[200];
	std::vector<double> &v = s.measure.core_per_tick;

	if (v.empty()) {
		snprintf(hz, sizeof(hz), "%.0f", s.clock.core_hz);
		snprintf(source, sizeof(source), "%s, at start-up (no repetition ran)", s.clock.core_hz_source);
	} else {
		std::nth_element(v.begin(), v.begin() + (long)(v.size() / 2), v.end());
		snprintf(hz, sizeof(hz), "%.0f", s.clock.tick_hz * v[v.size() / 2]);
		snprintf(source, sizeof(source), "median of the %zu repetitions' dependent-add control (1 add per core "
			 "cycle, timed on the " RB_COUNTER_NAME " beside each)", v.size());
	}
	s.context.set("core_hz_estimate", hz);
	s.context.set("core_hz_source", source);
}

/*
 * likwid-perfctr -m sets LIKWID_MODE and LIKWID_EVENTS for the program it
 * runs; without them the marker API would only print that it is inactive.
 */
void rb_measure_describe(rb_context &c)
{
	c.set("counters", rb_counters_text());
}

void rb_measure_init(rb_session &s)
{
	rb_control_prime(&s.measure.control, &s.clock);
#ifdef LIKWID_PERFMON
	if (getenv("LIKWID_MODE") && getenv("LIKWID_EVENTS")) {
		LIKWID_MARKER_INIT;
		LIKWID_MARKER_THREADINIT;
		s.measure.markers = true;
	}
#endif
}

void rb_measure_close(rb_session &s)
{
#ifdef LIKWID_PERFMON
	if (s.measure.markers)
		LIKWID_MARKER_CLOSE;
#endif
}
