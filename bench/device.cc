// device.cc: the device behind a hardware target: the first read, and the checks between benchmarks that it still answers
#include <cstdio>

#include "context.h"
#include "device.h"
#include "kernels.h"

namespace {

struct RegisterRead {
	const iomap_target *t;
	unsigned int bytes;
	uint64_t value;
};

uint64_t read_register(const rb_kernel_arg *a, uint64_t iters)
{
	auto *r = static_cast<RegisterRead *>(a->mem);

	(void)iters;
	r->value = iomap_target_read(r->t, r->t->reg_off, r->bytes);
	return 0;
}

}  // namespace

rb_device::rb_device(const iomap_target *t, const rb_clock *clk, rb_context *context)
	: t_(t), clk_(clk), context_(context)
{
}

// One guarded read of the register, bytes wide: 0, or -1 with the fault in *why.
int rb_device::read(unsigned int bytes, uint64_t *value, std::string *why) const
{
	RegisterRead r = {t_, bytes, 0};
	rb_kernel_arg a = {t_->base, &r, 0, 0, 0, clk_->timer, 0, 0};
	rb_span span;
	char fault[160];

	if (rb_guarded_run(read_register, &a, 1, clk_, &span, fault, sizeof(fault))) {
		*why = fault;
		return -1;
	}
	*value = r.value;
	return 0;
}

// After an all-ones first read: the allowed narrower widths whose reads answer, as widths= takes them
// ("8+16"), and what the widest one read in *read; "" when none does.
std::string rb_device::narrower_answers(std::string *read_text) const
{
	std::string widths, fault;
	uint64_t v;
	char hex[24];

	for (unsigned int bytes = 1; bytes < bytes_; bytes *= 2)
		if (iomap_target_allows_width(t_, bytes) && !read(bytes, &v, &fault) && !all_ones(v, bytes)) {
			widths += (widths.empty() ? "" : "+") + std::to_string(bytes * 8);
			snprintf(hex, sizeof(hex), "0x%0*llx", (int)bytes * 2, (unsigned long long)v);
			*read_text = (bytes == 1 ? "an 8" : "a " + std::to_string(bytes * 8)) + "-bit read returned " + hex;
		}
	return widths;
}

std::string rb_device::not_responding()
{
	if (state_ == 0) {
		uint64_t value = 0;
		std::string fault;
		char hex[24];

		while (bytes_ > 1 && (!iomap_target_allows_width(t_, bytes_) || bytes_ > t_->len))
			bytes_ /= 2;
		if (read(bytes_, &value, &fault)) {
			why_ = "the first read faulted: " + fault;
			state_ = 2;
			return why_;
		}
		snprintf(hex, sizeof(hex), "0x%0*llx", (int)bytes_ * 2, (unsigned long long)value);
		context_->set("target_first_read", hex);
		state_ = all_ones(value, bytes_) ? 2 : 1;
		if (state_ == 2) {
			std::string narrow, widths = narrower_answers(&narrow);

			why_ = "device not responding: the first " + std::to_string(bytes_ * 8) +
			       "-bit read returned all-ones" +
			       (widths.empty() ? " (is it present, powered and decoding?)"
					       : ", but " + narrow + " (does the register take only narrower accesses? give "
						 "the target widths=" + widths + ")");
		}
	}
	return state_ == 2 ? why_ : "";
}

// Why the device no longer answers, or "": its decoding switched off, or its register (once it
// answered) reading all-ones or faulting.
std::string rb_device::gone() const
{
	char why[300];
	uint64_t value;
	std::string fault;

	if (iomap_target_decoding(t_, why, sizeof(why)))
		return why;
	if (state_ != 1)
		return "";
	if (read(bytes_, &value, &fault))
		return "a read of its register faulted: " + fault;
	if (all_ones(value, bytes_))
		return "its register reads all-ones (" + std::to_string(bytes_ * 8) + "-bit) where it first read a value";
	return "";
}

// The device stopped answering: the benchmark fails, the rest are not run.
std::string rb_device::stopped(const std::string &why)
{
	lost_ = why;
	context_->set("target_lost", why);
	return "the device stopped answering: " + why;
}

std::string rb_device::before(bool reads)
{
	if (!t_->hardware)
		return "";
	std::string gone_now = checked_ ? "" : gone();
	if (!gone_now.empty())
		return stopped(gone_now);
	return reads ? not_responding() : "";
}

std::string rb_device::after(bool ended_well)
{
	std::string gone_now;

	checked_ = false;
	if (!t_->hardware || !ended_well)
		return "";
	// a device that stopped during the benchmark makes its figures meaningless
	if (!(gone_now = gone()).empty())
		return stopped(gone_now);
	checked_ = true;
	return "";
}
