#!/bin/sh
# header.sh: a one-benchmark run says what matters on stderr in at most 10 lines: header, notes, the count; never Google Benchmark's context
#
# usage: header.sh REGBENCH
set -u
regbench=$1
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
fail=0

"$regbench" --benchmark_filter='^barrier/mfence$' --benchmark_min_time=0.001 --benchmark_repetitions=1 \
	>/dev/null 2>"$err" || { echo "FAIL: regbench exited non-zero:"; sed 's/^/  /' "$err"; exit 1; }
n=$(wc -l <"$err")
if [ "$n" -le 10 ]; then echo "ok: one benchmark: $n lines on stderr"
else echo "FAIL: one benchmark: $n lines on stderr:"; sed 's/^/  /' "$err"; fail=1; fi
for want in '^regbench on .*, CPU [0-9]+ of [0-9]+' '^  target ram: ' '^  timer  .*: (TSC|generic counter) at [0-9.]+ GHz' \
	    '^regbench: 1 benchmark in [0-9]+:[0-9]{2}$'; do
	if grep -qE "$want" "$err"; then echo "ok: stderr has /$want/"
	else echo "FAIL: stderr lacks /$want/:"; sed 's/^/  /' "$err"; fail=1; fi
done
if grep -qE '\*\*\*WARNING\*\*\*|^Run on |^CPU Caches:|^Load Average:' "$err"; then
	echo "FAIL: Google Benchmark's context is on stderr:"; sed 's/^/  /' "$err"; fail=1
else
	echo "ok: none of Google Benchmark's context on stderr"
fi
exit $fail
