// error.h: bad input, or a run that cannot start, as the one line regbench prints: what: why (what to try)
#ifndef REGBENCH_ERROR_H
#define REGBENCH_ERROR_H

#include <stdexcept>
#include <string>

// Thrown where the problem is found; main prints "regbench: " and the line, and exits with status.
class rb_error : public std::runtime_error {
public:
	rb_error(const std::string &what, const std::string &why, const std::string &hint, int status = 2)
		: std::runtime_error(what + ": " + why + " (" + hint + ")"), status(status) {}
	explicit rb_error(const std::string &line, int status = 2) : std::runtime_error(line), status(status) {}

	int status;
};

// Text a line quotes (a path, a filter: an argument may be 128 KiB), a long one cut in the middle so that
// the line stays one line, its end (a file's extension) kept.
inline std::string rb_cut(const std::string &s)
{
	return s.size() <= 80 ? s : s.substr(0, 60) + "..." + s.substr(s.size() - 17);
}

#endif
