// console.cc: what a run shows: a short header, a line per benchmark in plain units (each state once), the progress line, the count
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "console.h"
#include "published.h"
#include "selfcheck.h"
#include "session.h"

namespace {

using Run = benchmark::BenchmarkReporter::Run;

double now()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

std::string minutes(double seconds)
{
	char buf[32];
	long s = std::lround(seconds);

	snprintf(buf, sizeof(buf), "%ld:%02ld", s / 60, s % 60);
	return buf;
}

// A figure in plain digits, never an SI suffix: about four significant digits, whole numbers from 1000 on.
std::string plain(double v)
{
	char buf[40];
	double a = std::fabs(v);

	snprintf(buf, sizeof(buf), a >= 1000 || v == 0 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f", v);
	return buf;
}

const Run *find(const rb_runs &runs, const char *aggregate)
{
	for (const Run &r : runs)
		if (r.run_type == Run::RT_Aggregate && r.aggregate_name == aggregate)
			return &r;
	return nullptr;
}

const double *counter(const Run *r, const char *name)
{
	if (!r)
		return nullptr;
	auto it = r->counters.find(name);
	return it == r->counters.end() ? nullptr : &it->second.value;
}

std::string cell(const Run *r, const char *name, double scale = 1)
{
	const double *v = counter(r, name);

	return v && std::isfinite(*v) ? plain(*v * scale) : "-";
}

std::string pad(const std::string &s, size_t width, bool right)
{
	if (s.size() >= width)
		return s;
	return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

// The columns a family with percentiles adds (tabular): each percentile, then its outliers.
std::vector<const char *> percentile_columns()
{
	std::vector<const char *> out;

	for (const rb_percentile_counter &p : rb_percentile_counters)
		out.push_back(p.counter);
	out.push_back("outliers");
	return out;
}

// The units the families' figures are per, each once: "access, read, element, ...".
std::string units()
{
	std::string out;

	for (const rb_family &f : rb_families)
		if (out.find(f.unit) == std::string::npos)
			out += (out.empty() ? "" : ", ") + std::string(f.unit);
	return out;
}

// "lat/ and flush/": the families whose figures move in steps of the timer.
std::string sampled_families()
{
	std::string out;

	for (const rb_family &f : rb_families)
		if (rb_family_sampled(&f))
			out += (out.empty() ? "" : " and ") + std::string(f.name) + "/";
	return out;
}

}  // namespace

void rb_console_header(const rb_session &s, const benchmark::BenchmarkReporter::Context &c)
{
	const rb_clock &clk = s.clock;
	const iomap_target &t = s.target;
	const char *uarch = rb_cpu_name();

	fprintf(stderr, "regbench on %s%s%s%s, CPU %d of %d%s%s%s\n", s.cpu_model.c_str(), uarch ? " (" : "",
		uarch ? uarch : "", uarch ? ")" : "", s.cpu, c.cpu_info.num_cpus, s.env.vm ? ", in a VM (" : "",
		s.env.vm ? s.env.hypervisor : "", s.env.vm ? ")" : "");
	fprintf(stderr, "  target %s: %s\n", t.spec, t.what);
	fprintf(stderr, "  timer  %s: " RB_COUNTER_NAME " at %.2f GHz%s, steps of %.0f ticks (%.1f ns), %.0f ticks a reading\n",
		rb_timer_text(clk.timer), clk.tick_hz * 1e-9, clk.invariant ? "" : " (not invariant)", clk.resolution,
		clk.resolution / clk.tick_hz * 1e9, clk.overhead);
	if (s.library_debug)
		fprintf(stderr, "regbench: note: Google Benchmark's library is a debug build, which does not touch the "
			"figures: regbench times each repetition itself (manual time)\n");
	if (!clk.invariant)
		fprintf(stderr, "regbench: warning: the " RB_COUNTER_NAME " is not invariant: tick counts drift with the clock\n");
	if (*s.env.warnings)
		fprintf(stderr, "regbench: note: %s\n", s.env.warnings);
	// a step of 2 ns or more swallows an access that hits the cache (1-2 ns)
	if (clk.resolution / clk.tick_hz >= 2e-9)
		fprintf(stderr, "regbench: note: the " RB_COUNTER_NAME " moves in steps of %.1f ns here: %s dither each sample's start "
			"against it and read below one step, with an interval (docs/METHOD.md)\n", clk.resolution / clk.tick_hz * 1e9,
			sampled_families().c_str());
}

bool rb_fancy_terminal(int fd)
{
	const char *term = getenv("TERM");

	return isatty(fd) && term && *term && strcmp(term, "dumb");
}

std::vector<rb_runs> rb_gather::add(const rb_runs &runs)
{
	std::vector<rb_runs> complete;

	for (const Run &r : runs) {
		std::string name = r.run_name.str();
		auto it = std::find_if(pending_.begin(), pending_.end(), [&](const auto &p) { return p.first == name; });
		if (it == pending_.end()) {
			pending_.emplace_back(name, rb_runs{});
			it = pending_.end() - 1;
		}
		it->second.push_back(r);
	}
	/*
	 * Complete: the aggregates have come, or every repetition has and there
	 * will be none (Google Benchmark aggregates only two or more
	 * repetitions that did not fail).
	 */
	for (auto it = pending_.begin(); it != pending_.end();) {
		const rb_runs &rs = it->second;
		bool aggregates = false;
		int64_t reps = 0, ok = 0;

		for (const Run &r : rs) {
			aggregates |= r.run_type == Run::RT_Aggregate;
			reps += r.run_type == Run::RT_Iteration;
			ok += r.run_type == Run::RT_Iteration && !r.error_occurred;
		}
		if (aggregates || (reps >= rs[0].repetitions && (rs[0].repetitions < 2 || ok < 2))) {
			complete.push_back(rs);
			it = pending_.erase(it);
		} else {
			++it;
		}
	}
	return complete;
}

std::vector<rb_runs> rb_gather::rest()
{
	std::vector<rb_runs> out;

	for (auto &p : pending_)
		out.push_back(p.second);
	pending_.clear();
	return out;
}

// The benchmarks this run will report: the registered ones --benchmark_filter selects.
rb_progress::rb_progress(const rb_session &s)
	: s_(s), total_(s.registry.selected(false)), runnable_(s.registry.selected(true)), start_(now()), last_(start_),
	  tty_(rb_fancy_terminal(STDERR_FILENO))
{
}

std::string rb_progress::line() const
{
	double elapsed = now() - start_;
	std::string s = std::to_string(done_) + " of " + std::to_string(total_) + " benchmarks done, " +
			minutes(elapsed) + " elapsed";

	if (ran_ && runnable_ > ran_)
		s += ", about " + minutes(elapsed / (double)ran_ * (double)(runnable_ - ran_)) + " left";
	return s;
}

void rb_progress::done(const std::string &name)
{
	const rb_result *r = s_.registry.find(name);

	done_++;
	if (r) {
		ran_ += r->state != rb_state::skipped && r->state != rb_state::not_run;
		not_run_ += r->state == rb_state::not_run;
	}
	if (tty_)
		return redraw();
	if (now() - last_ >= 10 && done_ < total_) {
		fprintf(stderr, "regbench: %s\n", line().c_str());
		last_ = now();
	}
}

void rb_progress::clear()
{
	if (shown_)
		fputs("\r\033[K", stderr);
	shown_ = false;
}

void rb_progress::redraw()
{
	if (!tty_ || !total_)
		return;
	fprintf(stderr, "\r\033[Kregbench: %s", line().c_str());
	fflush(stderr);
	shown_ = true;
}

void rb_progress::finish()
{
	clear();
	if (not_run_)
		fprintf(stderr, "regbench: %s\n", rb_interrupted_line(minutes(now() - start_), not_run_, done_).c_str());
	else if (done_)
		fprintf(stderr, "regbench: %zu benchmark%s in %s\n", done_, done_ == 1 ? "" : "s", minutes(now() - start_).c_str());
}

void rb_console::print(const std::string &text, const char *color)
{
	if (progress_)
		progress_->clear();
	if (color && color_)
		printf("\033[%sm%s\033[m\n", color, text.c_str());
	else
		printf("%s\n", text.c_str());
	if (fflush(stdout) && !stdout_error_)
		stdout_error_ = errno;
}

void rb_console::context(const benchmark::BenchmarkReporter::Context &c)
{
	width_ = std::max<size_t>(c.name_field_width, 20);
}

// The figure columns of one run: Time (ns), cycles, core_cycles, GB/s.
std::string rb_console::figures(const Run *r) const
{
	return pad(cell(r, "ns"), 10, true) + pad(cell(r, "cycles"), 11, true) + pad(cell(r, "core_cycles"), 12, true) +
	       pad(cell(r, "bytes_per_second", 1e-9), 8, true);
}

void rb_console::benchmark(const rb_runs &runs, rb_progress *progress)
{
	progress_ = progress;
	std::string name = runs[0].run_name.str(), note;
	const rb_result *e = s_.registry.find(name);
	bool percentiles = e && (e->kernel->family->reports & RB_REPORT_PERCENTILES);
	const bool tabular = s_.command.output.tabular, aggregates_only = s_.command.output.aggregates_only;
	const Run *median = find(runs, "median"), *cv = find(runs, "cv");
	const char *color = nullptr;
	std::string cols = pad("Benchmark", width_, false) + pad("Time ns", 10, true) + pad("cycles", 11, true) +
			   pad("core_cycles", 12, true) + pad("GB/s", 8, true) + pad("CV", 7, true) + "  " +
			   pad("unit", 10, false);

	if (tabular && percentiles)
		for (const char *p : percentile_columns())
			cols += pad(p, 9, true);
	if (header_.empty())
		print("Time is the cost of one unit (the unit column: " + units() + ") in ns: Google\n"
		      "Benchmark's real_time, which regbench sets (manual time). cycles: " RB_COUNTER_NAME " ticks per unit;\n"
		      "core_cycles: core clock cycles per unit; GB/s: 10^9 bytes per second. Medians of " + repetitions() +
		      "; CV: their spread in cycles.");
	if (cols != header_) {
		print(cols);
		header_ = cols;
	}
	// a benchmark run once has no aggregates: its one run is the figure
	if (!median && runs[0].repetitions <= 1)
		median = &runs[0];
	if (!aggregates_only && runs[0].repetitions > 1)
		for (const Run &r : runs)
			if (r.run_type == Run::RT_Iteration && !r.error_occurred && r.report_label.empty())
				print(pad(name + " #" + std::to_string(r.repetition_index + 1), width_, false) + figures(&r));

	std::string row = pad(name, width_, false);
	if (e && e->state == rb_state::skipped) {
		std::string line = rb_result_line(*e, (int)runs[0].repetitions);

		if (line != skipped_line_)
			flush_skipped();
		skipped_.push_back(name);
		skipped_line_ = line;
		skipped_why_ = e->reason;
		return;
	}
	flush_skipped();
	if (e && e->state == rb_state::not_run) {
		not_run_++;	// one line for all of them, at the end
		not_run_why_ = e->reason;
		return;
	}
	if (e && e->state != rb_state::measured) {
		row += rb_result_line(*e, (int)runs[0].repetitions);
		color = e->state == rb_state::skipped ? "33" : e->state == rb_state::error ? "31" : nullptr;
	} else {
		const double *c = counter(cv, "cycles");
		row += figures(median) + pad(c && std::isfinite(*c) ? plain(*c * 100) + "%" : "-", 7, true) + "  " +
		       pad(e ? e->kernel->family->unit : "", 10, false);
		if (percentiles && tabular)
			for (const char *p : percentile_columns())
				row += pad(cell(median, p), 9, true);
		else if (percentiles)
			note = "p90 " + cell(median, "p90") + ", p99 " + cell(median, "p99") + ", max " + cell(median, "max");
	}
	const rb_family *family = e ? e->kernel->family : nullptr;
	bool figure = e && (e->state == rb_state::measured || e->state == rb_state::below_resolution);
	if (figure && rb_family_sampled(family)) {
		auto it = std::find_if(below_.begin(), below_.end(), [&](const Below &b) { return b.family == family; });
		if (it == below_.end())
			it = below_.insert(below_.end(), Below{family, 0, 0});
		(e->state == rb_state::measured ? it->measured : it->below)++;
	}
	if (figure && runs[0].repetitions != s_.measure.least)
		note += std::string(note.empty() ? "" : "; ") + std::to_string(runs[0].repetitions) + " repetitions";
	if (figure && e->disturbed)
		note += std::string(note.empty() ? "" : "; ") + "disturbed in " + std::to_string(e->disturbed) + " of " +
			std::to_string(runs[0].repetitions) + " repetitions";
	if (!note.empty())
		row += "  (" + note + ")";
	print(row, color);
}

// How many repetitions each benchmark gets: "3 repetitions", or with adaptive ones "3 to 9 repetitions (...)".
std::string rb_console::repetitions() const
{
	const rb_measure_state &m = s_.measure;

	if (m.most == m.least)
		return std::to_string(m.least) + (m.least == 1 ? " repetition" : " repetitions");
	return std::to_string(m.least) + " to " + std::to_string(m.most) + " repetitions (more where they cannot tell a "
	       "5% difference, within --run-budget; the note says how many)";
}

/*
 * Skipped benchmarks that follow one another for one reason are one line, as
 * the report lists them: on x86-64 the eight arm64 barriers, on arm64 the
 * x86 ones, are "8 skipped, barrier/dmb_ish to barrier/isb" and the reason.
 */
void rb_console::flush_skipped()
{
	if (skipped_.empty())
		return;
	print(pad(skipped_.front(), width_, false) + (skipped_.size() == 1 ? skipped_line_ :
		std::to_string(skipped_.size()) + " skipped, " + skipped_.front() + " to " + skipped_.back() + ": " +
		skipped_why_), "33");
	skipped_.clear();
	skipped_line_.clear();
}

/*
 * Where a sampled family could not tell a cost from nothing, say so once,
 * with what to read instead: even dithered, an access whose interval
 * reaches 0 (a store that only issues) has no figure.
 */
void rb_console::finish()
{
	flush_skipped();
	if (not_run_)
		print(rb_not_run_line(not_run_, not_run_why_), "33");
	for (const Below &b : below_)
		if (b.below)
			print(std::string(b.family->name) + "/: " + std::to_string(b.below) + " of " +
			      std::to_string(b.below + b.measured) + " below resolution (" +
			      "the dithered interval reaches 0): " +
			      b.family->below_step);
}
