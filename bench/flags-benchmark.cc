// flags-benchmark.cc: Google Benchmark 1.7.1's flags, each a row of a table, checked before Google Benchmark sees them
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "error.h"
#include "flags.h"

namespace {

// Seconds one repetition of a benchmark measures at most, unless --benchmark_min_time says otherwise.
constexpr const char *kMinTime = "0.05";
constexpr const char *kQuickMinTime = "0.005";

constexpr int kMaxRepetitions = 1000;	// each repetition runs every benchmark again
constexpr double kMaxSeconds = 3600;	// per benchmark: an hour

// Google Benchmark's flags: what each one's value is.  OUTPUT: a flag regbench handles for Google Benchmark.
enum Kind { BOOL, COUNT, SECONDS, WARMUP, REGEX, UNIT, CONTEXT, LEVEL, PERF, REPORT_ONLY, OUTPUT, OUTPUT_BOOL };

struct BenchmarkFlag {
	const char *name;		// without the leading --
	Kind kind;
	bool run_only;			// means nothing when --benchmark_list_tests only lists the names
	const char *example;		// a value it takes
	std::vector<std::string> allowed;	// OUTPUT: its values ("": any)
};

// Every flag Google Benchmark 1.7.1 reads (benchmark.cc's ParseCommandLineFlags), in its order.
const BenchmarkFlag kBenchmarkFlags[] = {
	{"benchmark_list_tests", BOOL, false, "true", {}},
	{"benchmark_filter", REGEX, false, "^chain/", {}},
	{"benchmark_min_time", SECONDS, true, "0.5", {}},
	{"benchmark_min_warmup_time", WARMUP, true, "0", {}},
	{"benchmark_repetitions", COUNT, true, "5", {}},
	{"benchmark_enable_random_interleaving", BOOL, true, "true", {}},
	{"benchmark_report_aggregates_only", REPORT_ONLY, true, "false", {}},
	{"benchmark_display_aggregates_only", OUTPUT_BOOL, true, "false", {}},
	{"benchmark_format", OUTPUT, true, "json", {"console", "json", "csv"}},
	{"benchmark_out", OUTPUT, true, "FILE", {}},
	{"benchmark_out_format", OUTPUT, true, "json", {"json", "console", "csv"}},
	{"benchmark_color", OUTPUT, true, "auto", {"auto", "true", "false", "yes", "no", "1", "0"}},
	{"benchmark_counters_tabular", OUTPUT_BOOL, true, "true", {}},
	{"benchmark_perf_counters", PERF, true, "CYCLES", {}},
	{"benchmark_context", CONTEXT, true, "accelerator=tcg", {}},
	{"benchmark_time_unit", UNIT, true, "ns", {}},
	{"v", LEVEL, true, "1", {}},
};

const BenchmarkFlag *find_benchmark_flag(const std::string &name)
{
	for (const BenchmarkFlag &f : kBenchmarkFlags)
		if (name == f.name)
			return &f;
	return nullptr;
}

// true/false, yes/no, on/off, 1/0 into *out; false for anything else.
bool boolean(const std::string &v, bool *out)
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
		throw rb_error(flag, "bad time '" + v + "'",
			       "Google Benchmark 1.7.1 takes a bare number of seconds, e.g. " + flag + "=0.5");
	if (!seconds(v, &s) || s <= 0 || s > kMaxSeconds)
		throw rb_error(flag, "bad time '" + v + "'", "seconds above 0 to 3600, e.g. " + flag + "=0.5");
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
			throw rb_error(flag, "bad pair '" + pair + "'",
				       "KEY=VALUE, several joined by commas, e.g. " + flag + "=accelerator=tcg");
		std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
		bool again = false;
		for (const auto &kv : f->context) {
			if (kv.first == key && kv.second != value)
				throw rb_error(flag, "'" + key + "' given twice: '" + kv.second + "' and '" + value + "'",
					       "give it once");
			again |= kv.first == key;
		}
		if (!again)
			f->context.emplace_back(key, value);
		if (comma == std::string::npos)
			break;
		start = comma + 1;
	}
}

// One of the output flags regbench handles for Google Benchmark.
void output_flag(const BenchmarkFlag &def, const std::string &flag, const std::string &value, rb_output_options *o)
{
	if (def.kind == OUTPUT_BOOL) {
		bool b;
		if (!boolean(value, &b))
			throw rb_error(flag, "not true or false: '" + value + "'", "true or false");
		(def.name == std::string("benchmark_counters_tabular") ? o->tabular : o->aggregates_only) = b;
		return;
	}
	if (value.empty())
		throw rb_error(flag, "needs a value", "e.g. " + flag + "=" + def.example);
	if (!def.allowed.empty() && std::find(def.allowed.begin(), def.allowed.end(), value) == def.allowed.end()) {
		std::string all;
		for (const std::string &x : def.allowed)
			all += (all.empty() ? "" : ", ") + x;
		throw rb_error(flag, "unknown value '" + value + "'", "one of " + all);
	}
	if (flag == "--benchmark_out") {
		o->out = value;
	} else if (flag == "--benchmark_out_format") {
		o->out_format = value;
	} else if (flag == "--benchmark_format") {
		o->format = value;
	} else {
		bool b;
		o->color = boolean(value, &b) ? b : -1;
	}
}

}  // namespace

bool rb_benchmark_flag(const std::string &arg, rb_command *c, std::string *value)
{
	rb_benchmark_flags *f = &c->benchmark;

	if (arg.compare(0, 2, "--"))
		return false;
	size_t eq = arg.find('=');
	std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
	std::string flag = "--" + name, v = eq == std::string::npos ? "" : arg.substr(eq + 1);
	const BenchmarkFlag *def = find_benchmark_flag(name);
	bool b;

	if (!def) {
		if (!name.compare(0, 10, "benchmark_"))
			throw rb_error(flag, "unknown flag", "regbench --help lists the flags");
		return false;
	}
	bool boolean_kind = def->kind == BOOL || def->kind == REPORT_ONLY || def->kind == OUTPUT_BOOL;
	if (def->run_only)
		f->run_only.push_back(flag);
	if (eq == std::string::npos) {
		// a bare flag: true for the booleans, as Google Benchmark takes it
		if (!boolean_kind)
			throw rb_error(flag, "needs a value", "Google Benchmark's flags take =, e.g. " + flag + "=" + def->example);
		v = "true";
	}
	*value = boolean_kind && boolean(v, &b) ? (b ? "true" : "false") : v;
	switch (def->kind) {
	case OUTPUT:
	case OUTPUT_BOOL:
		output_flag(*def, flag, v, &c->output);
		return true;
	case BOOL:
	case REPORT_ONLY:
		if (!boolean(v, &b))
			throw rb_error(flag, "not true or false: '" + v + "'", "true or false");
		if (def->kind == REPORT_ONLY && b)
			throw rb_error(flag, "the result file keeps every repetition, which its statistics need",
				       "--benchmark_display_aggregates_only chooses what the console shows");
		if (name == "benchmark_list_tests")
			f->list_tests = b;
		f->pass.push_back(flag + "=" + (b ? "true" : "false"));
		return true;
	case COUNT:
		if (!digits(v) || atoi(v.c_str()) < 1 || atoi(v.c_str()) > kMaxRepetitions)
			throw rb_error(flag, "bad count '" + v + "'", "repetitions from 1 to 1000, e.g. " + flag + "=5");
		break;
	case LEVEL:
		if (!digits(v))
			throw rb_error(flag, "bad level '" + v + "'", "a verbosity from 0, e.g. " + flag + "=1");
		break;
	case SECONDS:
		check_seconds(flag, v);
		break;
	case WARMUP: {
		double s;
		if (!seconds(v, &s) || s != 0)
			throw rb_error(flag, "regbench warms up and times its own calls; Google Benchmark's warm-up would "
				       "repeat whole measurements", "leave it out");
		break;
	}
	case REGEX: {
		if (v.empty())
			throw rb_error(flag, "needs a value", "a regular expression or all, e.g. " + flag + "=^chain/");
		std::string why = f->filter.set(v);
		if (!why.empty())
			throw rb_error(flag, why, "an extended regular expression, as grep -E takes");
		return true;	// regbench registers only what it selects: Google Benchmark gets no filter
	}
	case UNIT:
		if (v != "ns" && v != "us" && v != "ms" && v != "s")
			throw rb_error(flag, "unknown value '" + v + "'", "one of ns, us, ms, s");
		break;
	case CONTEXT:
		context_pairs(v, f);
		return true;
	case PERF:
		throw rb_error(flag, "this Google Benchmark is built without libpfm: it has no counters to read",
			       "regbench's core_cycles counts core cycles where perf_event has a counter");
	}
	f->pass.push_back(flag + "=" + v);
	return true;
}

void rb_benchmark_env_check()
{
	for (const BenchmarkFlag &f : kBenchmarkFlags) {
		std::string var;

		for (const char *c = f.name; *c; c++)
			var += (char)toupper((unsigned char)*c);
		// V (--v, verbosity) is common in other tools' environments, and Google Benchmark reads
		// it before main: a bad value gets its own line there, a number only sets its verbosity
		if (f.kind == LEVEL || !getenv(var.c_str()))
			continue;
		throw rb_error(var, "Google Benchmark would read this environment variable past regbench's checks",
			       std::string("unset it, and give --") + f.name + "=... instead");
	}
}

std::vector<std::string> rb_benchmark_args(const char *program, const rb_benchmark_flags &gb, bool quick,
					   double *budget, int *repetitions, bool *repetitions_given)
{
	const std::string reps = "--benchmark_repetitions=";

	const std::pair<const char *, const char *> defaults[] = {
		{"--benchmark_min_time=", quick ? kQuickMinTime : kMinTime},
		{"--benchmark_repetitions=", "3"},
	};
	const std::string min_time = defaults[0].first;
	std::vector<std::string> args{program};

	*repetitions_given = std::any_of(gb.pass.begin(), gb.pass.end(), [&](const std::string &a) { return !a.rfind(reps, 0); });
	for (const auto &d : defaults)
		if (std::none_of(gb.pass.begin(), gb.pass.end(), [&](const std::string &a) { return !a.rfind(d.first, 0); }))
			args.push_back(std::string(d.first) + d.second);
	args.insert(args.end(), gb.pass.begin(), gb.pass.end());
	for (std::string &a : args) {
		if (!a.rfind(min_time, 0)) {
			*budget = strtod(a.c_str() + min_time.size(), nullptr);
			a = min_time + "0";
		}
		if (!a.rfind(reps, 0))
			*repetitions = atoi(a.c_str() + reps.size());
	}
	return args;
}
