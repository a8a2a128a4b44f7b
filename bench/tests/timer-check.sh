#!/bin/sh
# timer-check.sh: the timer is chosen once, never per reading: in the program as compiled, every function that reads the TSC has a copy for each stop sequence, and no sampled kernel (lat/, flush/) branches between a start and its stop
#
# usage: timer-check.sh REGBENCH-PROGRAM
#
# A reading is classified by its instructions (clock.h): a start is lfence;
# rdtsc not followed by lfence; a stop is rdtscp, or rdtsc between two
# lfences.
set -u

prog=${1:?usage: timer-check.sh REGBENCH-PROGRAM}

if ! command -v objdump >/dev/null 2>&1; then
	echo "timer-check: objdump is not installed (Debian: apt-get install binutils)"
	exit 1
fi
objdump -d --no-show-raw-insn "$prog" | awk '
function flush_fn() {
	if (fn == "" || starts + stops_lfence + stops_rdtscp == 0)
		return
	functions++
	if (stops_lfence != stops_rdtscp) {
		printf "FAIL: %s: %d lfence;rdtsc;lfence stops but %d rdtscp;lfence stops (one copy per timer)\n",
			fn, stops_lfence, stops_rdtscp
		bad++
	}
	if (fn ~ /^(lat|flush)_/) {
		sampled++
		if (starts != 2 || stops_lfence != 1 || stops_rdtscp != 1) {
			printf "FAIL: %s: %d starts, %d + %d stops (a sampled kernel has one pair per timer)\n",
				fn, starts, stops_lfence, stops_rdtscp
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
	starts = stops_lfence = stops_rdtscp = 0; branched = ""; inside = 0; n = 0
	next
}
/^ +[0-9a-f]+:\t/ {
	insn = $2
	n++; op[n] = insn
	if (insn == "rdtscp") { stops_rdtscp++; inside = 0 }
	if (n >= 2 && op[n - 1] == "rdtsc" && op[n - 2] == "lfence") {
		# the rdtsc before this instruction: a stop when this is lfence, else a start
		if (insn == "lfence") { stops_lfence++; inside = 0 }
		else { starts++; inside = 1 }
	}
	if (inside && insn ~ /^j/ && !branched)
		branched = $0
}
END {
	flush_fn()
	if (!sampled) { print "FAIL: no sampled kernel (lat_*, flush_*) found in the program"; bad++ }
	printf "%s: %d functions read the TSC, %d of them sampled kernels\n", bad ? "FAIL" : "ok", functions, sampled
	exit bad != 0
}'
