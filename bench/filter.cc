// filter.cc: --benchmark_filter compiled once by RE2 (POSIX egrep syntax, bounded memory) and matched in linear time
#include <re2/re2.h>

#include "error.h"
#include "filter.h"

std::string rb_filter::set(const std::string &given)
{
	bool negative = !given.empty() && given[0] == '-';
	RE2::Options o;

	o.set_posix_syntax(true);	// grep -E's syntax: no \d, no (?i), no lookaround
	o.set_one_line(true);		// ^ and $ at the ends of the name, as in an extended regex
	o.set_never_capture(true);
	o.set_log_errors(false);
	auto re = given == "all" ? nullptr : std::make_shared<const RE2>(negative ? given.substr(1) : given, o);
	if (re && !re->ok()) {
		// RE2's error is its code's text and the part of the expression at fault, which may be all of it
		const std::string &e = re->error(), &arg = re->error_arg();
		bool quoted = e.size() >= arg.size() && !e.compare(e.size() - arg.size(), arg.size(), arg);
		return "not a regular expression: '" + rb_cut(given) + "': " +
		       (re->error_code() == RE2::ErrorPatternTooLarge ? "too large to match in bounded memory"
			: quoted ? e.substr(0, e.size() - arg.size()) + rb_cut(arg) : rb_cut(e));
	}
	given_ = given;
	negative_ = negative;
	re_ = re;
	return "";
}

std::string rb_filter::quoted() const
{
	return rb_cut(given_);
}

bool rb_filter::selects(const std::string &name) const
{
	return !re_ || RE2::PartialMatch(name, *re_) != negative_;
}
