// console.h: what a run shows: a short header, one line per benchmark in plain units, and how far it is
#ifndef REGBENCH_CONSOLE_H
#define REGBENCH_CONSOLE_H

#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "family.h"

struct rb_session;

using rb_runs = std::vector<benchmark::BenchmarkReporter::Run>;

/*
 * The header on stderr: the CPU, the target, the timer (lines that are not
 * "regbench: ", which begins errors and notes), and notes on what will
 * make the figures noisy; the full context is the JSON's.
 */
void rb_console_header(const rb_session &s, const benchmark::BenchmarkReporter::Context &c);

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
	explicit rb_progress(const rb_session &s);
	void done(const std::string &name);
	void clear();		// before other output reaches the terminal
	void redraw();
	void finish();

private:
	const rb_session &s_;
	size_t total_ = 0, runnable_ = 0, done_ = 0, ran_ = 0, not_run_ = 0;
	double start_, last_;
	bool tty_, shown_ = false;
	std::string line() const;
};

// The console: a header saying what the figures are, then one line per complete benchmark.
class rb_console {
public:
	rb_console(const rb_session &s, bool color) : s_(s), color_(color) {}
	void context(const benchmark::BenchmarkReporter::Context &c);
	// one benchmark's runs; the progress line is cleared before each line printed
	void benchmark(const rb_runs &runs, rb_progress *progress);
	void finish();		// after the last benchmark
	int stdout_error() const { return stdout_error_; }	// the errno of the first line stdout did not take, or 0

private:
	const rb_session &s_;
	bool color_;
	int stdout_error_ = 0;
	rb_progress *progress_ = nullptr;
	size_t width_ = 30, not_run_ = 0;
	std::string not_run_why_;	// why the benchmarks not run were not
	struct Below {
		const rb_family *family;
		size_t below, measured;
	};
	std::vector<Below> below_;	// per sampled family: its results below the resolution, and those measured
	std::string header_;		// the column header last printed
	// skipped benchmarks in a row with one reason (another architecture's barriers): one line for all of them
	std::vector<std::string> skipped_;
	std::string skipped_line_, skipped_why_;
	void flush_skipped();
	void print(const std::string &text, const char *color = nullptr);
	std::string figures(const benchmark::BenchmarkReporter::Run *r) const;
};

#endif
