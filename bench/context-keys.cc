// context-keys.cc: every key of the result file's context, once: its owner, its type and what it means; the schema's context part is made from it
#include <nlohmann/json.hpp>

#include "context.h"

namespace {

/*
 * The types a key's value takes, as JSON Schema.  Google Benchmark's custom
 * context holds only text, so regbench writes numbers as decimal text; the
 * schema still checks that the text is a number ("fast" is refused where a
 * frequency belongs).  A pattern's title says in words what it takes, for
 * the reader's error line.
 */
const char *const kText = R"({"type": "string"})";
const char *const kDecimal = R"({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$", "title": "a number as decimal text"})";
const char *const kDecimalOrEmpty =
	R"({"type": "string", "pattern": "^(-?[0-9]+(\\.[0-9]+)?)?$", "title": "a number as decimal text, or nothing"})";
const char *const kInteger = R"({"type": "integer"})";

const char *const kGoogleBenchmark = "Google Benchmark";
const char *const kLegacyLabel = "--benchmark_context of regbench 0.1.0, which wrote labels at the top level";

}  // namespace

const rb_context_key rb_context_keys[] = {
	// Google Benchmark's own, in the order its JSONReporter writes them (contract.cc writes them the same way)
	{"date", kGoogleBenchmark, kText, RB_ALWAYS, "When the run started (ISO 8601 with the offset)."},
	{"host_name", kGoogleBenchmark, kText, RB_ALWAYS, "The machine's host name."},
	{"executable", kGoogleBenchmark, kText, RB_ALWAYS, "argv[0] of the regbench that ran."},
	{"num_cpus", kGoogleBenchmark, kInteger, RB_ALWAYS, "Online CPUs."},
	{"mhz_per_cpu", kGoogleBenchmark, kInteger, RB_ALWAYS,
	 "The CPU clock Google Benchmark read, in MHz: not the core clock regbench measures (core_hz_estimate)."},
	{"cpu_scaling_enabled", kGoogleBenchmark, R"({"type": "boolean"})", RB_ALWAYS, "Google Benchmark's check for frequency scaling."},
	{"caches", kGoogleBenchmark,
	 R"({"type": "array", "items": {"type": "object", "properties": {
		"type": {"type": "string", "description": "Data, Instruction or Unified."},
		"level": {"type": "integer", "description": "1 for L1, and so on."},
		"size": {"type": "integer", "description": "Bytes."},
		"num_sharing": {"type": "integer", "description": "How many CPUs share it."}}}})",
	 RB_ALWAYS, "The CPU's caches as Google Benchmark reads them (empty where sysfs does not say)."},
	{"load_avg", kGoogleBenchmark, R"({"type": "array", "items": {"type": "number"}})", RB_ALWAYS,
	 "The 1, 5 and 15 minute load averages at the start."},
	{"library_build_type", kGoogleBenchmark, R"({"enum": ["debug", "release"]})", RB_ALWAYS,
	 "How the Google Benchmark library was built (Debian's is a debug build; regbench's timing does not use its loop)."},
	{"json_schema_version", kGoogleBenchmark, kInteger, RB_SOMETIMES,
	 "The version of Google Benchmark's own layout (Google Benchmark 1.8 and later)."},

	// what was run, and by which regbench
	{"regbench_version", "the build (CMakeLists.txt's project version)", kText, RB_ALWAYS, "regbench's version."},
	{"regbench_commit", "the build (git describe of the source tree)", kText, RB_ALWAYS,
	 "The source regbench was built from: git describe --always --dirty at build time, unknown outside a git checkout."},
	{"regbench_build_type", "the build", kText, RB_ALWAYS, "regbench's CMake build type (Release, Debug, ...)."},
	{"arch", "the build (the compiler's target)", R"({"enum": ["x86_64", "aarch64"]})", RB_ALWAYS,
	 "The architecture regbench was built for, as uname -m names it."},
	{"command_line", "flags.cc", kText, RB_ALWAYS, "regbench's command line, as typed."},
	{"labels", "flags-benchmark.cc (--benchmark_context)",
	 R"({"type": "object", "propertyNames": {"pattern": "^[^,=]+$"}, "additionalProperties": {"type": "string"},
	    "title": "KEY: text pairs"})",
	 RB_ALWAYS,
	 "The --benchmark_context KEY=VALUE pairs, in the order given: labels a user or a tool puts on the run (scripts/guest's "
	 "accelerator, the fleet's host, baseline=yes); a key of this context cannot be one."},

	// the target (iomap's description of what is open)
	{"target", "iomap (the target)", kText, RB_ALWAYS, "The target spec as given to --target (ram by default)."},
	{"target_kind", "iomap (the target)", R"({"enum": ["mmio", "pio", "region"]})", RB_ALWAYS,
	 "Where accesses go: memory-mapped (mmio), port I/O (pio), or a device file's region reached by pread/pwrite (region)."},
	{"target_mapping", "iomap (the target)", R"({"enum": ["wb", "uc", "wc", "trap", "port", "pread"]})", RB_ALWAYS,
	 "How the window is mapped: write-back, uncached, write-combining, trapped and emulated, port I/O, or pread/pwrite of a "
	 "vfio region."},
	{"target_what", "iomap (the target)", kText, RB_ALWAYS,
	 "What the target is, in a line (for a PCI BAR: the device, the BAR, its size)."},
	{"target_device", "iomap (the target)", kText, RB_ALWAYS, "The PCI device (slot and ids), empty for other targets."},
	{"target_bar", "iomap (the target)", kDecimalOrEmpty, RB_ALWAYS,
	 "The BAR index as decimal text, empty for targets without one."},
	{"target_len", "iomap (the target)", kDecimal, RB_ALWAYS, "The window's length in bytes, decimal text."},
	{"target_iommu", "iomap (the target)", R"({"enum": ["", "type1", "noiommu"]})", RB_ALWAYS,
	 "For vfio: targets, the IOMMU of the container: type1, or noiommu (vfio's no-IOMMU mode: no DMA isolation); empty "
	 "for others."},
	{"runs_in", "main.cc (the target)", R"({"enum": ["user", "kernel"]})", RB_ALWAYS,
	 "Where the timed code ran: in regbench's process (user: libiomap's accessors) or in the kernel (kernel: targets: the "
	 "kernel's own accessors, run by the regbench module, bench/kmod)."},
	{"kmod_version", "inkernel.c (the regbench module)", kText, RB_SOMETIMES,
	 "kernel: targets: the regbench version the loaded module was built from."},
	{"kmod_kernel", "inkernel.c (the regbench module)", kText, RB_SOMETIMES,
	 "kernel: targets: the kernel release the loaded module was built for (uname -r of that kernel)."},
	{"target_first_read", "device.cc", kText, RB_SOMETIMES,
	 "A hardware target's first value read, in hex at the width it was read (written once a benchmark read it)."},
	{"target_lost", "device.cc", kText, RB_SOMETIMES,
	 "Why the device stopped answering during the run (written only then; the benchmarks after it are not run)."},

	// the clocks
	{"timer_counter", "clock.c", R"({"enum": ["TSC", "generic counter"]})", RB_ALWAYS,
	 "The counter the timer reads, whose ticks the cycles counter counts: TSC (x86-64's time-stamp counter) or generic "
	 "counter (arm64's cntvct_el0, timer ticks in a report); files of regbench versions before it are x86-64's TSC "
	 "unless arch says aarch64."},
	{"tsc_hz", "clock.c", kDecimal, RB_ALWAYS,
	 "The frequency in Hz of the counter the timer reads (timer_counter; the key keeps x86's name), decimal text."},
	{"tsc_hz_source", "clock.c", kText, RB_ALWAYS,
	 "How tsc_hz was obtained: the kernel, CPUID 0x15, the hypervisor leaf, cntfrq_el0 (arm64), or calibration."},
	{"invariant_tsc", "clock.c", R"({"enum": ["true", "false"]})", RB_ALWAYS,
	 "Whether the counter ticks at a fixed rate in every power state (x86-64: CPUID 0x80000007 EDX[8]; arm64's "
	 "generic counter always does)."},
	{"core_hz_estimate", "measure.cc", kDecimal, RB_ALWAYS,
	 "The core clock in Hz, decimal text: the median of the dependent-add control beside the repetitions."},
	{"core_hz_source", "measure.cc", kText, RB_ALWAYS, "How core_hz_estimate was obtained."},
	{"core_cycles_source", "clock.c", kText, RB_ALWAYS,
	 "How the core_cycles counter is obtained: counted by a hardware counter, or estimated from the timer and the core "
	 "clock; the text starts with counted or estimated."},
	{"timer", "clock.c", kText, RB_ALWAYS,
	 "The serialized start and stop sequences of the counter's read, chosen once at start-up (x86-64: from CPUID), as "
	 "START .. STOP (clock.c owns the text; the docs quote it)."},
	{"timer_overhead_cycles", "clock.c", kDecimal, RB_ALWAYS,
	 "The median timer ticks of an empty start/stop pair, measured at start-up, decimal text."},
	{"timer_resolution_cycles", "clock.c", kDecimal, RB_ALWAYS,
	 "The step the timer's readings move in, in timer ticks, decimal text: lat/ and flush/ dither each sample's start "
	 "against it, so their figures go below one step (docs/METHOD.md)."},
	{"counters", "measure.cc", kText, RB_ALWAYS, "What each counter of the benchmarks entries holds (the docs quote it)."},

	// the machine
	{"machine_id", "identity.c", R"({"type": "string", "pattern": "^([0-9a-f]{32})?$", "title": "32 hex digits, or nothing"})", RB_ALWAYS,
	 "The machine, stably and without its identifiers: the first 128 bits of a SHA-256 over /etc/machine-id and the DMI "
	 "product UUID (those readable), in hex; empty when neither is readable. The same machine gives the same text across "
	 "runs, host names and regbench versions."},
	{"firmware", "identity.c", kText, RB_ALWAYS,
	 "The firmware, from DMI: BIOS vendor, version and date (/sys/class/dmi/id/bios_*), empty where DMI is not readable."},
	{"microcode", "identity.c", R"({"type": "string", "pattern": "^0x[0-9a-f]+$", "title": "0x and hex digits"})", RB_SOMETIMES,
	 "The CPU's microcode revision as /proc/cpuinfo gives it (x86 only; absent where the kernel does not say)."},
	{"cpu", "main.cc (the CPU pinned to)", kDecimal, RB_ALWAYS, "The CPU the run was pinned to, decimal text."},
	{"cpu_model", "main.cc (/proc/cpuinfo)", kText, RB_ALWAYS, "The CPU's model name (CPUID brand string)."},
	{"cpu_uarch", "published.c", kText, RB_ALWAYS,
	 "The core's microarchitecture from the table of published figures (Zen 5, Ice Lake, ...), empty when the table "
	 "does not know the CPU."},
	{"kernel", "main.cc (uname)", kText, RB_ALWAYS, "The kernel's name and release (uname)."},
	{"topology", "env.c", kText, RB_ALWAYS, "Sockets, cores and threads per core."},
	{"env_governor", "env.c", kText, RB_ALWAYS, "The CPU frequency governor (none where there is no cpufreq)."},
	{"env_boost", "env.c", kText, RB_ALWAYS, "Whether turbo/boost is on: on, off or unknown."},
	{"env_vm", "env.c", kText, RB_ALWAYS,
	 "Whether the run was in a virtual machine: no, or yes with the hypervisor's CPUID signature."},
	{"env_smt_siblings", "env.c", kText, RB_ALWAYS, "The pinned CPU's SMT siblings, empty when it has none."},
	{"env_sibling_busy", "env.c", kDecimalOrEmpty, RB_ALWAYS,
	 "How busy the SMT siblings were at the start, a fraction as decimal text; empty where there is none."},
	{"env_others_busy", "env.c", kDecimalOrEmpty, RB_ALWAYS,
	 "How busy the other CPUs were at the start, a fraction as decimal text; empty on a 1-CPU machine."},
	{"env_loadavg", "env.c", kDecimal, RB_ALWAYS, "The 1-minute load average at the start, decimal text."},
	{"env_warnings", "env.c", kText, RB_ALWAYS, "What will make numbers noisy, '; '-separated (empty when nothing)."},

	// how the run went
	{"disturbed_benchmarks", "result.cc", kDecimal, RB_ALWAYS,
	 "How many benchmarks had a repetition measured while the machine was disturbed, decimal text."},
	{"interrupted", "signals.cc",
	 R"({"enum": ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGPIPE", "SIGXCPU"]})", RB_SOMETIMES,
	 "The signal that stopped the run early (written only then; bench/signals.cc's list): the file holds what was "
	 "measured."},

	// labels regbench 0.1.0 wrote beside its own keys; files of that version still read
	{"accelerator", kLegacyLabel, kText, RB_FORMERLY, "A QEMU guest's accelerator, kvm or tcg (now labels.accelerator)."},
	{"host", kLegacyLabel, kText, RB_FORMERLY, "The fleet's inventory name for the machine (now labels.host)."},
	{"regbench_command", "main.cc of regbench before 0.1.0", kText, RB_FORMERLY, "The command line (now command_line)."},
};

const size_t rb_nr_context_keys = sizeof(rb_context_keys) / sizeof(rb_context_keys[0]);

const rb_context_key *rb_context_key_find(const std::string &name)
{
	for (const rb_context_key &k : rb_context_keys)
		if (name == k.name)
			return &k;
	return nullptr;
}

nlohmann::ordered_json rb_context_schema()
{
	nlohmann::ordered_json properties, always = nlohmann::ordered_json::array();

	for (const rb_context_key &k : rb_context_keys) {
		nlohmann::ordered_json p = nlohmann::ordered_json::parse(k.type);

		p["description"] = k.help;
		p["$comment"] = std::string("set by ") + k.owner;
		properties[k.name] = p;
		if (k.when == RB_ALWAYS)
			always.push_back(k.name);
	}
	return {{"context", {{"description", "Where and how the run was made: every key is declared here (made from "
						"bench/context-keys.cc, with the file that sets it); --benchmark_context's pairs are "
						"labels, kept apart. Numbers regbench sets are decimal text, as Google Benchmark's "
						"custom context holds only text."},
			     {"type", "object"},
			     {"properties", properties},
			     {"additionalProperties", false}}},
		{"written", always}};
}
