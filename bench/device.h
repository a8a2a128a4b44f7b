// device.h: the device behind a hardware target, watched between benchmarks: it answers, or the run stops
#ifndef REGBENCH_DEVICE_H
#define REGBENCH_DEVICE_H

#include <string>

#include "clock.h"
#include "iomap/target.h"

class rb_context;

/*
 * One that is absent or not decoding reads as all-ones.  The first
 * benchmark that reads makes one guarded read of the target's register, of
 * the widest allowed width up to 32 bits: its value goes into the context
 * (target_first_read), and all-ones there fails every reading benchmark;
 * narrower reads then tell a register that answers only them (ne2k's,
 * pcnet's), whose widths the reason names.  Nothing is read before a
 * benchmark asks to read.  Before the first
 * benchmark and after each one the device must still answer (nothing
 * touches it in between; a benchmark that failed is checked again before
 * the next): still decoding its space and, once it has been read, its
 * register not all-ones; when it stops (target_lost), the run stops.  A
 * target that is no device (ram, trap) always answers.
 */
class rb_device {
public:
	rb_device(const iomap_target *t, const rb_clock *clk, rb_context *context);

	// Before a benchmark that reads (or not): why it fails for the device, or "".
	std::string before(bool reads);
	// After a benchmark: when it ended well, whether the device still answers ("" or why it fails).
	std::string after(bool ended_well);
	// Why the device stopped answering during the run, or "" while it answers.
	const std::string &lost() const { return lost_; }

private:
	const iomap_target *t_;
	const rb_clock *clk_;
	rb_context *context_;
	int state_ = 0;			// 0 not read yet, 1 answers, 2 did not answer at the first read
	unsigned int bytes_ = 4;	// the width of those reads
	std::string why_;		// state 2: why not
	std::string lost_;
	bool checked_ = false;		// it answered after the last benchmark, which ended well

	int read(unsigned int bytes, uint64_t *value, std::string *why) const;
	static bool all_ones(uint64_t v, unsigned int bytes) { return v == ~0ull >> (64 - 8 * bytes); }
	std::string narrower_answers(std::string *read_text) const;
	std::string gone() const;
	std::string not_responding();
	std::string stopped(const std::string &why);
};

#endif
