// reporters.h: the reporters Google Benchmark feeds: the result JSON, the held CSV, and the tee that feeds the console and them side by side
#ifndef REGBENCH_REPORTERS_H
#define REGBENCH_REPORTERS_H

#include <functional>
#include <vector>

#include <benchmark/benchmark.h>

#include "console.h"

struct rb_session;

/*
 * regbench's JSON, held back until the run ends: then the context can say
 * whether it was interrupted, and the whole document is written at once
 * (contract.cc) to its output stream.
 */
class rb_json_reporter : public benchmark::BenchmarkReporter {
public:
	explicit rb_json_reporter(const rb_session &s) : s_(s) {}
	bool ReportContext(const Context &context) override;
	void ReportRuns(const std::vector<Run> &runs) override;
	void Finalize() override;

private:
	const rb_session &s_;
	const Context *context_ = nullptr;
	std::vector<Run> runs_;
};

/*
 * Google Benchmark's CSV (deprecated in 1.7, still what --benchmark_format=csv
 * asks for) takes its columns from the counters of the first runs it gets,
 * and aborts on a later run with one more: a first benchmark below the
 * resolution (no counters) and a measured one after it would end the run
 * and lose it.  Held back until the run ends, it gets every run at once.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
class rb_csv_reporter : public benchmark::CSVReporter {
public:
	void ReportRuns(const std::vector<Run> &runs) override;
	void Finalize() override;

private:
	std::vector<Run> runs_;
};
#pragma GCC diagnostic pop

/*
 * What Google Benchmark reports to, handing everything on: regbench's console
 * gets each benchmark once it is complete; the display (Google Benchmark's
 * JSON or CSV on stdout, --benchmark_format) gets, with aggregates_only, the
 * aggregates of repeated benchmarks, and the runs that have no aggregates
 * (one repetition) or failed; each of the others (the result file's
 * reporter, the JSON kept for a rescue) gets every run.  finish completes the
 * session's context once the last benchmark has run, before any of them
 * writes.
 */
class rb_tee : public benchmark::BenchmarkReporter {
public:
	rb_tee(const rb_session &s, rb_console *console, BenchmarkReporter *display,
	       std::vector<BenchmarkReporter *> others, const std::function<void()> &finish);
	bool ReportContext(const Context &context) override;
	void ReportRuns(const std::vector<Run> &given) override;
	void Finalize() override;

private:
	const rb_session &s_;
	rb_console *console_;
	BenchmarkReporter *display_;
	std::vector<BenchmarkReporter *> others_;
	std::function<void()> finish_;
	rb_gather gather_;
	rb_progress progress_;

	void complete(const rb_runs &b);
	void carry_text(Run &run) const;
};

#endif
