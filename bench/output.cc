// output.cc: where the results go: the result file written to a temporary file and renamed, stdout checked, and what cannot be written rescued
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include <benchmark/benchmark.h>

#include "console.h"
#include "contract.h"
#include "error.h"
#include "output.h"
#include "reporters.h"
#include "session.h"
#include "signals.h"

namespace {

std::unique_ptr<benchmark::BenchmarkReporter> reporter(const rb_session &s, const std::string &format)
{
	if (format == "json")
		return std::make_unique<rb_json_reporter>(s);
	if (format == "csv")
		return std::make_unique<rb_csv_reporter>();
	// a result file in console format: Google Benchmark's, without colour
	return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
}

// Google Benchmark's --benchmark_list_tests output, with the names regbench registered.
std::string list(const std::string &names)
{
	std::istringstream in(names);
	const std::string suffix = "/manual_time";
	std::string out;

	for (std::string line; std::getline(in, line);) {
		if (line.size() >= suffix.size() && !line.compare(line.size() - suffix.size(), suffix.size(), suffix))
			line.erase(line.size() - suffix.size());
		out += line + "\n";
	}
	return out;
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

// Writes all of s to fd, then (sync) to the disk, and closes fd: 0, or the errno of the first failure.
int write_and_close(int fd, const std::string &s, bool sync)
{
	int e = write_all(fd, s);

	if (!e && sync && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	return e;
}

std::string folder_of(const std::string &path)
{
	std::vector<char> copy(path.begin(), path.end());

	copy.push_back('\0');
	return dirname(copy.data());
}

/*
 * The temporary file the results are written to before they are renamed
 * to final, as mkostemp's template: ".NAME.tmp-XXXXXX" in final's folder,
 * NAME cut to what the folder's NAME_MAX leaves, so that every name the
 * folder takes (255 bytes) gets one.  The up-front check creates this very
 * name, so that a run never ends on a temporary file it cannot create.
 * False when the whole path does not fit out.
 */
bool temporary_name(const std::string &final, char *out, size_t size)
{
	const std::string dir = folder_of(final), suffix = ".tmp-XXXXXX";
	std::string base = final.substr(final.find_last_of('/') + 1);
	long max = pathconf(dir.c_str(), _PC_NAME_MAX);

	if (max > 0 && base.size() + 1 + suffix.size() > (size_t)max)
		base.resize((size_t)max - 1 - suffix.size());
	return snprintf(out, size, "%s/.%s%s", dir.c_str(), base.c_str(), suffix.c_str()) < (int)size;
}

// The descriptor of this process open for writing on the file st describes, or -1: stdout or stderr,
// and for what is not a regular file any other (a shell's >(command) passes a pipe as /dev/fd/N).
int held(const struct stat &st)
{
	auto same = [&st](int fd) {
		struct stat f;
		int flags = fcntl(fd, F_GETFL);

		return flags >= 0 && (flags & O_ACCMODE) != O_RDONLY && !fstat(fd, &f) && f.st_dev == st.st_dev &&
		       f.st_ino == st.st_ino;
	};
	int found = -1;

	for (int fd : {STDOUT_FILENO, STDERR_FILENO})
		if (same(fd))
			return fd;
	DIR *d = S_ISREG(st.st_mode) ? nullptr : opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (struct dirent *e = readdir(d)) {
		int fd = atoi(e->d_name);
		if (fd > STDERR_FILENO && fd != dirfd(d) && same(fd)) {
			found = fd;
			break;
		}
	}
	closedir(d);
	return found;
}

// What a path that is neither a folder nor a regular file names, for the line that refuses it.
const char *kind_of(const struct stat &st)
{
	return S_ISFIFO(st.st_mode) ? "a named pipe" : S_ISSOCK(st.st_mode) ? "a socket" : "a device";
}

bool null_device(const struct stat &st)
{
	struct stat null;

	return S_ISCHR(st.st_mode) && !stat("/dev/null", &null) && S_ISCHR(null.st_mode) && null.st_rdev == st.st_rdev;
}

/*
 * When the result file cannot be written at the end (a full disk, a quota,
 * the file-size limit, its folder removed), the run's results go to a file
 * of their own in the first of $TMPDIR, /tmp, /var/tmp and the current
 * folder that takes them whole, so that nothing measured is lost; its path,
 * or "" when none did.  A second signal during the write removes it
 * (rb_temporary), as it removes the result file's temporary file.
 */
std::string rescue(const std::string &text)
{
	const char *env = getenv("TMPDIR");
	char *tmp = rb_temporary();

	for (const char *dir : {env && env[0] == '/' ? env : nullptr, "/tmp", "/var/tmp", "."}) {
		if (!dir || snprintf(tmp, rb_temporary_size, "%s/regbench-rescued-XXXXXX.json", dir) >= (int)rb_temporary_size)
			continue;
		int fd = mkostemps(tmp, 5, O_CLOEXEC);
		if (fd < 0)
			continue;
		int e = write_and_close(fd, text, true);
		std::string path = tmp;
		if (e)
			unlink(tmp);
		tmp[0] = '\0';
		if (!e)
			return path;
	}
	tmp[0] = '\0';
	return "";
}

/*
 * One line for results that could not be written where they were asked to
 * go (what, a flag or stdout; stage, what failed; e, its errno), with the
 * file the rescue put them in, or what to try when none took them.
 */
void lost(const std::string &what, const char *stage, int e, const std::string &kept)
{
	if (!kept.empty())
		fprintf(stderr, "regbench: %s: %s: %s (the results are whole in %s instead: move them where they belong)\n",
			what.c_str(), stage, strerror(e), kept.c_str());
	else
		fprintf(stderr, "regbench: %s: %s: %s (%s)\n", what.c_str(), stage, strerror(e),
			e == ENOSPC || e == EDQUOT ? "free some space, or write elsewhere"
			: e == EFBIG ? "raise the file-size limit, ulimit -f, or write elsewhere"
			: e == ENOENT ? "was its folder removed during the run?" : "check the path");
}

}  // namespace

/*
 * Where the result file goes, decided before anything runs, so that a path
 * that cannot work is refused at once, never found when the results are put
 * in place.  A regular file (or a new one) gets a temporary file beside it at
 * the end, renamed into place when complete, so the previous file of that
 * name stays whole until then; a symbolic link is written through, not
 * replaced.  The check tries what that end does: it creates the very
 * temporary file in the very folder and removes it (a run that then ends
 * early, a crash, SIGKILL, leaves nothing behind), and it refuses a file that
 * the rename could not replace.  A descriptor this process holds
 * (/dev/stdout, /proc/self/fd/1, even when redirected to a file, or a pipe
 * from >(command)) and /dev/null are written as they are, at the end; any
 * other named pipe, device or socket is refused: a write there that fails
 * when the run ends (no reader, /dev/full) would lose everything measured.
 */
void rb_output::open()
{
	const rb_output_options &o = s_.command.output;
	char *tmp = rb_temporary();
	struct stat st, dir_st;
	const std::string what = "--benchmark_out";

	if (o.out.empty())
		return;
	int missing = stat(o.out.c_str(), &st) ? errno : 0;
	if (!missing && S_ISDIR(st.st_mode))
		throw rb_error(what, "'" + o.out + "' is a folder",
			       "give a file name, e.g. " + o.out + (o.out.back() == '/' ? "" : "/") + "result.json");
	if (o.out.back() == '/') {
		std::string file = o.out.substr(0, o.out.find_last_not_of('/') + 1);
		throw rb_error(what, "'" + o.out + "' ends in /, which names a folder", "give a file name, e.g. " +
			       (!file.empty() && !stat(file.c_str(), &st) ? file : o.out + "result.json"));
	}
	if (missing == ENAMETOOLONG) {
		std::string base = o.out.substr(o.out.find_last_of('/') + 1);
		long max = pathconf(folder_of(o.out).c_str(), _PC_NAME_MAX);
		if (max > 0 && base.size() > (size_t)max)
			throw rb_error(what, "the name '" + rb_cut(base) + "' is " + std::to_string(base.size()) +
				       " bytes, more than the " + std::to_string(max) + " its folder takes", "a shorter name");
	}
	if (!missing) {
		if ((direct_ = held(st)) >= 0 || null_device(st))
			return;
		if (!S_ISREG(st.st_mode))
			throw rb_error(what, "'" + o.out + "' is " + kind_of(st) + ", not a file: a write that fails when "
				       "the run ends would lose the results", "give a file name; /dev/stdout, /dev/stderr "
				       "and /dev/null work too");
		char *real = realpath(o.out.c_str(), nullptr);
		if (!real)
			throw rb_error(what, "cannot resolve '" + rb_cut(o.out) + "': " + strerror(errno), "check the path");
		final_ = real;
		free(real);
	} else if (missing != ENOENT) {
		throw rb_error(what, "cannot reach '" + rb_cut(o.out) + "': " + strerror(missing), "check the path");
	} else if (!lstat(o.out.c_str(), &st)) {
		throw rb_error(what, "'" + o.out + "' is a symbolic link to nothing", "give the file's own path");
	} else {
		final_ = o.out;
	}
	std::string dir = folder_of(final_);
	// in a sticky folder (/tmp) only the file's owner, the folder's or root may replace it
	if (!missing && geteuid() && !stat(dir.c_str(), &dir_st) && (dir_st.st_mode & S_ISVTX) &&
	    st.st_uid != geteuid() && dir_st.st_uid != geteuid())
		throw rb_error(what, "'" + o.out + "' belongs to another user in a sticky folder, " + dir +
			       ", where only they may replace it", "choose another name");
	if (!temporary_name(final_, tmp, rb_temporary_size))
		throw rb_error(what, "'" + rb_cut(final_) + "': the path is too long for a temporary file beside it",
			       "a shorter path");
	// no signal may end the process between the creation and the removal (none is caught yet)
	sigset_t all, before;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &before);
	int fd = mkostemp(tmp, O_CLOEXEC), e = errno;
	if (fd >= 0) {
		unlink(tmp);
		close(fd);
	}
	tmp[0] = '\0';
	sigprocmask(SIG_SETMASK, &before, nullptr);
	if (fd < 0)
		throw rb_error(what, "cannot create a file in '" + dir + "': " + strerror(e),
			       e == ENOENT && stat(dir.c_str(), &dir_st) ? "create the folder first"
			       : "choose a folder you can write to");
}

// Writes text whole into the result file as open() decided; 0, or the errno of the failure with
// *stage saying what failed.
int rb_output::put_in_place(const std::string &text, const char **stage)
{
	const rb_output_options &o = s_.command.output;
	char *tmp = rb_temporary();
	int fd, e = 0;

	*stage = "cannot write the results";
	if (direct_ >= 0) {
		fflush(nullptr);
		std::cout.flush();
		return write_all(direct_, text);
	}
	if (final_.empty()) {
		fd = ::open(o.out.c_str(), O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		return write_and_close(fd, text, false);
	}
	fd = temporary_name(final_, tmp, rb_temporary_size) ? mkostemp(tmp, O_CLOEXEC) : (errno = ENAMETOOLONG, -1);
	if (fd < 0) {
		tmp[0] = '\0';
		*stage = "cannot create the result file";
		return errno;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	e = write_and_close(fd, text, true);
	if (!e && rename(tmp, final_.c_str())) {
		e = errno;
		*stage = "cannot put the results in place";
	}
	if (e)
		unlink(tmp);
	tmp[0] = '\0';
	return e;
}

int rb_output::run(const std::function<void()> &finish)
{
	const rb_output_options &o = s_.command.output;
	bool color = o.color < 0 ? rb_fancy_terminal(STDOUT_FILENO) : o.color;
	rb_console console(s_, color);
	auto display = o.format == "console" ? nullptr : reporter(s_, o.format);
	auto file = o.out.empty() ? nullptr : reporter(s_, o.out_format);
	// the run as JSON, kept for a rescue when the result file is not JSON or there is none
	auto keep = o.out.empty() || o.out_format != "json" ? reporter(s_, "json") : nullptr;
	std::ostringstream text, shown, kept;	// the result file's, the display's (stdout), the kept JSON
	std::vector<benchmark::BenchmarkReporter *> others;
	const char *stage;

	// a listing keeps nothing: a signal ends it as it would any program
	if (!s_.command.benchmark.list_tests)
		rb_catch_signals();
	if (file) {
		file->SetOutputStream(&text);
		file->SetErrorStream(&text);
		others.push_back(file.get());
	}
	if (keep) {
		keep->SetOutputStream(&kept);
		others.push_back(keep.get());
	}
	if (display)
		display->SetOutputStream(&shown);
	rb_tee tee(s_, display ? nullptr : &console, display.get(), others, finish);
	std::ostringstream names;	// Google Benchmark lists the benchmarks on the display's stream
	tee.SetOutputStream(&names);
	benchmark::RunSpecifiedBenchmarks(&tee);
	// stdout is written as a file is: a line it did not take (a full disk, a closed pipe) is an error
	std::cout.flush();
	int out_error = console.stdout_error() ? console.stdout_error() : fflush(stdout) ? errno : 0;
	if (!out_error)
		out_error = write_all(STDOUT_FILENO, list(names.str()) + shown.str());
	const std::string json = keep ? kept.str() : text.str();
	// nothing ran (a listing): no file
	int e = file && text.tellp() ? put_in_place(text.str(), &stage) : 0;
	if (e) {
		lost("--benchmark_out=" + o.out, stage, e, rescue(json));
		return 1;
	}
	if (!out_error)
		return 0;
	if (json.empty())
		fprintf(stderr, "regbench: stdout: cannot write: %s (check where stdout goes)\n", strerror(out_error));
	else if (file && o.out_format == "json" && (!final_.empty() || (direct_ >= 0 && direct_ != STDOUT_FILENO)))
		fprintf(stderr, "regbench: stdout: cannot write the %s: %s (the results are whole in %s)\n",
			display ? "results" : "console", strerror(out_error), o.out.c_str());
	else
		lost("stdout", display ? "cannot write the results" : "cannot write the console", out_error, rescue(json));
	return 1;
}
