// families.cc: registration: every kernel of the table on this target, named, checked, and registered to run or skip
#include <algorithm>
#include <cstring>
#include <string>

#include "families.h"
#include "inkernel.h"
#include "iomap/strategy.h"
#include "measure.h"
#include "session.h"

namespace {

// Where a kernel works in the target: the offset its family's place has in the target's window.
size_t offset(const rb_kernel &k, const iomap_target &t)
{
	switch (k.family->where) {
	case RB_AT_COPY: return t.copy_off;
	case RB_AT_FIFO: return t.fifo_off;
	case RB_AT_REG: return t.reg_off;
	default: return 0;
	}
}

// The window a kernel of either space works in: the target's own, or its port window beside MMIO; NULL where
// nothing is mapped in this process (kernel:, whose module works at the offset alone).
void __iomem *window(const rb_kernel &k, const iomap_target &t)
{
	char __iomem *w = static_cast<char __iomem *>(k.space == t.space ? t.base : t.port);

	return w ? w + offset(k, t) : nullptr;
}

// Where a copy starts, for its alignment: its address here, or where nothing is mapped here its offset in the BAR.
uintptr_t copy_address(const rb_kernel &k, const iomap_target &t)
{
	void __iomem *w = window(k, t);

	return w ? (uintptr_t)(void __force *)w : t.off + offset(k, t);
}

// A kernel: target runs its benchmarks in the kernel, through the regbench module.
bool in_kernel(const iomap_target &t)
{
	return iomap_target_kernel_fd(&t) >= 0;
}

std::string name_of(const rb_kernel &k, size_t n, const std::string &strategy)
{
	std::string name = std::string(k.family->name) + "/" + k.op;

	if (k.bits)
		name += std::to_string(k.bits);
	if (!strategy.empty())
		name += "/" + strategy;
	if (n)
		name += "/" + std::to_string(n);
	return name;
}

const iomap_strategy *strategy_of(const rb_kernel &k)
{
	return k.row == RB_ACCESSOR ? iomap_strategy_find_id(k.strategy) : nullptr;
}

bool wanted(const rb_options &o, const rb_kernel &k)
{
	// only the accessor strategies are filtered: the families' own rows and the reference stay
	return o.strategies.empty() || k.row != RB_ACCESSOR ||
	       std::find(o.strategies.begin(), o.strategies.end(), rb_kernel_strategy(&k)) != o.strategies.end();
}

// Whether strategy s has the MMIO form family f needs.
bool has_mmio_form(const iomap_strategy *s, const rb_family &f)
{
	switch (f.where) {
	case RB_AT_FIFO: return s->mmio_rep;
	case RB_AT_COPY: return s->copy;
	default: return s->single;
	}
}

// Why strategy s's port forms cannot run in target t's port window: they write another port
// besides the register (x86's I/O delay writes 0x80), which must lie in the window and be writable.
std::string why_no_delay_port(const iomap_strategy *s, const iomap_target &t)
{
	bool own = t.space == IOMAP_SPACE_PIO;
	void __iomem *w = own ? t.base : t.port;
	size_t len = own ? t.len : t.port_len;
	unsigned int base = w ? iomap_cookie_port(w) : 0;
	char port[16];

	if (!s || !s->delay_port || !w)
		return "";
	snprintf(port, sizeof(port), "0x%x", s->delay_port);
	if (s->delay_port < base || s->delay_port - base >= len)
		return std::string("its I/O delay writes port ") + port + ", which is outside the target's ports";
	if (own && !iomap_target_may_write(&t, s->delay_port - base, 1))
		return std::string("its I/O delay writes port ") + port + ", outside the --allow-write window";
	return "";
}

// Why a kernel of MMIO space has no form on a port target.
std::string why_no_port(const rb_kernel &k)
{
	const iomap_strategy *s = strategy_of(k);

	if (k.family->where == RB_AT_COPY)
		return "copies move ranges of memory; a port target has none (rep moves a port FIFO)";
	if (k.bits == 64)
		return "x86 has no 64-bit port I/O instruction";
	if (s && *s->lacks)
		return s->lacks;
	return "needs an MMIO target";
}

// Why a kernel of MMIO or port space has no form on a region target (vfio: I/O BARs, ,pread): through
// a region every access is a pread/pwrite system call, built for the single accesses of the strategies
// with port forms.
std::string why_no_region(const rb_kernel &k)
{
	switch (k.family->where) {
	case RB_AT_COPY:
		return "copies need a mapped window; through a region every access is a pread/pwrite system call "
		       "(vfio: maps a memory BAR unless ,pread is given)";
	case RB_AT_FIFO:
		return "vfio-pci has no call that repeats one register: through a region _rep would be a loop of "
		       "pread/pwrite calls, which thrpt measures per access";
	default:
		break;
	}
	if (k.row != RB_ACCESSOR)
		return "it reads through a mapping or a port cookie; a region is reached with pread/pwrite only";
	return "through a region every access is a pread/pwrite system call: only the strategies with port forms "
	       "(an access under an ordering) have region forms";
}

std::string hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return buf;
}

// A set of widths (a sum of byte counts, as strategies.h has them) as a spec writes it: "8+16+32".
std::string bits(unsigned int set)
{
	std::string out;

	for (unsigned int b = 1; b <= 8; b *= 2)
		if (set & b)
			out += (out.empty() ? "" : "+") + std::to_string(b * 8);
	return out;
}

// The widths target t allows, as a set.
unsigned int allowed(const iomap_target &t)
{
	unsigned int set = 0;

	for (unsigned int b = 1; b <= 8; b *= 2)
		set |= iomap_target_allows_width(&t, b) ? b : 0;
	return set;
}

// Why a writing kernel may not touch bytes [off, off + n) of the window, or "".
std::string why_no_write(const iomap_target &t, uint64_t off, uint64_t n)
{
	if (iomap_target_may_write(&t, off, n))
		return "";
	if (!t.hardware || !t.permit.write_len)
		return "the target is read-only (writes need --allow-write=OFF+LEN)";
	return "it writes bytes " + hex(t.off + off) + "+" + std::to_string(n) + ", outside the --allow-write window " +
	       hex(t.permit.write_off) + "+" + std::to_string(t.permit.write_len);
}

// Why kernel k cannot run on target t with n elements or bytes, or "" when it can.
// Kernels touch only [0, bytes) of their place (one register) or [0, n) (copies).
std::string why_not(const rb_kernel &k, const iomap_target &t, size_t n)
{
	const iomap_strategy *s = strategy_of(k);
	const rb_family &f = *k.family;
	bool copy = f.where == RB_AT_COPY;
	size_t off = offset(k, t);
	// an accessor's copies issue what its strategy's do
	unsigned int widths = copy && s ? s->copy_widths & IOMAP_WIDTHS_ALL : k.widths;
	iomap_insn insn = copy && s ? s->copy_element > 8 ? IOMAP_INSN_VECTOR : IOMAP_INSN_MOV : k.insn;
	unsigned int insn_bytes = copy && s ? s->copy_element : k.insn_bytes;

	if (k.lacks)
		return k.lacks;
	if (f.where != RB_AT_NOTHING && k.space != t.space && !(k.space == IOMAP_SPACE_PIO && t.port)) {
		if (t.space == IOMAP_SPACE_REGION)
			return why_no_region(k);
		if (k.space == IOMAP_SPACE_REGION)
			return "needs a region target (vfio: with an I/O BAR, or ,pread)";
		if (k.space == IOMAP_SPACE_MMIO)
			return why_no_port(k);
		if (s && !has_mmio_form(s, f))
			return s->lacks;
		return "needs a port-I/O target (port: or a pci I/O BAR)";
	}
	if (in_kernel(t) && rb_inkernel_line(&k) < 0)
		return s && s->absent ? s->absent
				      : std::string("the kernel has no accessor that issues it: the regbench module times "
						    "the kernel's own (bench/kmod/include/uapi/regbench-benchmarks.h lists "
						    "them)") + (s ? std::string(", and ") + s->name + " is libiomap's" : "");
	if (s && iomap_strategy_cpu_missing(s))
		return iomap_strategy_cpu_missing(s);
	if (f.where == RB_AT_NOTHING)
		return "";
	if (const char *refused = iomap_target_why_not(&t, insn, insn_bytes))
		return std::string("the target cannot take these accesses: ") + refused;
	if (copy && (widths & ~allowed(t)))
		return "its copies issue " + bits(widths) + "-bit accesses; the target allows only " + bits(allowed(t)) +
		       "-bit";
	if (!copy && (widths & ~allowed(t)))
		return "the target allows only " + bits(allowed(t)) + "-bit accesses (widths= in its spec)";
	if (!why_no_delay_port(s, t).empty())
		return why_no_delay_port(s, t);
	if (copy && s && s->copy_words && n % s->copy_element)
		return "it copies whole " + std::to_string(s->copy_element) + "-byte words: " + std::to_string(n) +
		       " bytes is not a multiple of " + std::to_string(s->copy_element);
	if (copy && s && s->copy_words && copy_address(k, t) % s->copy_element)
		return "it copies whole " + std::to_string(s->copy_element) + "-byte words to an aligned device address; "
		       "the copy window is not aligned to " + std::to_string(s->copy_element) + " bytes";
	if (copy && n > t.copy_len)
		return std::to_string(n) + " bytes do not fit the target's " + std::to_string(t.copy_len) +
		       "-byte copy window";
	if (!copy && k.bytes > (k.space == t.space ? t.len : t.port_len) - off)
		return "the target is narrower than the access";
	if (k.writes)
		return why_no_write(t, off, copy ? n : k.bytes);
	return "";
}

// Kernels of several spaces share names (thrpt/read32/relaxed): register one per name, the one of
// the target's own space, so that a port or region target runs its forms under the names the MMIO
// ones have; where the target's space has none, the first in the table (skipped with its reason).
bool shadowed(const rb_kernel &k, const iomap_target &t)
{
	if (k.space == t.space)
		return false;
	for (size_t i = 0; i < rb_nr_kernels; i++) {
		const rb_kernel &o = rb_kernels[i];
		if (&o != &k && o.family == k.family && !strcmp(o.op, k.op) && o.bits == k.bits &&
		    !strcmp(o.strategy, k.strategy) && (o.space == t.space || &o < &k))
			return true;
	}
	return false;
}

// For a port kernel run beside MMIO (the trap target's port window): the MMIO benchmark it compares with.
std::string pair_of(const rb_kernel &k, const iomap_target &t, size_t n)
{
	if (k.space != IOMAP_SPACE_PIO || t.space != IOMAP_SPACE_MMIO || !t.port)
		return "";
	return name_of(k, n, k.pair ? k.pair : iomap_strategy_kernel_single()->name);
}

void add(rb_session &s, const rb_kernel &k, size_t n)
{
	const iomap_target &t = s.target;
	rb_result r;

	r.name = name_of(k, n, rb_kernel_strategy(&k));
	r.kernel = &k;
	r.strategy = rb_kernel_strategy(&k);
	r.param = n;
	r.pair = pair_of(k, t, n);
	r.io = window(k, t);
	r.off = offset(k, t);
	r.line = in_kernel(t) ? rb_inkernel_line(&k) : -1;
	r.selected = s.command.benchmark.filter.selects(r.name);
	std::string why = why_not(k, t, n);
	if (!why.empty())
		r.skip(why);
	rb_result *rec = &s.registry.add(r);
	if (!r.selected)
		return;
	if (!why.empty()) {
		benchmark::RegisterBenchmark(rec->name.c_str(), [&s, rec](benchmark::State &st) { rb_skip(st, s, *rec); });
		return;
	}
	// the runner sets each repetition's time: the cost per unit
	benchmark::RegisterBenchmark(rec->name.c_str(), [&s, rec](benchmark::State &st) { rb_run(st, s, *rec); })
		->UseManualTime();
}

// A size as --sizes and a ram: spec write it: in the largest of k, m, g and t that divides it (4194304: 4m,
// 1536k, 13), so that a hint names exactly the size it means.
std::string spec_size(uint64_t n)
{
	int unit = 0;

	while (unit < 4 && n && !(n % (1ull << (10 * (unit + 1)))))
		unit++;
	return std::to_string(n >> (10 * unit)) + (unit ? std::string(1, "kmgt"[unit - 1]) : "");
}

}  // namespace

std::vector<size_t> rb_sweep(const rb_family &f, const rb_options &o)
{
	const std::vector<size_t> &given = f.param == RB_PARAM_SIZE ? o.sizes : o.counts;
	std::vector<size_t> out = given;

	if (given.empty())
		for (const size_t *n = o.quick ? f.quick : f.sweep; *n; n++)
			out.push_back(*n);
	return out;
}

std::string rb_check_sweeps(const iomap_target &t, const rb_options &o)
{
	size_t largest = o.sizes.empty() ? 0 : *std::max_element(o.sizes.begin(), o.sizes.end());

	if (largest && (t.space != IOMAP_SPACE_MMIO || !t.copy_len))
		return std::string("--sizes: target '") + t.spec + "' has no copy window (a port target moves no ranges) "
		       "(drop --sizes, or name an MMIO target)";
	if (largest > t.copy_len)
		return "--sizes: " + std::to_string(largest) + " bytes do not fit the copy window of target '" + t.spec +
		       "', " + std::to_string(t.copy_len) + " bytes (sizes up to " + spec_size(t.copy_len) +
		       ", or a larger target such as ram:" + spec_size(largest) + ")";
	return "";
}

void rb_register_families(rb_session &s)
{
	const rb_options &o = s.command.options;

	for (size_t i = 0; i < rb_nr_kernels; i++) {
		const rb_kernel &k = rb_kernels[i];
		const rb_family &f = *k.family;

		if (!wanted(o, k) || shadowed(k, s.target))
			continue;
		if (f.param == RB_PARAM_NONE)
			add(s, k, 0);
		else
			for (size_t n : rb_sweep(f, o))
				add(s, k, n);
	}
}
