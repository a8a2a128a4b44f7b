// counters.cc: the counters a measured benchmark carries, by family, and the context's text of what each holds
#include <string>
#include <vector>

#include "estimate.h"
#include "family.h"
#include "measure.h"

namespace {

/*
 * Every counter a measured benchmark may carry, in the order the JSON lists
 * them: which families have it (the RB_REPORT_* they need, 0: all; bytes:
 * only where bytes move), and what it is (the context's "counters").  The
 * percentiles follow, for the families with RB_REPORT_PERCENTILES.
 */
struct Counter {
	const char *name;
	unsigned int reports;
	bool bytes;
	const char *what;
};
const Counter kCounters[] = {
	{"cycles", 0, false, "timer ticks per access, element or copy, timer and loop cost removed"},
	{"core_cycles", 0, false, "the same in core clock cycles (see core_cycles_source)"},
	{"ns", 0, false, nullptr},
	{"bytes_per_second", 0, true, nullptr},
	{"outliers", RB_REPORT_OUTLIERS, false, "samples beyond Q3 + 3 IQR"},
	{"below_overhead", RB_REPORT_OUTLIERS, false,
	 "samples under their baseline's median (the timer and the loop without the access), kept as 0"},
};

bool carries(const Counter &c, const rb_family &f)
{
	return (f.reports & c.reports) == c.reports && (!c.bytes || f.where != RB_AT_NOTHING);
}

// "lat/ and flush/": the families that report all of the RB_REPORT_* in mask.
std::string families_with(unsigned int mask)
{
	std::string out;

	for (const rb_family &f : rb_families)
		if ((f.reports & mask) == mask)
			out += (out.empty() ? "" : " and ") + std::string(f.name) + "/";
	return out;
}

}  // namespace

std::vector<std::string> rb_counters(const rb_family &f)
{
	std::vector<std::string> out;

	for (const Counter &c : kCounters)
		if (carries(c, f))
			out.push_back(c.name);
	if (f.reports & RB_REPORT_PERCENTILES)
		for (const rb_percentile_counter &p : rb_percentile_counters)
			out.push_back(p.counter);
	return out;
}

std::string rb_counters_text()
{
	std::string out, percentiles;

	for (const Counter &c : kCounters)
		out += (out.empty() ? "" : "; ") + (c.reports ? families_with(c.reports) + " " : "") + c.name +
		       (c.what ? std::string(": ") + c.what : "") + (c.bytes ? " (where bytes move)" : "");
	for (const rb_percentile_counter &p : rb_percentile_counters)
		percentiles += std::string(percentiles.empty() ? "" : " ") + p.counter;
	return out + "; " + families_with(RB_REPORT_PERCENTILES) + " " + percentiles + ": timer ticks";
}
