// output.h: where results go: the console, and the result file written whole or not at all
#ifndef REGBENCH_OUTPUT_H
#define REGBENCH_OUTPUT_H

#include <functional>
#include <string>

struct rb_session;

class rb_output {
public:
	explicit rb_output(rb_session &s) : s_(s) {}

	// Before anything runs: where the result file goes, and that the temporary file it is written to
	// can be created there and renamed into place; rb_error when it cannot.  Nothing is left behind.
	void open();

	// Runs the registered benchmarks with the console and file reporters; finish() completes the
	// session's context once the last benchmark has run, before anything is written.  Then puts the
	// result file in place.  Returns 0, or 1 after one line on stderr when the file could not be written.
	int run(const std::function<void()> &finish);

private:
	rb_session &s_;
	std::string final_;	// where the result file goes (a regular file's real path), "" when written as it is
	int direct_ = -1;	// a descriptor of this process the result goes to as it is (stdout, stderr), or -1
				// (with final_ "": /dev/null)

	int put_in_place(const std::string &text, const char **stage);
};

#endif
