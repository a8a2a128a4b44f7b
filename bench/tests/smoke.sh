#!/bin/sh
# smoke.sh: regbench --target TARGET --quick as JSON (TARGET: ram, the default, or trap): every family, the context, sane counters, reasons for skips
set -eu
regbench=$1
target=${2:-ram}
case $target in
ram) mapping=wb ;;
trap) mapping=trap ;;
*) echo "smoke.sh: no expectations for target '$target' (ram or trap)"; exit 2 ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$regbench" --target "$target" --quick --benchmark_out="$out/r.json" --benchmark_out_format=json >"$out/console" 2>&1 ||
	{ cat "$out/console"; echo "FAIL: regbench exited non-zero"; exit 1; }

fail=0
check() {	# check DESCRIPTION JQ-FILTER-THAT-PRINTS-OFFENDERS
	# its: the measured rows; aggregates (mean/median/stddev/cv of repetitions) are Google Benchmark's
	bad=$(jq -r 'def its: .benchmarks[] | select(.run_type == "iteration"); '"$2" "$out/r.json") || { echo "FAIL: $1: jq could not evaluate it (malformed JSON or a missing field)"; exit 1; }
	if [ -n "$bad" ]; then
		echo "FAIL: $1:"; echo "$bad" | sed 's/^/  /' | head -20; fail=1
	else
		echo "ok: $1"
	fi
}

# GB prints a non-finite double as nan/inf, which is not JSON: jq rejects it above.
grep -qiE '"[a-z_0-9]+": *-?(nan|inf)' "$out/r.json" && { echo "FAIL: NaN or Inf in the JSON"; fail=1; }

check "every family is present" '
  ["lat","chain","thrpt","flush","rep","copy","barrier","dispatch"] - [its | .name | split("/")[0]] | .[]'
check "names are family/op+width/strategy[/param]" '
  its | .name | select(test("^(lat|chain|thrpt|flush)/(read|write)(8|16|32|64)/[a-z0-9-]+$|^rep/(read|write)(8|16|32|64)/[a-z0-9-]+/[0-9]+$|^copy/(fromio|toio|set)/[a-z0-9-]+/[0-9]+$|^barrier/[a-z]+$|^dispatch/read32/[a-z-]+$") | not)'
check "the context has every key" '
  ["target","target_kind","target_mapping","target_device","target_bar","tsc_hz","tsc_hz_source","invariant_tsc",
   "core_hz_estimate","cpu","cpu_model","kernel","timer","timer_overhead_cycles","timer_resolution_cycles",
   "regbench_build_type","regbench_version"] - (.context | keys) | .[]'
check "the context describes $target" '
  .context | select(.target != "'"$target"'" or .target_kind != "mmio" or .target_mapping != "'"$mapping"'"
                    or (.tsc_hz | tonumber) < 1e8 or (.timer_overhead_cycles | tonumber) <= 0) | tostring'
check "every result has cycles > 0 and ns > 0, or says it is below resolution" '
  its | select(.error_occurred | not)
  | select(((.cycles // 0) > 0 and (.ns // 0) > 0) or ((.label // "") | startswith("below timer resolution")) | not)
  | .name'
check "no counter is negative" '
  .benchmarks[] | . as $b | ["cycles","core_cycles","ns","bytes_per_second","min","p50","p90","p99","p999","max","outliers"][]
  | select(($b[.] // 0) < 0) | "\($b.name) \(.)"'
check "lat results carry min <= p50 <= p90 <= p99 <= max" '
  its | select(.name | startswith("lat/")) | select(.cycles != null)
  | select((.min <= .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max) | not) | .name'
check "every skipped benchmark carries a reason" '
  its | select(.error_occurred) | select((.error_message // "") | test("^skipped: .{10,}") | not)
  | "\(.name): \(.error_message)"'
check "the copy family has the libc reference row beside each strategy" '
  [its | .name | select(startswith("copy/fromio/libc/"))] | select(length == 0) | "no libc row"'
check "a relaxed 64-bit read and write are measured" '
  ["thrpt/read64/relaxed","thrpt/write64/relaxed","chain/read64/relaxed"] - [its | select(.cycles > 0) | .name] | .[]'
check "core cycles come with every TSC figure" '
  its | select(.cycles != null and (.core_cycles // 0) <= 0) | .name'
check "repetitions give a median and a coefficient of variation" '
  [.benchmarks[] | select(.run_name == "thrpt/read64/relaxed") | .aggregate_name // empty] as $a
  | ["median","cv"] - $a | .[]'
check "every lat/ benchmark has a histogram whose counts add up" '
  [its | select(.name | startswith("lat/")) | select(.error_occurred | not) | .name] - (.histograms | keys) | .[]'
check "histogram edges rise and there is one more edge than counts" '
  .histograms | to_entries[] | .value as $h
  | select(($h.edges | length) != ($h.counts | length) + 1 or ($h.edges != ($h.edges | sort)) or ($h.counts | add) <= 0)
  | .key'
check "p99.9 lies inside a linear bin: the last bin holds only the tail above p99.9" '
  .histograms as $h | [its | select(.name | startswith("lat/"))] | group_by(.name)[]
  | max_by(.repetition_index) | select(.p999 != null)   # the histogram is the last repetition'"'"'s
  | . as $r | $h[$r.name] as $g | ($g.edges[1] - $g.edges[0]) as $w
  | select([range(0; $g.counts | length) | select($g.edges[.] <= $r.p999 and $r.p999 < $g.edges[. + 1]
            and ($g.edges[. + 1] - $g.edges[.]) <= $w * 1.0001)] | length == 0)
  | "\($r.name): p999 \($r.p999), edges \($g.edges)"'
check "the environment check is in the context" '
  ["env_governor","env_boost","env_vm","env_warnings","topology","core_cycles_source"] - (.context | keys) | .[]'
if [ "$target" = trap ]; then
	check "the port window runs rep insX/outsX and the port cookie" '
  ["rep/read32/string/8","rep/write32/string/8","dispatch/read32/cookie-pio"] - [its | select(.cycles > 0) | .name] | .[]'
	check "every copy strategy is measured on the copy window" '
  its | select(.name | test("^copy/[a-z]+/(volatile|relaxed|barriered|string|string-wide|simd|simd-512|simd-nt)/"))
  | select(.error_occurred) | "\(.name): \(.error_message)"'
	check "the libc row is skipped with the reason" '
  its | select(.name | startswith("copy/fromio/libc/")) | select((.error_message // "") | test("^skipped: .*glibc") | not) | .name'
fi
exit $fail
