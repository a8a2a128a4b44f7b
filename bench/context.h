// context.h: the JSON's context: the table of its keys (context-keys.cc), each set by the module that owns the fact, and the user's labels
#ifndef REGBENCH_CONTEXT_H
#define REGBENCH_CONTEXT_H

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

// When a key is in the file: on every run, only when something happened, or only in files of older versions.
enum rb_key_when { RB_ALWAYS, RB_SOMETIMES, RB_FORMERLY };

// One key of the context: the schema's context part (bench/regbench.schema.json) is made from these rows.
struct rb_context_key {
	const char *name;
	const char *owner;	// what sets it: a file of bench/, the build, or Google Benchmark
	const char *type;	// its value's JSON Schema, as JSON text
	rb_key_when when;
	const char *help;	// what it means, for the schema and the docs
};

extern const rb_context_key rb_context_keys[];
extern const size_t rb_nr_context_keys;

// The row of a key, or nullptr.
const rb_context_key *rb_context_key_find(const std::string &name);

// {"context": the schema's $defs/context, "written": the keys every run writes} (bench/tests/context-keys.py
// holds the schema file to it).
nlohmann::ordered_json rb_context_schema();

/*
 * The JSON's context as regbench sets it: each key from the module that owns
 * the fact, each a row of rb_context_keys (a key without a row is a
 * programming error, which every run would hit, and the tests run it); and
 * apart from them, the labels --benchmark_context gives.
 */
class rb_context {
public:
	void set(const std::string &key, const std::string &value)
	{
		const rb_context_key *k = rb_context_key_find(key);

		if (!k || k->when == RB_FORMERLY)
			throw std::logic_error("context key '" + key + "' has no row in bench/context-keys.cc");
		keys_[key] = value;
	}
	void label(const std::string &key, const std::string &value) { labels_.emplace_back(key, value); }
	std::string get(const std::string &key) const
	{
		auto it = keys_.find(key);
		return it == keys_.end() ? "" : it->second;
	}
	const std::map<std::string, std::string> &all() const { return keys_; }
	const std::vector<std::pair<std::string, std::string>> &labels() const { return labels_; }

private:
	std::map<std::string, std::string> keys_;	// in key order, as Google Benchmark keeps its own
	std::vector<std::pair<std::string, std::string>> labels_;	// in the order given
};

#endif
