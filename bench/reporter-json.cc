// reporter-json.cc: the result JSON's reporter: every run held until the run ends, then the whole document at once
#include "contract.h"
#include "reporters.h"

bool rb_json_reporter::ReportContext(const Context &context)
{
	context_ = &context;
	return true;
}

void rb_json_reporter::ReportRuns(const std::vector<Run> &runs)
{
	runs_.insert(runs_.end(), runs.begin(), runs.end());
}

void rb_json_reporter::Finalize()
{
	if (context_)
		GetOutputStream() << rb_contract_json(s_, *context_, runs_);
}
