// families.cc: registers the benchmark families for a target and runs each kernel shape
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#ifdef LIKWID_PERFMON
#include <likwid-marker.h>
#endif

#include "iomap/strategy.h"
#include "kernels.h"
#include "regbench.h"
#include "selfcheck.h"

namespace {

constexpr size_t kMaxSamples = 100000;		// lat/flush samples kept per benchmark
constexpr size_t kSamplesPerCall = 256;
constexpr uint64_t kMinTicksPerCall = 20000;	// kernels run long enough for the TSC to be exact
constexpr uint64_t kWriteValue = 0x5a5a5a5a5a5a5a5aull;

bool g_error = false;

struct Bench {
	const rb_kernel *k;
	const iomap_target *t;
	const rb_clock *clk;
	size_t n;		// rep elements or copy bytes, else 0
	std::string name;
};

// Where the kernel runs: in the target's own window or its port window beside an MMIO one, at the
// offset the target names for the family (a scratch register, a FIFO, the copy window).
size_t offset(const rb_kernel &k, const iomap_target &t)
{
	if (!strcmp(k.family, "copy"))
		return t.copy_off;
	return !strcmp(k.family, "rep") ? t.fifo_off : t.reg_off;
}

void __iomem *window(const Bench &b)
{
	char __iomem *w = static_cast<char __iomem *>(b.k->space == b.t->space ? b.t->base : b.t->port);

	return w + offset(*b.k, *b.t);
}

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
	g_error = true;
	st.SkipWithError((std::string("error: ") + why).c_str());
	return false;
}

// Runs f under the fault guard; on a fault marks the benchmark failed.
bool run(benchmark::State &st, const Bench &b, rb_kernel_fn f, const rb_kernel_arg &a, uint64_t iters,
	 rb_span *span)
{
	char why[200];

	if (rb_guarded_run(f, &a, iters, b.clk, span, why, sizeof(why)))
		return fail(st, why);
	return true;
}

// Doubles iters until one call of f takes kMinTicksPerCall.
bool calibrate(benchmark::State &st, const Bench &b, rb_kernel_fn f, const rb_kernel_arg &a, uint64_t *iters)
{
	rb_span span = {};

	for (*iters = 1; *iters < (1ull << 30); *iters *= 2) {
		if (!run(st, b, f, a, *iters, &span))
			return false;
		if (span.ticks >= kMinTicksPerCall)
			break;
	}
	return true;
}

double median(std::vector<double> &v)
{
	std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
	return v[v.size() / 2];
}

/*
 * The fastest of many calls of one kernel, on both clocks.  Interference (an
 * interrupt, the host running another guest, a busy SMT sibling) only ever
 * adds time, so the fastest call is the cost of the accesses themselves and
 * stays put from one repetition to the next where a median drifts with the
 * machine's load.  Differences are taken between the fastest calls of each
 * kernel, never as the fastest of per-call differences, which a disturbed
 * shorter call would bias low.  (lat/ keeps every sample: the tail is there.)
 */
struct Fastest {
	double ticks = INFINITY, core = 0;

	void add(const rb_span &s)
	{
		if ((double)s.ticks < ticks) {
			ticks = (double)s.ticks;
			core = (double)s.core;
		}
	}
};

/*
 * Core cycles: counted where the machine has a counter.  Else the TSC figure
 * over the TSC ticks of one dependent add (one core cycle), measured right
 * after the benchmark: the core clock moves with turbo and load, so a ratio
 * taken at start-up would not fit a benchmark run a minute later.
 */
double core_cycles(const Bench &b, double cycles, double counted)
{
	return b.clk->core_fd >= 0 ? counted : cycles / rb_primitive_ticks(RB_ADD_CHAIN, 9);
}

void report(benchmark::State &st, const Bench &b, double cycles, double core, double bytes)
{
	st.counters["cycles"] = cycles;
	st.counters["core_cycles"] = core;
	st.counters["ns"] = cycles / b.clk->tsc_hz * 1e9;
	if (bytes > 0)
		st.counters["bytes_per_second"] = bytes * b.clk->tsc_hz / cycles;
}

// The result is smaller than one step of the timer: say so, with the bound, and print no number.
void below_resolution(benchmark::State &st, double bound)
{
	char label[96];

	snprintf(label, sizeof(label), "below timer resolution (< %.3g cycles)", bound);
	st.SetLabel(label);
}

// RB_UNROLLED: cost per access from the twin with twice the accesses (minus the chain baseline).
void run_unrolled(benchmark::State &st, const Bench &b)
{
	const rb_kernel &k = *b.k;
	rb_kernel_arg a = {window(b), nullptr, 0, kWriteValue, 0};
	Fastest once, twice, base_once, base_twice;
	uint64_t iters;

	if (!calibrate(st, b, k.fn, a, &iters))
		return;
	double units = (double)(iters * k.unroll);
	for (auto _ : st) {
		rb_span s1, s2, b1 = {}, b2 = {};

		if (!run(st, b, k.fn, a, iters, &s1) || !run(st, b, k.twin, a, iters, &s2))
			return;
		if (k.base && (!run(st, b, k.base, a, iters, &b1) || !run(st, b, k.base_twin, a, iters, &b2)))
			return;
		once.add(s1);
		twice.add(s2);
		base_once.add(b1);
		base_twice.add(b2);
	}
	double d = (twice.ticks - once.ticks) - (base_twice.ticks - base_once.ticks);
	double dc = (twice.core - once.core) - (base_twice.core - base_once.core);
	if (d <= b.clk->resolution)
		return below_resolution(st, b.clk->resolution / units);
	report(st, b, d / units, core_cycles(b, d / units, dc / units), k.bytes);
}

/*
 * A histogram of the kept samples for the JSON: linear bins of at least the
 * timer's resolution from the minimum to above p99.9, and one last bin up to
 * the maximum, so the tail (the samples above p99.9) is counted without
 * stretching the scale.
 */
std::string histogram_json(const std::vector<double> &s, double lo, double p999, double resolution)
{
	const size_t bins = 64;
	double width = std::max(resolution, (p999 - lo) / bins);
	// enough bins that the last one ends above p99.9: a sample equal to p99.9
	// (timer steps make that common) is not part of the tail
	size_t linear = (size_t)std::floor((p999 - lo) / width) + 1;
	std::vector<double> edges;
	std::vector<size_t> counts;
	std::string out;

	for (size_t i = 0; i <= linear; i++)
		edges.push_back(lo + (double)i * width);
	if (s.back() >= edges.back())
		edges.push_back(s.back() + 1);
	counts.assign(edges.size() - 1, 0);
	for (double v : s) {
		size_t i = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin();
		counts[std::min(std::max<size_t>(i, 1), counts.size()) - 1]++;
	}
	out = "{\"unit\": \"cycles\", \"edges\": [";
	for (size_t i = 0; i < edges.size(); i++)
		out += (i ? ", " : "") + std::to_string(edges[i]);
	out += "], \"counts\": [";
	for (size_t i = 0; i < counts.size(); i++)
		out += (i ? ", " : "") + std::to_string(counts[i]);
	return out + "]}";
}

std::map<std::string, std::string> g_histograms;

/*
 * RB_SAMPLED: every access timed alone; the timer's own median cost
 * subtracted.  Samples far above the rest (Tukey's far-out fence: beyond the
 * third quartile by three interquartile ranges, at least three timer steps)
 * are interrupts, migrations or host preemption: counted as outliers, kept
 * in the percentiles and the histogram, never dropped.
 */
void run_sampled(benchmark::State &st, const Bench &b)
{
	std::vector<uint64_t> chunk(kSamplesPerCall);
	std::vector<double> s, ratio;
	rb_kernel_arg a = {window(b), chunk.data(), 0, kWriteValue, 0};
	size_t next = 0;

	s.reserve(kMaxSamples);
	for (auto _ : st) {
		rb_span span;

		if (!run(st, b, b.k->fn, a, kSamplesPerCall, &span))
			return;
		if (span.ticks && ratio.size() < kMaxSamples)
			ratio.push_back((double)span.core / (double)span.ticks);
		for (uint64_t v : chunk) {
			double c = (double)v - b.clk->overhead;
			if (s.size() < kMaxSamples)
				s.push_back(c);
			else
				s[next++ % kMaxSamples] = c;	// keep the latest once full
		}
	}
	std::sort(s.begin(), s.end());
	auto pct = [&](double p) { return std::max(0.0, s[std::min(s.size() - 1, (size_t)(p * s.size()))]); };
	double iqr = std::max(pct(0.75) - pct(0.25), b.clk->resolution);
	double fence = pct(0.75) + 3 * iqr;
	size_t outliers = s.end() - std::upper_bound(s.begin(), s.end(), fence);

	if (!strcmp(b.k->family, "lat"))
		g_histograms[b.name] = histogram_json(s, s.front(), pct(0.999), b.clk->resolution);
	if (pct(0.5) < b.clk->resolution)
		return below_resolution(st, b.clk->resolution);
	double cycles = pct(0.5);
	// with a counter, the live core/TSC ratio of these samples converts the TSC figure
	report(st, b, cycles, core_cycles(b, cycles, ratio.empty() ? 0 : cycles * median(ratio)), b.k->bytes);
	st.counters["outliers"] = (double)outliers;
	if (!strcmp(b.k->family, "lat")) {
		st.counters["min"] = pct(0);
		st.counters["p50"] = pct(0.5);
		st.counters["p90"] = pct(0.9);
		st.counters["p99"] = pct(0.99);
		st.counters["p999"] = pct(0.999);
		st.counters["max"] = s.back();
	}
}

// RB_BATCH: calls of n elements (rep: cost per element) or n bytes (copy: cost per call).
void run_batch(benchmark::State &st, const Bench &b)
{
	const rb_kernel &k = *b.k;
	bool rep = !strcmp(k.family, "rep");
	Buffer mem(b.n * k.bytes);
	rb_kernel_arg a = {window(b), mem.p, b.n, 0xa5, 0};
	double units = rep ? (double)b.n : 1, bytes = rep ? k.bytes : (double)b.n;
	Fastest f;
	uint64_t iters;

	memset(mem.p, 0x3c, b.n * k.bytes);
	if (!calibrate(st, b, k.fn, a, &iters))
		return;
	for (auto _ : st) {
		rb_span span;

		if (!run(st, b, k.fn, a, iters, &span))
			return;
		f.add(span);
	}
	double cycles = (f.ticks - b.clk->overhead) / ((double)iters * units);
	report(st, b, cycles, core_cycles(b, cycles, f.core / ((double)iters * units)), bytes);
}

// --- hardware: the first read ------------------------------------------------------------------
// A device that is absent or not decoding reads as all-ones.  The first benchmark that reads a
// hardware target makes one guarded read of the widest allowed width up to 32 bits (the generic
// cookie accessor serves both spaces); all-ones there fails every reading benchmark.
const char *device_not_responding(const iomap_target &t, const rb_clock &clk)
{
	static int state = 0;	// 0 not checked, 1 answers, 2 does not
	static char why[200];

	if (state == 0) {
		uint64_t value = 0;
		rb_span span;
		size_t w = 4;
		while (w > 1 && (!iomap_target_allows_width(&t, (unsigned int)w) || w > t.len))
			w /= 2;
		rb_kernel_arg a = {t.base, &value, w, 0, 0};
		char fault[160];

		if (rb_guarded_run(rb_read_once, &a, 1, &clk, &span, fault, sizeof(fault))) {
			snprintf(why, sizeof(why), "the first read faulted: %s", fault);
			state = 2;
		} else if (value == ~0ull >> (64 - 8 * w)) {	// all-ones of the width read
			snprintf(why, sizeof(why), "device not responding: the first %zu-bit read returned all-ones "
				 "(is it present, powered and decoding?)", w * 8);
			state = 2;
		} else {
			state = 1;
		}
	}
	return state == 2 ? why : nullptr;
}

bool reads(const rb_kernel &k)
{
	return k.bytes && (!k.writes || !strcmp(k.family, "flush"));
}
// --- end of the first read ----------------------------------------------------------------------

#ifdef LIKWID_PERFMON
bool g_markers = false;
#endif

// Each benchmark is one likwid marker region named after it, when likwid-perfctr -m runs us.
void run_bench(benchmark::State &st, Bench b)
{
	const char *dead = b.t->hardware && reads(*b.k) ? device_not_responding(*b.t, *b.clk) : nullptr;

	if (dead) {
		fail(st, dead);
		for (auto _ : st) {
		}
		return;
	}
#ifdef LIKWID_PERFMON
	if (g_markers)
		LIKWID_MARKER_START(b.name.c_str());
#endif
	switch (b.k->shape) {
	case RB_UNROLLED: run_unrolled(st, b); break;
	case RB_SAMPLED: run_sampled(st, b); break;
	case RB_BATCH: run_batch(st, b); break;
	}
#ifdef LIKWID_PERFMON
	if (g_markers)
		LIKWID_MARKER_STOP(b.name.c_str());
#endif
}

void skip(benchmark::State &st, std::string why)
{
	st.SkipWithError(("skipped: " + why).c_str());
	for (auto _ : st) {
	}
}

bool wanted(const rb_options &o, const char *strategy)
{
	// only the accessor strategies are filtered: the libc reference row stays beside them
	if (o.strategies.empty() || !iomap_strategy_find(strategy))
		return true;
	return std::find(o.strategies.begin(), o.strategies.end(), strategy) != o.strategies.end();
}

// Why an MMIO kernel has no port form, for a port target.
std::string why_no_port(const rb_kernel &k)
{
	if (!strcmp(k.family, "copy"))
		return "copies move ranges of memory; a port target has none (rep moves a port FIFO)";
	if (k.bytes == 8)
		return "x86 has no 64-bit port I/O instruction";
	if (!strcmp(k.strategy, "volatile"))
		return "a C volatile dereference has no port form (ports take in/out)";
	return "needs an MMIO target";
}

std::string hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return buf;
}

// The widths a target allows, as in its spec: "32" or "8+16+32".
std::string widths(const iomap_target &t)
{
	std::string out;

	for (unsigned int b = 1; b <= 8; b *= 2)
		if (iomap_target_allows_width(&t, b))
			out += (out.empty() ? "" : "+") + std::to_string(b * 8);
	return out;
}

// Why a writing kernel may not touch bytes [off, off + n) of the window, or "".
std::string why_no_write(const iomap_target &t, uint64_t off, uint64_t n)
{
	if (iomap_target_may_write(&t, off, n))
		return "";
	if (!t.hardware || !t.permit.write_len)
		return "the target is read-only (writes need --allow-write=OFF+LEN)";
	return "it writes bytes " + hex(t.off + off) + "+" + std::to_string(n) + ", outside the --allow-write window " +
	       hex(t.permit.write_off) + "+" + std::to_string(t.permit.write_len);
}

// Why kernel k cannot run on target t with n elements or bytes, or "" when it can.
// Kernels touch only [0, bytes) of the window (one register) or [0, n) (copies).
std::string why_not(const rb_kernel &k, const iomap_target &t, size_t n)
{
	const iomap_strategy *s = iomap_strategy_find(k.strategy);
	bool copy = !strcmp(k.family, "copy");
	size_t off = offset(k, t);

	if (k.space != t.space && !(k.space == IOMAP_SPACE_PIO && t.port) && strcmp(k.family, "barrier")) {
		if (s && s->why_no_rep && !strcmp(k.family, "rep"))
			return s->why_no_rep;
		return k.space == IOMAP_SPACE_PIO ? "needs a port-I/O target (port: or a pci I/O BAR)"
						  : why_no_port(k);
	}
	if (s && s->cpu_feature && iomap_strategy_cpu_missing(s))
		return iomap_strategy_cpu_missing(s);
	if (const char *refused = iomap_target_why_not(&t, k.strategy))
		return std::string("the target cannot take these accesses: ") + refused;
	if (copy && widths(t) != "8+16+32+64")
		return "copies issue accesses of several widths; the target allows only " + widths(t) + "-bit";
	if (!copy && k.bytes && !iomap_target_allows_width(&t, k.bytes))
		return "the target allows only " + widths(t) + "-bit accesses (widths= in its spec)";
	if (copy && n > t.copy_len)
		return std::to_string(n) + " bytes do not fit the target's " + std::to_string(t.copy_len) +
		       "-byte copy window";
	if (!copy && k.bytes > (k.space == t.space ? t.len : t.port_len) - off)
		return "the target is narrower than the access";
	if (k.writes)
		return why_no_write(t, off, copy ? n : k.bytes);
	return "";
}

// Kernels of both spaces share names (thrpt/read32/relaxed): register the one of the target's own
// space only, so that a port target runs the port forms under the names the MMIO ones have.
bool shadowed(const rb_kernel &k, const iomap_target &t)
{
	if (k.space == t.space)
		return false;
	for (size_t i = 0; i < rb_nr_kernels; i++) {
		const rb_kernel &o = rb_kernels[i];
		if (o.space == t.space && !strcmp(o.family, k.family) && !strcmp(o.op, k.op) &&
		    !strcmp(o.strategy, k.strategy))
			return true;
	}
	return false;
}

void add(const rb_kernel &k, const iomap_target &t, const rb_clock &clk, size_t n)
{
	std::string name = std::string(k.family) + "/" + k.op;
	std::string why = why_not(k, t, n);

	if (*k.strategy)
		name += std::string("/") + k.strategy;
	if (n)
		name += "/" + std::to_string(n);
	if (!why.empty()) {
		benchmark::RegisterBenchmark(name.c_str(), skip, why);
		return;
	}
	benchmark::RegisterBenchmark(name.c_str(), run_bench, Bench{&k, &t, &clk, n, name});
}

}  // namespace

void rb_register_families(const iomap_target &t, const rb_clock &clk, const rb_options &o)
{
	// _rep counts and copy sizes: powers spanning one register access to a page and beyond
	const std::vector<size_t> counts = o.quick ? std::vector<size_t>{8, 256}
						   : std::vector<size_t>{1, 8, 64, 512};
	const std::vector<size_t> sizes = o.quick ? std::vector<size_t>{64, 4096}
						  : std::vector<size_t>{64, 256, 4096, 65536};

	for (size_t i = 0; i < rb_nr_kernels; i++) {
		const rb_kernel &k = rb_kernels[i];

		if (!wanted(o, k.strategy) || shadowed(k, t))
			continue;
		if (!strcmp(k.family, "rep"))
			for (size_t n : counts)
				add(k, t, clk, n);
		else if (!strcmp(k.family, "copy"))
			for (size_t n : sizes)
				add(k, t, clk, n);
		else
			add(k, t, clk, 0);
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

bool rb_any_error()
{
	return g_error;
}

std::string rb_histograms_json()
{
	std::string out = "{";

	for (const auto &h : g_histograms)
		out += (out.size() > 1 ? ",\n    \"" : "\n    \"") + h.first + "\": " + h.second;
	return out + (out.size() > 1 ? "\n  }" : "}");
}
