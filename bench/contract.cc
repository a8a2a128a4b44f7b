// contract.cc: the "regbench" object of the JSON, from the kernel, family and strategy tables and each benchmark's end
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "contract.h"
#include "iomap/strategy.h"

namespace {

struct Meta {
	const rb_kernel *k = nullptr;
	size_t param = 0;
	std::string pair;
	std::string state = "measured", reason;
	double bound = 0;
	std::string below_label;	// what the runner's last call ended with
	double below_bound = 0;
	int repetitions = 0, below = 0;	// repetitions reported, and how many of them were below the resolution
	std::string below_label_max;	// the label of the highest bound among them
	int disturbed = 0;		// repetitions measured while the machine was disturbed
	bool reported = false;		// Google Benchmark reported a run of it (a filter may leave it out)
};

std::vector<std::string> g_order;		// benchmark names in registration order
std::map<std::string, Meta> g_meta;
std::map<std::string, std::string> g_histograms;
bool g_error = false;

Meta *find(const std::string &name)
{
	auto it = g_meta.find(name);
	return it == g_meta.end() ? nullptr : &it->second;
}

// A number as JSON has them: integers without a fraction, others with enough digits; never NaN.
std::string number(double v)
{
	char buf[40];

	if (!std::isfinite(v))
		return "null";
	if (v == std::floor(v) && std::fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		snprintf(buf, sizeof(buf), "%.9g", v);
	return buf;
}

const char *const kShapes[] = {"unrolled", "sampled", "batch"};
const char *const kParams[] = {"null", "\"count\"", "\"size\""};
const char *const kRows[] = {"accessor", "variant", "reference"};

// The strategies and rows in display order: the accessor strategies as strategies.h lists them,
// then the families' own rows as the kernel table has them, the reference last.
std::vector<std::pair<std::string, std::string>> strategy_rows(std::vector<const char *> *kinds)
{
	std::vector<std::pair<std::string, std::string>> rows;
	std::vector<const char *> rk;
	auto seen = [&](const std::string &s) {
		for (auto &r : rows)
			if (r.first == s)
				return true;
		return false;
	};

	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		rows.emplace_back(iomap_strategies[i].name, iomap_strategies[i].help);
		rk.push_back(kRows[RB_ACCESSOR]);
	}
	for (int row : {RB_VARIANT, RB_REFERENCE})
		for (size_t i = 0; i < rb_nr_kernels; i++) {
			const rb_kernel &k = rb_kernels[i];
			if (k.row == row && *k.strategy && !seen(k.strategy)) {
				rows.emplace_back(k.strategy, k.help ? k.help : "");
				rk.push_back(kRows[row]);
			}
		}
	*kinds = rk;
	return rows;
}

// The counters a family's measured benchmarks carry (measure.cc sets them).
std::string counters(const rb_family &f)
{
	std::string out = "[\"cycles\", \"core_cycles\", \"ns\"";

	if (f.where != RB_AT_NOTHING)
		out += ", \"bytes_per_second\"";
	if (f.reports & RB_REPORT_OUTLIERS)
		out += ", \"outliers\", \"below_overhead\"";
	if (f.reports & RB_REPORT_PERCENTILES)
		for (const rb_percentile_counter &p : rb_percentile_counters)
			out += ", \"" + std::string(p.counter) + "\"";
	return out + "]";
}

}  // namespace

void rb_contract_add(const std::string &name, const rb_kernel &k, size_t param, const std::string &pair)
{
	if (!find(name))
		g_order.push_back(name);
	Meta m;

	m.k = &k;
	m.param = param;
	m.pair = pair;
	g_meta[name] = m;
}

void rb_contract_skipped(const std::string &name, const std::string &reason)
{
	if (Meta *m = find(name)) {
		m->state = "skipped";
		m->reason = reason;
	}
}

void rb_contract_below(const std::string &name, const std::string &label, double bound)
{
	if (Meta *m = find(name)) {
		m->below_label = label;
		m->below_bound = bound;
	}
}

void rb_contract_reported(const benchmark::BenchmarkReporter::Run &run)
{
	const std::string error = "error: ";
	Meta *m = find(run.run_name.str());

	if (!m || run.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration)
		return;
	m->reported = true;
	if (run.error_occurred && !run.error_message.compare(0, error.size(), error)) {
		g_error = true;
		if (m->state != "error") {
			m->state = "error";
			m->reason = run.error_message.substr(error.size());
		}
	} else if (!run.error_occurred) {
		m->repetitions++;
		if (!run.report_label.empty() && run.report_label == m->below_label) {
			m->below++;
			if (m->below_bound >= m->bound) {
				m->bound = m->below_bound;
				m->below_label_max = m->below_label;
			}
		}
		/*
		 * Below the resolution when most repetitions were: the state of a
		 * cost near the bound does not turn on one repetition, and the
		 * median of the repetitions is then a measured figure or not.
		 */
		if (m->state == "measured" || m->state == "below_resolution") {
			m->state = 2 * m->below > m->repetitions ? "below_resolution" : "measured";
			m->reason = m->state == "below_resolution" ? m->below_label_max : "";
		}
	}
}

void rb_contract_disturbed(const std::string &name)
{
	if (Meta *m = find(name))
		m->disturbed++;
}

size_t rb_contract_disturbed_benchmarks()
{
	size_t n = 0;

	for (const auto &[name, m] : g_meta)
		n += m.disturbed > 0;
	return n;
}

bool rb_contract_get(const std::string &name, rb_contract_entry *e)
{
	const Meta *m = find(name);

	if (!m)
		return false;
	*e = rb_contract_entry{m->k->family, m->state, m->reason, m->k->family->unit, m->disturbed,
			       (m->k->family->reports & RB_REPORT_PERCENTILES) != 0};
	return true;
}

void rb_contract_histogram(const std::string &name, const rb_histogram &h)
{
	std::string out = "{\"unit\": \"cycles\", \"edges\": [";

	for (size_t i = 0; i <= h.nbins; i++)
		out += (i ? ", " : "") + number(h.edges[i]);
	out += "], \"counts\": [";
	for (size_t i = 0; i < h.nbins; i++)
		out += (i ? ", " : "") + number((double)h.counts[i]);
	g_histograms[name] = out + "]}";
}

std::vector<std::string> rb_contract_names()
{
	return g_order;
}

bool rb_any_error()
{
	return g_error;
}

std::string rb_json_string(const std::string &s)
{
	std::string out = "\"";

	for (unsigned char c : s) {
		if (c == '"' || c == '\\') {
			out += '\\';
			out += (char)c;
		} else if (c < 0x20) {
			char buf[8];
			snprintf(buf, sizeof(buf), "\\u%04x", c);
			out += buf;
		} else {
			out += (char)c;
		}
	}
	return out + "\"";
}

std::string rb_contract_json()
{
	std::vector<const char *> kinds;
	auto rows = strategy_rows(&kinds);
	const std::string in = "\n    ", in2 = "\n      ";
	std::string out = "{" + in + "\"contract\": " + std::to_string(kContractVersion) + ",";

	out += in + "\"order\": {\"families\": [";
	for (int f = 0; f < RB_NR_FAMILIES; f++)
		out += (f ? ", " : "") + rb_json_string(rb_families[f].name);
	out += "], \"strategies\": [";
	for (size_t i = 0; i < rows.size(); i++)
		out += (i ? ", " : "") + rb_json_string(rows[i].first);
	out += "]},";

	out += in + "\"families\": {";
	for (int i = 0; i < RB_NR_FAMILIES; i++) {
		const rb_family &f = rb_families[i];
		out += std::string(i ? "," : "") + in2 + rb_json_string(f.name) + ": {\"what\": " + rb_json_string(f.what) +
		       ", \"unit\": " + rb_json_string(f.unit) + ", \"shape\": \"" + kShapes[f.shape] +
		       "\", \"param\": " + kParams[f.param] + ", \"sampled\": " +
		       (rb_family_sampled(&f) ? "true" : "false") + ", \"counters\": " + counters(f) +
		       (f.instead ? ", \"instead\": " + rb_json_string(f.instead) : "") + "}";
	}
	out += in + "},";

	out += in + "\"strategies\": {";
	for (size_t i = 0; i < rows.size(); i++)
		out += std::string(i ? "," : "") + in2 + rb_json_string(rows[i].first) + ": {\"help\": " +
		       rb_json_string(rows[i].second) + ", \"kind\": \"" + kinds[i] + "\"}";
	out += in + "},";

	out += in + "\"kernel_strategies\": {\"single\": " + rb_json_string(iomap_strategy_kernel_single()->name) +
	       ", \"copy\": " + rb_json_string(iomap_strategy_kernel_copy()->name) + "},";

	out += in + "\"benchmarks\": {";
	bool first = true;
	for (size_t i = 0; i < g_order.size(); i++) {
		const Meta &m = g_meta[g_order[i]];
		const rb_kernel &k = *m.k;
		if (!m.reported)
			continue;	// left out by --benchmark_filter: not part of this run
		out += std::string(first ? "" : ",") + in2 + rb_json_string(g_order[i]) + ": {\"family\": " +
		       rb_json_string(k.family->name) + ", \"op\": " + rb_json_string(k.op) +
		       ", \"width\": " + (k.bits ? std::to_string(k.bits) : "null") +
		       ", \"strategy\": " + rb_json_string(rb_kernel_strategy(&k)) +
		       ", \"param\": " + (m.param ? std::to_string(m.param) : "null") +
		       ", \"space\": \"" + iomap_space_name(k.space) + "\", \"unit\": " + rb_json_string(k.family->unit) +
		       ", \"state\": \"" + m.state + "\", \"reason\": " + rb_json_string(m.reason) +
		       ", \"disturbed\": " + std::to_string(m.disturbed);
		if (m.state == "below_resolution")
			out += ", \"bound\": " + number(m.bound);
		if (!m.pair.empty())
			out += ", \"pair\": " + rb_json_string(m.pair);
		if (k.note)
			out += ", \"note\": " + rb_json_string(k.note);
		out += "}";
		first = false;
	}
	out += in + "},";

	out += in + "\"histograms\": {";
	first = true;
	for (const std::string &name : g_order) {
		auto h = g_histograms.find(name);
		if (h == g_histograms.end())
			continue;
		out += std::string(first ? "" : ",") + in2 + rb_json_string(name) + ": " + h->second;
		first = false;
	}
	return out + in + "}\n  }";
}
