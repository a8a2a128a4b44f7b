// reporter-tee.cc: what Google Benchmark reports to: the console, the display and the other reporters fed side by side
#include "reporters.h"
#include "session.h"

rb_tee::rb_tee(const rb_session &s, rb_console *console, BenchmarkReporter *display,
	       std::vector<BenchmarkReporter *> others, const std::function<void()> &finish)
	: s_(s), console_(console), display_(display), others_(std::move(others)), finish_(finish), progress_(s)
{
}

bool rb_tee::ReportContext(const Context &context)
{
	bool ok = true;

	rb_console_header(s_, context);
	if (console_)
		console_->context(context);
	else
		ok = display_->ReportContext(context);
	for (BenchmarkReporter *r : others_)
		ok = r->ReportContext(context) && ok;
	return ok;
}

namespace {

using Run = benchmark::BenchmarkReporter::Run;

/*
 * The runs of the repetitions a benchmark needed, named as regbench
 * registered it (without Google Benchmark's /manual_time): a repetition adaptive repetitions did not need (measure.cc) ended at once
 * and is left out, and every run left says how many there are.  Google
 * Benchmark counted the calls it made: an aggregate's iterations, by which
 * its time is divided, become the repetitions kept (its statistics already
 * leave out calls that did not measure).
 */
std::vector<Run> needed_runs(const std::vector<Run> &given, const rb_registry &registry)
{
	std::vector<Run> runs;

	for (const Run &g : given) {
		Run run = g;
		run.run_name.time_type.clear();
		const rb_result *r = registry.find(run.run_name.str());
		int64_t kept = r && r->ran() ? (int64_t)r->repetitions.size() : g.repetitions;

		if (run.run_type == Run::RT_Iteration && run.repetition_index >= kept)
			continue;
		if (run.run_type == Run::RT_Aggregate && run.iterations == g.repetitions && kept < g.repetitions) {
			if (run.aggregate_unit == benchmark::kTime) {
				run.real_accumulated_time *= (double)kept / (double)g.repetitions;
				run.cpu_accumulated_time *= (double)kept / (double)g.repetitions;
			}
			run.iterations = kept;
		}
		run.repetitions = kept;
		runs.push_back(run);
	}
	return runs;
}

}  // namespace

void rb_tee::ReportRuns(const std::vector<Run> &given)
{
	std::vector<Run> runs = needed_runs(given, s_.registry);

	if (runs.empty())
		return;
	for (Run &r : runs)
		carry_text(r);
	if (display_) {
		std::vector<Run> shown;
		for (const Run &r : runs)
			if (!s_.command.output.aggregates_only || r.run_type == Run::RT_Aggregate || r.repetitions <= 1 ||
			    r.error_occurred)
				shown.push_back(r);
		if (!shown.empty())
			display_->ReportRuns(shown);
	}
	for (BenchmarkReporter *r : others_)
		r->ReportRuns(runs);
	for (const rb_runs &b : gather_.add(runs))
		complete(b);
}

void rb_tee::Finalize()
{
	for (const rb_runs &b : gather_.rest())
		complete(b);
	if (console_)
		console_->finish();
	progress_.finish();
	finish_();
	if (display_)
		display_->Finalize();
	for (BenchmarkReporter *r : others_)
		r->Finalize();
}

void rb_tee::complete(const rb_runs &b)
{
	if (console_)
		console_->benchmark(b, &progress_);
	progress_.done(b[0].run_name.str());
}

// The text Google Benchmark's fields carry for a repetition without a figure, from its record.
void rb_tee::carry_text(Run &run) const
{
	const rb_result *r = s_.registry.find(run.run_name.str());
	const rb_repetition *rep = r ? r->repetition(run.repetition_index) : nullptr;

	if (!rep || run.run_type != Run::RT_Iteration)
		return;
	if (run.error_occurred)
		run.error_message = rb_repetition_message(*rep);
	else
		run.report_label = rb_repetition_label(*rep);
}
