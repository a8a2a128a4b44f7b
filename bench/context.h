// context.h: the JSON's context as regbench sets it, each key from the module that owns the fact
#ifndef REGBENCH_CONTEXT_H
#define REGBENCH_CONTEXT_H

#include <map>
#include <set>
#include <string>

/*
 * The JSON's context as regbench sets it: each key from the module that
 * owns the fact.  A key a module sets only as the run goes (target_lost,
 * interrupted) is claimed before --benchmark_context's keys are checked,
 * which may not replace any of them.
 */
class rb_context {
public:
	void set(const std::string &key, const std::string &value)
	{
		keys_[key] = value;
		claimed_.insert(key);
	}
	void claim(const std::string &key) { claimed_.insert(key); }
	bool claimed(const std::string &key) const { return claimed_.count(key) > 0; }
	std::string get(const std::string &key) const
	{
		auto it = keys_.find(key);
		return it == keys_.end() ? "" : it->second;
	}
	const std::map<std::string, std::string> &all() const { return keys_; }

private:
	std::map<std::string, std::string> keys_;	// in key order, as Google Benchmark keeps its own
	std::set<std::string> claimed_;
};

#endif
