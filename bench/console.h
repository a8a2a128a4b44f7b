// console.h: what a run shows while it goes: one line per benchmark in plain units, and how far it is
#ifndef REGBENCH_CONSOLE_H
#define REGBENCH_CONSOLE_H

#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "family.h"

using rb_runs = std::vector<benchmark::BenchmarkReporter::Run>;

/*
 * Google Benchmark reports a benchmark in one or two calls (its repetitions,
 * then their aggregates when there are some); this gathers them and hands
 * back each benchmark once it is complete, all its runs together.
 */
class rb_gather {
public:
	std::vector<rb_runs> add(const rb_runs &runs);
	std::vector<rb_runs> rest();	// what never completed (an interrupted run)

private:
	std::vector<std::pair<std::string, rb_runs>> pending_;
};

// Whether fd is a terminal that can redraw a line and show colours (not one with TERM unset or
// "dumb": an editor's shell, or the QEMU guest's console, which goes to a file).
bool rb_fancy_terminal(int fd);

/*
 * How far the run is, on stderr: on a terminal one line that updates after
 * each benchmark (done of total, elapsed, an estimate of what is left); else
 * a plain line every ten seconds, and one at the end.
 */
class rb_progress {
public:
	rb_progress();
	void done(const std::string &name);
	void clear();		// before other output reaches the terminal
	void redraw();
	void finish();

private:
	size_t total_ = 0, runnable_ = 0, done_ = 0, ran_ = 0, not_run_ = 0;
	double start_, last_;
	bool tty_, shown_ = false;
	std::string line() const;
};

// The console: a header saying what the figures are, then one line per complete benchmark.
class rb_console {
public:
	rb_console(bool color, bool tabular, bool aggregates_only)
		: color_(color), tabular_(tabular), aggregates_only_(aggregates_only) {}
	void context(const benchmark::BenchmarkReporter::Context &c);
	// one benchmark's runs; the progress line is cleared before each line printed
	void benchmark(const rb_runs &runs, rb_progress *progress);
	void finish();		// after the last benchmark

private:
	bool color_, tabular_, aggregates_only_;
	rb_progress *progress_ = nullptr;
	size_t width_ = 30, not_run_ = 0;
	struct Below {
		const rb_family *family;
		size_t below, measured;
	};
	std::vector<Below> below_;	// per sampled family: its results below the resolution, and those measured
	std::string header_;		// the column header last printed
	void print(const std::string &text, const char *color = nullptr);
	std::string figures(const benchmark::BenchmarkReporter::Run *r) const;
};

#endif
