// reporter-csv.cc: Google Benchmark's CSV, held until the run ends so that its columns are those of every run
#include "reporters.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void rb_csv_reporter::ReportRuns(const std::vector<Run> &runs)
{
	runs_.insert(runs_.end(), runs.begin(), runs.end());
}

void rb_csv_reporter::Finalize()
{
	if (!runs_.empty())
		CSVReporter::ReportRuns(runs_);
	CSVReporter::Finalize();
}
#pragma GCC diagnostic pop
