#!/bin/sh
# timer-check.sh: the timer is chosen once, never per reading: in the program as compiled, every function that reads the counter has a copy for each stop sequence, and no sampled kernel (lat/, flush/) branches between a start and its stop
#
# usage: timer-check.sh REGBENCH-PROGRAM
#
# A reading is classified by its instructions (bench/arch/ARCH/timer.h).
# x86-64: a start is lfence;rdtsc not followed by lfence; a stop is rdtscp,
# or rdtsc between two lfences; each function has as many stops of one kind
# as of the other.  arm64 (one timer): a start is isb;mrs cntvct_el0 not
# after dsb ld, a stop dsb ld;isb;mrs cntvct_el0.  On both, a sampled kernel
# has one start and one stop per timer and no branch between them (calls,
# and arm64's never-taken branch to itself in readl, are not choices).
set -u

prog=${1:?usage: timer-check.sh REGBENCH-PROGRAM}

# the ELF machine (bytes 18-19): 0x3e x86-64, 0xb7 AArch64
machine=$(od -An -tx1 -j18 -N2 "$prog" | tr -d ' \n')
case $machine in
3e00) arch=x86_64 objdump=objdump ;;
b700) arch=arm64 objdump=aarch64-linux-gnu-objdump
	command -v $objdump >/dev/null 2>&1 || objdump=objdump ;;
*) echo "timer-check: $prog: not an x86-64 or arm64 program (ELF machine $machine)"; exit 1 ;;
esac
if ! command -v $objdump >/dev/null 2>&1; then
	echo "timer-check: $objdump is not installed (Debian: apt-get install binutils, or binutils-aarch64-linux-gnu)"
	exit 1
fi
$objdump -d --no-show-raw-insn "$prog" | awk -v arch=$arch '
function flush_fn() {
	if (fn == "" || starts + stops_a + stops_b == 0)
		return
	functions++
	if (arch == "x86_64" && stops_a != stops_b) {
		printf "FAIL: %s: %d lfence;rdtsc;lfence stops but %d rdtscp;lfence stops (one copy per timer)\n",
			fn, stops_a, stops_b
		bad++
	}
	if (fn ~ /^(lat|flush)_/) {
		sampled++
		timers = arch == "x86_64" ? 2 : 1
		if (starts != timers || stops_a != 1 || stops_b != timers - 1) {
			printf "FAIL: %s: %d starts, %d + %d stops (a sampled kernel has one pair per timer)\n",
				fn, starts, stops_a, stops_b
			bad++
		}
		if (branched) {
			printf "FAIL: %s: a branch between a start and its stop (%s)\n", fn, branched
			bad++
		}
	}
}
/^[0-9a-f]+ <.*>:$/ {
	flush_fn()
	fn = $2; gsub(/[<>:]/, "", fn)
	starts = stops_a = stops_b = 0; branched = ""; inside = 0; n = 0
	next
}
/^ +[0-9a-f]+:\t/ {
	insn = $2
	n++; op[n] = insn; arg[n] = $3
	if (arch == "x86_64") {
		if (insn == "rdtscp") { stops_b++; inside = 0 }
		if (n >= 2 && op[n - 1] == "rdtsc" && op[n - 2] == "lfence") {
			# the rdtsc before this instruction: a stop when this is lfence, else a start
			if (insn == "lfence") { stops_a++; inside = 0 }
			else { starts++; inside = 1 }
		}
		if (inside && insn ~ /^j/ && !branched)
			branched = $0
	} else {
		if (insn == "mrs" && $0 ~ /cntvct_el0/ && n >= 2 && op[n - 1] == "isb") {
			if (n >= 3 && op[n - 2] == "dsb" && arg[n - 2] == "ld") { stops_a++; inside = 0 }
			else { starts++; inside = 1 }
		}
		# a branch to itself is the never-taken cbnz of readl (the fake dependency of __io_ar), not a
		# choice; calls are not branches here, as on x86 (a region access is a call)
		addr = $1; sub(/:$/, "", addr)
		if (inside && insn ~ /^(b|b\..*|br|cbz|cbnz|tbz|tbnz)$/ && $0 !~ ("[ ,]" addr " <") && !branched)
			branched = $0
	}
}
END {
	flush_fn()
	if (!sampled) { print "FAIL: no sampled kernel (lat_*, flush_*) found in the program"; bad++ }
	printf "%s: %d functions read the counter, %d of them sampled kernels\n", bad ? "FAIL" : "ok", functions, sampled
	exit bad != 0
}'
