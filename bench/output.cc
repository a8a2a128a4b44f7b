// output.cc: the reporters (console and result file), and the result file written to a temporary file and renamed
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include <benchmark/benchmark.h>

#include "contract.h"
#include "output.h"

namespace {

volatile sig_atomic_t g_signal = 0;
char g_tmp[4096];		// the temporary result file, for the signal handler to remove
int g_fd = -1;			// open on it, or on a file that is not a regular one (written directly)
bool g_direct = false;

[[noreturn]] void die(const std::string &what, const std::string &why, const std::string &hint, int status = 2)
{
	fprintf(stderr, "regbench: %s: %s (%s)\n", what.c_str(), why.c_str(), hint.c_str());
	exit(status);
}

/*
 * Google Benchmark's JSON, held back until the run ends: then the context
 * can say whether it was interrupted, and the "regbench" object follows the
 * benchmarks.  Counters that are not numbers (the coefficient of variation
 * of a counter that is 0 in every repetition) are left out: JSON has no NaN.
 */
class ResultJSON : public benchmark::JSONReporter {
public:
	bool ReportContext(const Context &context) override
	{
		context_ = &context;
		return true;
	}

	void ReportRuns(const std::vector<Run> &runs) override
	{
		for (Run r : runs) {
			for (auto it = r.counters.begin(); it != r.counters.end();)
				it = std::isfinite(it->second.value) ? std::next(it) : r.counters.erase(it);
			runs_.push_back(r);
		}
	}

	void Finalize() override
	{
		if (g_signal)
			benchmark::AddCustomContext("interrupted", g_signal == SIGINT ? "SIGINT" : "SIGTERM");
		if (context_)
			JSONReporter::ReportContext(*context_);
		JSONReporter::ReportRuns(runs_);
		GetOutputStream() << "\n  ],\n  \"regbench\": " << rb_contract_json() << "\n}\n";
	}

private:
	const Context *context_ = nullptr;
	std::vector<Run> runs_;
};

/*
 * Hands everything to the result file's reporter, and to the console's what
 * it shows: with aggregates_only, the aggregates of repeated benchmarks, and
 * the runs that have no aggregates (one repetition) or failed.
 */
class Tee : public benchmark::BenchmarkReporter {
public:
	Tee(BenchmarkReporter *display, BenchmarkReporter *file, bool aggregates_only)
		: display_(display), file_(file), aggregates_only_(aggregates_only) {}

	bool ReportContext(const Context &context) override
	{
		bool ok = display_->ReportContext(context);

		return (!file_ || file_->ReportContext(context)) && ok;
	}

	void ReportRuns(const std::vector<Run> &runs) override
	{
		std::vector<Run> shown;

		for (const Run &r : runs)
			if (!aggregates_only_ || r.run_type == Run::RT_Aggregate || r.repetitions <= 1 || r.error_occurred)
				shown.push_back(r);
		for (const Run &r : runs)
			rb_contract_reported(r);
		if (!shown.empty())
			display_->ReportRuns(shown);
		if (file_)
			file_->ReportRuns(runs);
	}

	void Finalize() override
	{
		display_->Finalize();
		if (file_)
			file_->Finalize();
	}

private:
	BenchmarkReporter *display_, *file_;
	bool aggregates_only_;
};

std::unique_ptr<benchmark::BenchmarkReporter> reporter(const std::string &format, bool color, bool tabular)
{
	using R = benchmark::ConsoleReporter;

	if (format == "json")
		return std::make_unique<ResultJSON>();
	if (format == "csv") {
		// deprecated in Google Benchmark 1.7, still what --benchmark_format=csv asks for
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
		return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
	}
	return std::make_unique<R>(static_cast<R::OutputOptions>((color ? R::OO_Color : R::OO_None) |
								 (tabular ? R::OO_Tabular : R::OO_None)));
}

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

void on_signal(int sig)
{
	if (g_signal) {
		// asked twice: stop now, leaving nothing half-written behind
		if (g_tmp[0])
			unlink(g_tmp);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	g_signal = sig;
}

// Writes all of s to fd: 0, or the errno of the failure.
int write_all(int fd, const std::string &s)
{
	for (size_t done = 0; done < s.size();) {
		ssize_t n = write(fd, s.data() + done, s.size() - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		done += (size_t)n;
	}
	return 0;
}

}  // namespace

int rb_interrupted()
{
	return g_signal;
}

void rb_output_catch_signals()
{
	struct sigaction sa = {};

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
}

bool rb_output_flag(const char *arg, rb_output *o)
{
	struct {
		const char *flag;
		std::string *value;
		std::vector<std::string> allowed;
	} const values[] = {
		{"--benchmark_out=", &o->out, {}},
		{"--benchmark_out_format=", &o->out_format, {"json", "console", "csv"}},
		{"--benchmark_format=", &o->format, {"console", "json", "csv"}},
		{"--benchmark_color=", &o->color, {"auto", "true", "false", "yes", "no", "1", "0"}},
	};
	std::string a = arg;

	for (const auto &v : values) {
		if (a.rfind(v.flag, 0))
			continue;
		std::string value = a.substr(strlen(v.flag)), flag(v.flag, strlen(v.flag) - 1);
		if (value.empty())
			die(flag, "needs a value", std::string("e.g. ") + v.flag + (v.allowed.empty() ? "FILE" : v.allowed[0]));
		if (!v.allowed.empty() && std::find(v.allowed.begin(), v.allowed.end(), value) == v.allowed.end()) {
			std::string all;
			for (const std::string &x : v.allowed)
				all += (all.empty() ? "" : ", ") + x;
			die(flag, "unknown value '" + value + "'", "one of " + all);
		}
		*v.value = value;
		return true;
	}
	struct {
		const char *flag;
		bool *value;
	} const flags[] = {
		{"--benchmark_counters_tabular=", &o->tabular},
		{"--benchmark_display_aggregates_only=", &o->aggregates_only},
	};
	for (const auto &f : flags) {
		if (a.rfind(f.flag, 0))
			continue;
		if (!boolean(a.substr(strlen(f.flag)), f.value))
			die(std::string(f.flag, strlen(f.flag) - 1), "not true or false: '" + a.substr(strlen(f.flag)) + "'",
			    "true or false");
		return true;
	}
	return false;
}

void rb_output_open(const rb_output &o)
{
	struct stat st;
	const char *what = "--benchmark_out";

	if (o.out.empty())
		return;
	if (!stat(o.out.c_str(), &st) && S_ISDIR(st.st_mode))
		die(what, "'" + o.out + "' is a folder", "give a file name, e.g. " + o.out + "/result.json");
	if (!stat(o.out.c_str(), &st) && !S_ISREG(st.st_mode)) {
		// a terminal, pipe or device (/dev/stdout): written once, at the end
		g_fd = open(o.out.c_str(), O_WRONLY | O_CLOEXEC);
		if (g_fd < 0)
			die(what, "cannot open '" + o.out + "': " + strerror(errno), "check the path");
		g_direct = true;
		return;
	}
	std::vector<char> path(o.out.begin(), o.out.end());
	path.push_back('\0');
	std::string dir = dirname(path.data()), base = o.out.substr(o.out.find_last_of('/') + 1);
	snprintf(g_tmp, sizeof(g_tmp), "%s/.%s.tmp-XXXXXX", dir.c_str(), base.c_str());
	g_fd = mkostemp(g_tmp, O_CLOEXEC);
	if (g_fd < 0) {
		int e = errno;
		g_tmp[0] = '\0';
		die(what, "cannot create a file in '" + dir + "': " + strerror(e),
		    e == ENOENT ? "create the folder first" : "choose a folder you can write to");
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(g_fd, 0666 & ~mask);
}

int rb_output_run(const rb_output &o)
{
	bool color = o.color == "auto" ? isatty(STDOUT_FILENO) && getenv("TERM") && strcmp(getenv("TERM"), "dumb")
				       : o.color == "true" || o.color == "yes" || o.color == "1";
	auto display = reporter(o.format, color, o.tabular);
	auto file = o.out.empty() ? nullptr : reporter(o.out_format, false, o.tabular);
	std::ostringstream text;
	int e;

	if (file) {
		file->SetOutputStream(&text);
		file->SetErrorStream(&text);
	}
	Tee tee(display.get(), file.get(), o.aggregates_only);
	benchmark::RunSpecifiedBenchmarks(&tee);
	if (g_fd < 0)
		return 0;
	if (!text.tellp()) {
		// nothing ran (a listing): no file
		if (!g_direct)
			unlink(g_tmp);
		close(g_fd);
		return 0;
	}
	e = write_all(g_fd, text.str());
	if (!e && !g_direct && fsync(g_fd))
		e = errno;
	if (close(g_fd) && !e)
		e = errno;
	if (e && !g_direct)
		unlink(g_tmp);
	if (e) {
		fprintf(stderr, "regbench: --benchmark_out=%s: cannot write the results: %s (%s)\n", o.out.c_str(),
			strerror(e), e == ENOSPC || e == EDQUOT ? "free some space, or write elsewhere" : "check the path");
		return 1;
	}
	if (!g_direct && rename(g_tmp, o.out.c_str())) {
		e = errno;
		unlink(g_tmp);
		fprintf(stderr, "regbench: --benchmark_out=%s: cannot put the results in place: %s (%s)\n", o.out.c_str(),
			strerror(e), "was its folder removed during the run?");
		return 1;
	}
	g_tmp[0] = '\0';
	return 0;
}
