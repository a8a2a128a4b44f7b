// contract.cc: the result file's JSON as data (nlohmann-json): Google Benchmark's layout, and the "regbench" object from the tables and records
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include <nlohmann/json.hpp>

#include "contract.h"
#include "iomap/strategy.h"
#include "measure.h"
#include "session.h"

namespace {

using json = nlohmann::ordered_json;
using Run = benchmark::BenchmarkReporter::Run;

const char *const kShapes[] = {"unrolled", "sampled", "batch"};
const char *const kParams[] = {nullptr, "count", "size"};
const char *const kRows[] = {"accessor", "variant", "reference"};
const char *const kRoles[] = {nullptr, "serialized", "latency", "issue", "copies", "ordering", "cookie"};

// The local time as Google Benchmark writes it (RFC 3339): 2026-12-03T08:00:00+00:00.
std::string date()
{
	char when[32], zone[8];
	time_t now = time(nullptr);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	return std::string(when) + std::string(zone, 3) + ":" + std::string(zone + 3);
}

json context(const rb_session &s, const benchmark::BenchmarkReporter::Context &c)
{
	const benchmark::CPUInfo &cpu = c.cpu_info;
	json out, caches = json::array();

	out["date"] = date();
	out["host_name"] = c.sys_info.name;
	if (benchmark::BenchmarkReporter::Context::executable_name)
		out["executable"] = benchmark::BenchmarkReporter::Context::executable_name;
	out["num_cpus"] = (int64_t)cpu.num_cpus;
	out["mhz_per_cpu"] = (int64_t)std::lround(cpu.cycles_per_second / 1e6);
	if (cpu.scaling != benchmark::CPUInfo::Scaling::UNKNOWN)
		out["cpu_scaling_enabled"] = cpu.scaling == benchmark::CPUInfo::Scaling::ENABLED;
	for (const benchmark::CPUInfo::CacheInfo &ci : cpu.caches)
		caches.push_back({{"type", ci.type}, {"level", (int64_t)ci.level}, {"size", (int64_t)ci.size},
				  {"num_sharing", (int64_t)ci.num_sharing}});
	out["caches"] = caches;
	out["load_avg"] = cpu.load_avg;
	out["library_build_type"] = s.library_debug ? "debug" : "release";
	for (const auto &kv : s.context.all())
		out[kv.first] = kv.second;
	out["labels"] = json::object();
	for (const auto &kv : s.context.labels())
		out["labels"][kv.first] = kv.second;
	return out;
}

// One run in Google Benchmark 1.7.1's JSONReporter layout: its keys in its order, with its types.
json run(const Run &r)
{
	json out;
	bool aggregate = r.run_type == Run::RT_Aggregate;

	out["name"] = r.benchmark_name();
	out["family_index"] = (int64_t)r.family_index;
	out["per_family_instance_index"] = (int64_t)r.per_family_instance_index;
	out["run_name"] = r.run_name.str();
	out["run_type"] = aggregate ? "aggregate" : "iteration";
	out["repetitions"] = (int64_t)r.repetitions;
	if (!aggregate)
		out["repetition_index"] = (int64_t)r.repetition_index;
	out["threads"] = (int64_t)r.threads;
	if (aggregate) {
		out["aggregate_name"] = r.aggregate_name;
		out["aggregate_unit"] = r.aggregate_unit == benchmark::kPercentage ? "percentage" : "time";
	}
	if (r.error_occurred) {
		out["error_occurred"] = true;
		out["error_message"] = r.error_message;
	}
	out["iterations"] = (int64_t)r.iterations;
	if (!aggregate || r.aggregate_unit == benchmark::kTime) {
		out["real_time"] = r.GetAdjustedRealTime();
		out["cpu_time"] = r.GetAdjustedCPUTime();
	} else {
		out["real_time"] = r.real_accumulated_time;
		out["cpu_time"] = r.cpu_accumulated_time;
	}
	out["time_unit"] = benchmark::GetTimeUnitString(r.time_unit);
	for (const auto &c : r.counters)
		if (std::isfinite(c.second.value))
			out[c.first] = c.second.value;
	if (!r.report_label.empty())
		out["label"] = r.report_label;
	return out;
}

struct Row {
	std::string name, help;
	const char *kind;
};

// The strategies and rows in display order: the accessor strategies as the table lists them, then
// the families' own rows as the kernel table has them, the reference last.
std::vector<Row> strategy_rows()
{
	std::vector<Row> rows;

	for (size_t i = 0; i < iomap_nr_strategies; i++)
		rows.push_back({iomap_strategies[i].name, iomap_strategies[i].help, kRows[RB_ACCESSOR]});
	for (int row : {RB_VARIANT, RB_REFERENCE})
		for (size_t i = 0; i < rb_nr_kernels; i++) {
			const rb_kernel &k = rb_kernels[i];
			if (k.row == row && *k.strategy &&
			    std::none_of(rows.begin(), rows.end(), [&](const Row &r) { return r.name == k.strategy; }))
				rows.push_back({k.strategy, k.help ? k.help : "", kRows[row]});
		}
	return rows;
}

json families()
{
	json out;

	for (const rb_family &f : rb_families) {
		json e = {{"what", f.what}, {"unit", f.unit}, {"shape", kShapes[f.shape]},
			  {"param", kParams[f.param] ? json(kParams[f.param]) : json(nullptr)},
			  {"sampled", rb_family_sampled(&f)}, {"counters", rb_counters(f)}};
		json headline = json::array();

		if (f.below_step)
			e["below_step"] = f.below_step;
		for (const char *h = f.headline; h && *h; h += strspn(h, " ")) {
			size_t n = strcspn(h, " ");

			headline.push_back(std::string(h, n));
			h += n;
		}
		e["role"] = kRoles[f.role] ? json(kRoles[f.role]) : json(nullptr);
		e["headline"] = headline;
		e["spread"] = f.spread > 0 ? json(f.spread) : json(nullptr);
		out[f.name] = e;
	}
	return out;
}

json benchmark(const rb_result &r)
{
	const rb_kernel &k = *r.kernel;
	json e = {{"family", k.family->name}, {"op", k.op},
		  {"width", k.bits ? json(k.bits) : json(nullptr)}, {"strategy", r.strategy},
		  {"param", r.param ? json(r.param) : json(nullptr)}, {"space", iomap_space_name(k.space)},
		  {"unit", k.family->unit}, {"state", rb_state_word(r.state)}, {"reason", rb_result_reason(r)},
		  {"disturbed", r.disturbed}};

	if (r.state == rb_state::below_resolution)
		e["bound"] = r.bound;
	if ((r.state == rb_state::measured || r.state == rb_state::below_resolution) && !r.batches.empty()) {
		// a sampled benchmark: its dithered mean over every repetition's batches, with its interval
		rb_dithered d = rb_dithered_across(rb_dithered_mean(r.batches.data(), r.batches.size()),
						   r.sampled_means.data(), r.sampled_means.size());
		if (std::isfinite(d.low) && std::isfinite(d.high))
			e["interval"] = {d.low, d.high};
	}
	if (!r.pair.empty())
		e["pair"] = r.pair;
	if (k.note)
		e["note"] = k.note;
	return e;
}

// A sampled benchmark's histogram from its first to its last non-empty bucket, with the grid it lies on.
json histogram(const rb_result &r, size_t first, size_t end)
{
	json edges = json::array(), counts = json::array();

	for (size_t i = first; i < end; i++) {
		edges.push_back(rb_hist_edge(i, r.histogram_step));
		counts.push_back(r.histogram[i]);
	}
	edges.push_back(rb_hist_edge(end, r.histogram_step));
	return {{"unit", "cycles"}, {"grid", {{"step", r.histogram_step}, {"sub_buckets", RB_HIST_SUB}}},
		{"edges", edges}, {"counts", counts}};
}

json regbench(const rb_session &s)
{
	json order_families = json::array(), order_strategies = json::array(), strategies, benchmarks = json::object(),
	     histograms = json::object();

	for (const rb_family &f : rb_families)
		order_families.push_back(f.name);
	for (const Row &r : strategy_rows()) {
		order_strategies.push_back(r.name);
		strategies[r.name] = {{"help", r.help}, {"kind", r.kind}};
	}
	for (const rb_result &r : s.registry.all()) {
		size_t first, end;

		if (!r.ran())
			continue;	// left out by --benchmark_filter: not part of this run
		benchmarks[r.name] = benchmark(r);
		if (!r.histogram.empty() && rb_hist_span(r.histogram.data(), &first, &end))
			histograms[r.name] = histogram(r, first, end);
	}
	return {{"contract", kContractVersion},
		{"order", {{"families", order_families}, {"strategies", order_strategies}}},
		{"families", families()},
		{"strategies", strategies},
		{"kernel_strategies", {{"single", iomap_strategy_kernel_single()->name},
				       {"relaxed", iomap_strategy_kernel_relaxed()->name},
				       {"copy", iomap_strategy_kernel_copy()->name}}},
		{"benchmarks", benchmarks},
		{"histograms", histograms}};
}

}  // namespace

bool rb_benchmark_debug_build()
{
	benchmark::JSONReporter reporter;
	std::ostringstream text;

	reporter.SetOutputStream(&text);
	reporter.SetErrorStream(&text);
	reporter.ReportContext(benchmark::BenchmarkReporter::Context());
	reporter.Finalize();
	json doc = json::parse(text.str(), nullptr, false);
	return !doc.is_discarded() && doc["context"].value("library_build_type", "") == "debug";
}

std::string rb_contract_json(const rb_session &s, const benchmark::BenchmarkReporter::Context &c,
			     const std::vector<Run> &runs)
{
	json doc, benchmarks = json::array();

	for (const Run &r : runs)
		if (std::isfinite(r.real_accumulated_time) && std::isfinite(r.cpu_accumulated_time))
			benchmarks.push_back(run(r));
	doc["context"] = context(s, c);
	doc["benchmarks"] = benchmarks;
	doc["regbench"] = regbench(s);
	return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}
