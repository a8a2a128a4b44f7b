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

void rb_tee::ReportRuns(const std::vector<Run> &given)
{
	std::vector<Run> runs = given;

	for (Run &r : runs) {
		r.run_name.time_type.clear();	// the names regbench registered
		carry_text(r);
	}
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
