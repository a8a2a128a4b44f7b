// output.cc: the reporters (console and result file), and the result file written to a temporary file and renamed
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include <benchmark/benchmark.h>

#include "console.h"
#include "contract.h"
#include "flags.h"
#include "output.h"
#include "regbench.h"

namespace {

volatile sig_atomic_t g_signal = 0;
char g_tmp[4096];		// the temporary result file while it is written, for the signal handler to remove
std::string g_final;		// where the result file goes (a regular file's real path), "" when written directly
int g_direct = -1;		// a descriptor of this process the result goes to as it is (stdout, stderr), or -1

[[noreturn]] void die(const std::string &what, const std::string &why, const std::string &hint, int status = 2)
{
	fprintf(stderr, "regbench: %s: %s (%s)\n", what.c_str(), why.c_str(), hint.c_str());
	exit(status);
}

/*
 * Google Benchmark's JSON, held back until the run ends: then the context
 * can say whether it was interrupted, and the "regbench" object follows the
 * benchmarks.  Counters that are not numbers (the coefficient of variation
 * of a counter that is 0 in every repetition) are left out, and so is an
 * aggregate whose time is not a number (the same of a time): JSON has no
 * NaN, and Google Benchmark would write one.
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
			if (!std::isfinite(r.real_accumulated_time) || !std::isfinite(r.cpu_accumulated_time))
				continue;
			for (auto it = r.counters.begin(); it != r.counters.end();)
				it = std::isfinite(it->second.value) ? std::next(it) : r.counters.erase(it);
			runs_.push_back(r);
		}
	}

	void Finalize() override
	{
		if (g_signal)
			benchmark::AddCustomContext("interrupted", g_signal == SIGINT ? "SIGINT" : "SIGTERM");
		benchmark::AddCustomContext("disturbed_benchmarks", std::to_string(rb_contract_disturbed_benchmarks()));
		rb_measure_context();
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
 * Hands everything to the result file's reporter, and to the console what it
 * shows: regbench's console gets each benchmark once it is complete;
 * Google Benchmark's JSON or CSV on stdout (--benchmark_format) gets, with
 * aggregates_only, the aggregates of repeated benchmarks, and the runs that
 * have no aggregates (one repetition) or failed.
 */
class Tee : public benchmark::BenchmarkReporter {
public:
	Tee(rb_console *console, BenchmarkReporter *display, BenchmarkReporter *file, bool aggregates_only)
		: console_(console), display_(display), file_(file), aggregates_only_(aggregates_only) {}

	bool ReportContext(const Context &context) override
	{
		bool ok = true;

		if (console_)
			console_->context(context);
		else
			ok = display_->ReportContext(context);
		return (!file_ || file_->ReportContext(context)) && ok;
	}

	void ReportRuns(const std::vector<Run> &given) override
	{
		std::vector<Run> runs = given;

		for (Run &r : runs) {
			r.run_name.time_type.clear();	// the names regbench registered
			rb_contract_reported(r);
		}
		if (display_) {
			std::vector<Run> shown;
			for (const Run &r : runs)
				if (!aggregates_only_ || r.run_type == Run::RT_Aggregate || r.repetitions <= 1 ||
				    r.error_occurred)
					shown.push_back(r);
			if (!shown.empty())
				display_->ReportRuns(shown);
		}
		if (file_)
			file_->ReportRuns(runs);
		for (const rb_runs &b : gather_.add(runs))
			complete(b);
	}

	void Finalize() override
	{
		for (const rb_runs &b : gather_.rest())
			complete(b);
		if (console_)
			console_->finish();
		progress_.finish();
		if (display_)
			display_->Finalize();
		if (file_)
			file_->Finalize();
	}

private:
	rb_console *console_;
	BenchmarkReporter *display_, *file_;
	bool aggregates_only_;
	rb_gather gather_;
	rb_progress progress_;

	void complete(const rb_runs &b)
	{
		if (console_)
			console_->benchmark(b, &progress_);
		progress_.done(b[0].run_name.str());
	}
};

std::unique_ptr<benchmark::BenchmarkReporter> reporter(const std::string &format)
{
	if (format == "json")
		return std::make_unique<ResultJSON>();
	if (format == "csv") {
		// deprecated in Google Benchmark 1.7, still what --benchmark_format=csv asks for
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
		return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
	}
	// a result file in console format: Google Benchmark's, without colour
	return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
}

/*
 * Google Benchmark matches --benchmark_filter against its own instance names,
 * which end in "/manual_time" where regbench sets the time; a "$" anchor in
 * the filter means the end of the name regbench shows (outside brackets and
 * escapes, where it is an anchor in an extended regex).
 */
std::string anchored(const std::string &filter)
{
	std::string out;

	for (size_t i = 0; i < filter.size(); i++) {
		char c = filter[i];

		if (c == '\\' && i + 1 < filter.size()) {
			out += filter.substr(i++, 2);
		} else if (c == '[') {
			// a bracket expression runs to the first ']' that is not its first member
			size_t end = i + 1;
			if (end < filter.size() && filter[end] == '^')
				end++;
			end = filter.find(']', end + 1);
			end = end == std::string::npos ? filter.size() - 1 : end;
			out += filter.substr(i, end - i + 1);
			i = end;
		} else if (c == '$') {
			out += "(/manual_time)?$";
		} else {
			out += c;
		}
	}
	return out;
}

// Google Benchmark's --benchmark_list_tests output, with the names regbench registered.
void list(const std::string &names)
{
	std::istringstream in(names);
	const std::string suffix = "/manual_time";

	for (std::string line; std::getline(in, line);) {
		if (line.size() >= suffix.size() && !line.compare(line.size() - suffix.size(), suffix.size(), suffix))
			line.erase(line.size() - suffix.size());
		printf("%s\n", line.c_str());
	}
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
		if (!rb_flag_boolean(a.substr(strlen(f.flag)), f.value))
			die(std::string(f.flag, strlen(f.flag) - 1), "not true or false: '" + a.substr(strlen(f.flag)) + "'",
			    "true or false");
		return true;
	}
	return false;
}

bool rb_output_context_key(const std::string &key)
{
	return key == "interrupted" || key == "disturbed_benchmarks";
}

/*
 * Where the result file goes, decided before anything runs, so that a path
 * that cannot work is refused at once; nothing is created yet: a run that
 * ends early (a bad flag found later, a crash, SIGKILL) leaves nothing
 * behind.  A regular file (or a new one) gets a temporary file beside it at
 * the end, renamed into place when complete, so the previous file of that
 * name stays whole until then; a symbolic link is written through, not
 * replaced.  This process's stdout or stderr (/dev/stdout, /proc/self/fd/1,
 * even when redirected to a file) and anything that is not a regular file
 * (a pipe, a terminal, /dev/full) are written as they are, at the end.
 */
void rb_output_open(const rb_output &o)
{
	struct stat st, fd_st;
	const char *what = "--benchmark_out";

	if (o.out.empty())
		return;
	if (!stat(o.out.c_str(), &st)) {
		if (S_ISDIR(st.st_mode))
			die(what, "'" + o.out + "' is a folder",
			    "give a file name, e.g. " + o.out + (o.out.back() == '/' ? "" : "/") + "result.json");
		for (int fd : {STDOUT_FILENO, STDERR_FILENO})
			if (!fstat(fd, &fd_st) && fd_st.st_dev == st.st_dev && fd_st.st_ino == st.st_ino) {
				g_direct = fd;
				return;
			}
		if (!S_ISREG(st.st_mode)) {
			if (access(o.out.c_str(), W_OK))
				die(what, "cannot write to '" + o.out + "': " + strerror(errno), "check the path");
			return;
		}
		char *real = realpath(o.out.c_str(), nullptr);
		if (!real)
			die(what, "cannot resolve '" + o.out + "': " + strerror(errno), "check the path");
		g_final = real;
		free(real);
	} else if (errno != ENOENT) {
		die(what, "cannot reach '" + o.out + "': " + strerror(errno), "check the path");
	} else if (!lstat(o.out.c_str(), &st)) {
		die(what, "'" + o.out + "' is a symbolic link to nothing", "give the file's own path");
	} else {
		g_final = o.out;
	}
	// the folder takes a new file: try one now
	std::vector<char> path(g_final.begin(), g_final.end());
	path.push_back('\0');
	std::string dir = dirname(path.data());
	snprintf(g_tmp, sizeof(g_tmp), "%s/.regbench-probe-XXXXXX", dir.c_str());
	int fd = mkostemp(g_tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		g_tmp[0] = '\0';
		die(what, "cannot create a file in '" + dir + "': " + strerror(e),
		    e == ENOENT ? "create the folder first" : "choose a folder you can write to");
	}
	unlink(g_tmp);
	close(fd);
	g_tmp[0] = '\0';
}

namespace {

// Writes text whole into the result file as rb_output_open decided; 0, or the errno of the failure
// with *stage saying what failed.
int put_in_place(const rb_output &o, const std::string &text, const char **stage)
{
	int fd, e = 0;

	*stage = "cannot write the results";
	if (g_direct >= 0) {
		fflush(nullptr);
		std::cout.flush();
		return write_all(g_direct, text);
	}
	if (g_final.empty()) {
		fd = open(o.out.c_str(), O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		e = write_all(fd, text);
		return close(fd) && !e ? errno : e;
	}
	std::vector<char> path(g_final.begin(), g_final.end());
	path.push_back('\0');
	std::string dir = dirname(path.data()), base = g_final.substr(g_final.find_last_of('/') + 1);
	snprintf(g_tmp, sizeof(g_tmp), "%s/.%s.tmp-XXXXXX", dir.c_str(), base.c_str());
	fd = mkostemp(g_tmp, O_CLOEXEC);
	if (fd < 0) {
		g_tmp[0] = '\0';
		*stage = "cannot create the result file";
		return errno;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	e = write_all(fd, text);
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(g_tmp, g_final.c_str())) {
		e = errno;
		*stage = "cannot put the results in place";
	}
	if (e)
		unlink(g_tmp);
	g_tmp[0] = '\0';
	return e;
}

}  // namespace

int rb_output_run(const rb_output &o)
{
	bool color = false;

	if (o.color == "auto" || !rb_flag_boolean(o.color, &color))
		color = rb_fancy_terminal(STDOUT_FILENO);
	rb_console console(color, o.tabular, o.aggregates_only);
	auto display = o.format == "console" ? nullptr : reporter(o.format);
	auto file = o.out.empty() ? nullptr : reporter(o.out_format);
	std::ostringstream text;
	const char *stage;
	int e;

	if (file) {
		file->SetOutputStream(&text);
		file->SetErrorStream(&text);
	}
	Tee tee(display ? nullptr : &console, display.get(), file.get(), o.aggregates_only);
	std::ostringstream names;	// Google Benchmark lists the benchmarks on the display's stream
	tee.SetOutputStream(&names);
	benchmark::SetBenchmarkFilter(anchored(benchmark::GetBenchmarkFilter()));
	benchmark::RunSpecifiedBenchmarks(&tee);
	list(names.str());
	// nothing ran (a listing): no file
	if (!file || !text.tellp())
		return 0;
	e = put_in_place(o, text.str(), &stage);
	if (e) {
		fprintf(stderr, "regbench: --benchmark_out=%s: %s: %s (%s)\n", o.out.c_str(), stage, strerror(e),
			e == ENOSPC || e == EDQUOT ? "free some space, or write elsewhere"
			: e == ENOENT ? "was its folder removed during the run?" : "check the path");
		return 1;
	}
	return 0;
}
