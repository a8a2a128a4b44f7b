// filter.h: --benchmark_filter, matched by RE2 in time linear in each name: which benchmarks a run selects
#ifndef REGBENCH_FILTER_H
#define REGBENCH_FILTER_H

#include <memory>
#include <string>

namespace re2 {
class RE2;
}

/*
 * --benchmark_filter as Google Benchmark 1.7.1 reads it ("all" is every
 * name; else an extended regular expression searched for in each name, and
 * a leading '-' selects the names it does not match), matched by RE2 in
 * POSIX egrep syntax: no expression can make it recurse or backtrack, so
 * none can crash or hang a run.  regbench registers only the benchmarks it
 * selects and hands Google Benchmark no filter: its own engine (std::regex,
 * recursive and backtracking) never sees one.
 */
class rb_filter {
public:
	rb_filter() = default;		// every name

	// The filter given; "" when RE2 takes it, else why not (one clause, for the flag's line).
	std::string set(const std::string &given);

	bool selects(const std::string &name) const;
	const std::string &given() const { return given_; }	// "": none was
	std::string quoted() const;	// as a line quotes it: a long one cut

private:
	std::string given_;
	bool negative_ = false;
	std::shared_ptr<const re2::RE2> re_;	// nullptr: every name
};

#endif
