// flags.cc: Google Benchmark 1.7.1's own flags, each checked the way Google Benchmark will read it, before it does
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "flags.h"
#include "regbench.h"

namespace {

// What a flag's value is.  OUTPUT: one of the flags output.cc handles for Google Benchmark.
enum Kind { BOOL, COUNT, SECONDS, WARMUP, REGEX, UNIT, CONTEXT, LEVEL, PERF, REPORT_ONLY, OUTPUT };

struct Flag {
	const char *name;	// without the leading --
	Kind kind;
	bool run_only;		// means nothing when --benchmark_list_tests only lists the names
	const char *example;	// a value it takes
};

// Every flag Google Benchmark 1.7.1 reads (benchmark.cc's ParseCommandLineFlags), in its order.
const Flag kFlags[] = {
	{"benchmark_list_tests", BOOL, false, "true"},
	{"benchmark_filter", REGEX, false, "^chain/"},
	{"benchmark_min_time", SECONDS, true, "0.5"},
	{"benchmark_min_warmup_time", WARMUP, true, "0"},
	{"benchmark_repetitions", COUNT, true, "5"},
	{"benchmark_enable_random_interleaving", BOOL, true, "true"},
	{"benchmark_report_aggregates_only", REPORT_ONLY, true, "false"},
	{"benchmark_display_aggregates_only", OUTPUT, true, "false"},
	{"benchmark_format", OUTPUT, true, "json"},
	{"benchmark_out", OUTPUT, true, "result.json"},
	{"benchmark_out_format", OUTPUT, true, "json"},
	{"benchmark_color", OUTPUT, true, "false"},
	{"benchmark_counters_tabular", OUTPUT, true, "true"},
	{"benchmark_perf_counters", PERF, true, "CYCLES"},
	{"benchmark_context", CONTEXT, true, "accelerator=tcg"},
	{"benchmark_time_unit", UNIT, true, "ns"},
	{"v", LEVEL, true, "1"},
};

constexpr int kMaxRepetitions = 1000;	// each repetition runs every benchmark again
constexpr double kMaxSeconds = 3600;	// per benchmark: an hour

const Flag *find(const std::string &name)
{
	for (const Flag &f : kFlags)
		if (name == f.name)
			return &f;
	return nullptr;
}

bool digits(const std::string &v)
{
	return !v.empty() && v.size() <= 9 && v.find_first_not_of("0123456789") == std::string::npos;
}

// A number of seconds as Google Benchmark 1.7.1 reads it (strtod, the whole string), finite.
bool seconds(const std::string &v, double *out)
{
	char *end;

	if (v.empty() || isspace((unsigned char)v[0]))
		return false;
	*out = strtod(v.c_str(), &end);
	return !*end && std::isfinite(*out);
}

void check_seconds(const std::string &flag, const std::string &v)
{
	double s, unused;

	if (!seconds(v, &s) && v.size() > 1 && (v.back() == 's' || v.back() == 'x') &&
	    seconds(v.substr(0, v.size() - 1), &unused))
		rb_die(flag, "bad time '" + v + "'",
		       "Google Benchmark 1.7.1 takes a bare number of seconds, e.g. " + flag + "=0.5");
	if (!seconds(v, &s) || s <= 0 || s > kMaxSeconds)
		rb_die(flag, "bad time '" + v + "'", "seconds above 0 to 3600, e.g. " + flag + "=0.5");
}

// The filter's expression, compiled as Google Benchmark compiles it; "" when it compiles, else why not.
std::string regex_error(const std::string &expr)
{
	try {
		std::regex re(expr, std::regex::extended);
	} catch (const std::regex_error &e) {
		return e.what();
	}
	return "";
}

// --benchmark_context=KEY=VALUE[,KEY=VALUE...]: Google Benchmark splits at every ',' and '='.
void context_pairs(const std::string &v, rb_benchmark_flags *f)
{
	const std::string flag = "--benchmark_context";
	size_t start = 0;

	for (;;) {
		size_t comma = v.find(',', start);
		std::string pair = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
		size_t eq = pair.find('=');

		if (eq == std::string::npos || eq == 0 || pair.find('=', eq + 1) != std::string::npos)
			rb_die(flag, "bad pair '" + pair + "'",
			       "KEY=VALUE, several joined by commas, e.g. " + flag + "=accelerator=tcg");
		std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
		for (const auto &kv : f->context)
			if (kv.first == key && kv.second != value)
				rb_die(flag, "'" + key + "' given twice: '" + kv.second + "' and '" + value + "'",
				       "give it once");
		f->context.emplace_back(key, value);
		if (comma == std::string::npos)
			break;
		start = comma + 1;
	}
}

}  // namespace

bool rb_benchmark_context_key(const std::string &key)
{
	for (const char *k : {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled",
			      "caches", "load_avg", "library_build_type"})
		if (key == k)
			return true;
	return false;
}

bool rb_flag_boolean(const std::string &v, bool *out)
{
	for (const char *t : {"true", "yes", "1", "on"})
		if (v == t)
			return *out = true;
	for (const char *f : {"false", "no", "0", "off"})
		if (v == f) {
			*out = false;
			return true;
		}
	return false;
}

bool rb_benchmark_flag(const std::string &arg, rb_benchmark_flags *f, rb_output *o)
{
	if (arg.compare(0, 2, "--"))
		return false;
	size_t eq = arg.find('=');
	std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
	std::string flag = "--" + name, v = eq == std::string::npos ? "" : arg.substr(eq + 1);
	const Flag *def = find(name);
	bool b;

	if (!def) {
		if (!name.compare(0, 10, "benchmark_"))
			rb_die(flag, "unknown flag", "regbench --help lists the flags");
		return false;
	}
	if (def->run_only)
		f->run_only.push_back(flag);
	if (eq == std::string::npos) {
		// a bare flag: true for the booleans, as Google Benchmark takes it
		if (def->kind == BOOL || def->kind == REPORT_ONLY ||
		    (def->kind == OUTPUT && (name == "benchmark_counters_tabular" ||
					     name == "benchmark_display_aggregates_only")))
			v = "true";
		else
			rb_die(flag, "needs a value", "Google Benchmark's flags take =, e.g. " + flag + "=" + def->example);
	}
	switch (def->kind) {
	case OUTPUT:
		return rb_output_flag((flag + "=" + v).c_str(), o);
	case BOOL:
	case REPORT_ONLY:
		if (!rb_flag_boolean(v, &b))
			rb_die(flag, "not true or false: '" + v + "'", "true or false");
		if (def->kind == REPORT_ONLY && b)
			rb_die(flag, "the result file keeps every repetition, which its statistics need",
			       "--benchmark_display_aggregates_only chooses what the console shows");
		if (name == "benchmark_list_tests")
			f->list_tests = b;
		f->pass.push_back(flag + "=" + (b ? "true" : "false"));
		return true;
	case COUNT:
		if (!digits(v) || atoi(v.c_str()) < 1 || atoi(v.c_str()) > kMaxRepetitions)
			rb_die(flag, "bad count '" + v + "'", "repetitions from 1 to 1000, e.g. " + flag + "=5");
		break;
	case LEVEL:
		if (!digits(v))
			rb_die(flag, "bad level '" + v + "'", "a verbosity from 0, e.g. " + flag + "=1");
		break;
	case SECONDS:
		check_seconds(flag, v);
		break;
	case WARMUP: {
		double s;
		if (!seconds(v, &s) || s != 0)
			rb_die(flag, "regbench warms up and times its own calls; Google Benchmark's warm-up would repeat "
			       "whole measurements", "leave it out");
		break;
	}
	case REGEX: {
		if (v.empty())
			rb_die(flag, "needs a value", "a regular expression or all, e.g. " + flag + "=^chain/");
		std::string expr = v[0] == '-' ? v.substr(1) : v, why = v == "all" ? "" : regex_error(expr);

		if (!why.empty())
			rb_die(flag, "not a regular expression: '" + v + "': " + why,
			       "an extended regular expression, as grep -E takes");
		f->filter = v;
		break;
	}
	case UNIT:
		if (v != "ns" && v != "us" && v != "ms" && v != "s")
			rb_die(flag, "unknown value '" + v + "'", "one of ns, us, ms, s");
		break;
	case CONTEXT:
		context_pairs(v, f);
		return true;
	case PERF:
		rb_die(flag, "this Google Benchmark is built without libpfm: it has no counters to read",
		       "regbench's core_cycles counts core cycles where perf_event has a counter");
	}
	f->pass.push_back(flag + "=" + v);
	return true;
}

void rb_benchmark_env_check()
{
	for (const Flag &f : kFlags) {
		std::string var;

		for (const char *c = f.name; *c; c++)
			var += (char)toupper((unsigned char)*c);
		// V (--v, verbosity) is common in other tools' environments, and Google Benchmark reads
		// it before main: a bad value gets its own line there, a number only sets its verbosity
		if (f.kind == LEVEL || !getenv(var.c_str()))
			continue;
		rb_die(var, "Google Benchmark would read this environment variable past regbench's checks",
		       std::string("unset it, and give --") + f.name + "=... instead");
	}
}

size_t rb_filter_count(const std::string &filter, const std::vector<std::string> &names)
{
	bool negative = !filter.empty() && filter[0] == '-';
	std::regex re(filter == "all" ? "." : negative ? filter.substr(1) : filter, std::regex::extended);
	size_t n = 0;

	for (const std::string &name : names)
		n += std::regex_search(name, re) != negative;
	return n;
}
