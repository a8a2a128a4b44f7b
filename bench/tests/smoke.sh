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

check "every GB benchmark has its entry in the regbench object, and no entry is extra" '
  ([its | .run_name] | unique) as $gb | (.regbench.benchmarks | keys) as $meta
  | ($gb - $meta | map("no metadata: \(.)")) + ($meta - $gb | map("metadata only: \(.)")) | .[]'
check "every family of the order is present" '
  .regbench.order.families - [.regbench.benchmarks[] | .family] | .[]'
check "each name is made of its fields: family/op+width/strategy[/param]" '
  .regbench.benchmarks | to_entries[] | .value as $m
  | select(.key != ([$m.family, $m.op + ($m.width // "" | tostring), $m.strategy, ($m.param // "" | tostring)]
                    | map(select(. != "")) | join("/"))) | .key'
check "every field of the contract has a value of its kind" '
  .regbench.order as $o | .regbench.benchmarks | to_entries[] | .value as $m
  | select(($m.state | IN("measured", "below_resolution", "skipped", "error", "not_run") | not)
           or ($m.space | IN("mmio", "pio") | not) or ($m.family | IN($o.families[]) | not)
           or ($m.strategy != "" and ($m.strategy | IN($o.strategies[]) | not))
           or (($m.state == "measured") != ($m.reason == ""))
           or (($m.state == "below_resolution") != ($m.bound != null))) | "\(.key): \($m)"'
check "the context has every key" '
  ["target","target_kind","target_mapping","target_device","target_bar","tsc_hz","tsc_hz_source","invariant_tsc",
   "core_hz_estimate","cpu","cpu_model","kernel","timer","timer_overhead_cycles","timer_resolution_cycles",
   "regbench_build_type","regbench_version"] - (.context | keys) | .[]'
check "the context describes $target" '
  .context | select(.target != "'"$target"'" or .target_kind != "mmio" or .target_mapping != "'"$mapping"'"
                    or (.tsc_hz | tonumber) < 1e8 or (.timer_overhead_cycles | tonumber) <= 0) | tostring'
# below_resolution when most repetitions were below (result.cc): one of three below leaves a figure
check "the state says how each benchmark ended, as Google Benchmark reported its repetitions" '
  .regbench.benchmarks as $m | [its] | group_by(.run_name)[] | $m[.[0].run_name] as $b
  | select(any(.[]; .error_occurred // false) != ($b.state | IN("skipped", "error", "not_run"))
           or ($b.state == "skipped" and any(.[]; .error_message | startswith("skipped: ") | not))
           or ((any(.[]; .error_occurred // false) | not)
               and ((map(select((.label // "") | startswith("below timer resolution"))) | length) * 2 > length)
                   != ($b.state == "below_resolution")))
  | "\(.[0].run_name): \($b.state) \(map(.error_message // .label // "") | unique)"'
check "every measured repetition has cycles > 0 and ns > 0" '
  its | select((.label // "") == "" and (.error_occurred | not))
  | select(((.cycles // 0) > 0 and (.ns // 0) > 0) | not) | .name'
check "no counter is negative" '
  .benchmarks[] | . as $b | ["cycles","core_cycles","ns","bytes_per_second","min","p50","p90","p99","p999","max",
                             "outliers","below_overhead"][]
  | select(($b[.] // 0) < 0) | "\($b.name) \(.)"'
check "lat results carry min <= p50 <= p90 <= p99 <= max" '
  .regbench.benchmarks as $m | its | select($m[.run_name].family == "lat") | select(.cycles != null)
  | select((.min <= .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max) | not) | .name'
check "every skipped benchmark carries a reason" '
  .regbench.benchmarks | to_entries[] | select(.value.state == "skipped" and (.value.reason | length) < 10)
  | "\(.key): \(.value.reason)"'
check "the copy family has the reference row beside each strategy" '
  [.regbench.benchmarks[] | select(.family == "copy" and .strategy == "libc")]
  | select(length == 0) | "no libc row"'
check "the 64-bit read and write of the kernel's strategy are measured" '
  .regbench.kernel_strategies.single as $s | .regbench.benchmarks as $m
  | [["thrpt","read"],["thrpt","write"],["chain","read"]][] as [$f, $op]
  | select([$m[] | select(.family == $f and .op == $op and .width == 64 and .strategy == $s
                          and .state == "measured")] | length != 1) | "\($f)/\($op)64/\($s)"'
check "core cycles come with every TSC figure" '
  its | select(.cycles != null and (.core_cycles // 0) <= 0) | .name'
check "repetitions give a median and a coefficient of variation" '
  (.regbench.benchmarks | to_entries | map(select(.value.state == "measured" and .value.family == "thrpt"))[0].key) as $n
  | [.benchmarks[] | select(.run_name == $n) | .aggregate_name // empty] as $a
  | ["median","cv"] - $a | .[]'
check "every lat/ benchmark that ran has a histogram" '
  [.regbench.benchmarks | to_entries[] | select(.value.family == "lat" and (.value.state | IN("measured", "below_resolution")))
   | .key] - (.regbench.histograms | keys) | .[]'
check "histogram edges rise, there is one more edge than counts, no bin lies below 0" '
  .regbench.histograms | to_entries[] | .value as $h
  | select(($h.edges | length) != ($h.counts | length) + 1 or ($h.edges != ($h.edges | sort))
           or ($h.counts | add) <= 0 or $h.edges[0] < 0)
  | .key'
check "histograms lie on the grid of the timer's step, bucket after bucket (estimate.h: rb_hist_bucket)" '
  (.context.timer_resolution_cycles | tonumber) as $step
  | .regbench.histograms | to_entries[] | .value.grid as $g | [.value.edges[] / $step] as $v
  | select($g.step != $step or ([range(0; ($v | length) - 1) | $v[.] as $e
      | (if $e < 2 * $g.sub_buckets then 1 else pow(2; ($e | log2 | floor) - ($g.sub_buckets | log2)) end) as $w
      | select($v[. + 1] - $e != $w or ($e / $w | . != floor))] | length > 0))
  | "\(.key): \(.value.grid), edges \(.value.edges[0:4]) (step \($step))"'
check "a histogram holds every repetition: each one's min and max lie in its span" '
  .regbench.histograms as $h | .regbench.benchmarks as $m
  | its | select($m[.run_name].family == "lat" and .min != null) | $h[.run_name] as $g
  | select(.min < $g.edges[0] or .max >= $g.edges[-1])
  | "\(.name): min \(.min), max \(.max), span \($g.edges[0]) to \($g.edges[-1])"'
check "the environment check is in the context" '
  ["env_governor","env_boost","env_vm","env_warnings","topology","core_cycles_source"] - (.context | keys) | .[]'
check "Google Benchmark's time is the cost per unit: real_time is the ns counter (manual time)" '
  its | select(.ns != null) | select((.real_time - .ns) as $d | $d * $d > (1e-6 * .ns) * (1e-6 * .ns))
  | "\(.name): \(.real_time) vs \(.ns)"'
check "every benchmark counts its disturbed repetitions; the context counts the benchmarks with any" '
  (.regbench.benchmarks | to_entries[] | select((.value.disturbed | type) != "number" or .value.disturbed < 0)
   | "\(.key): disturbed \(.value.disturbed)"),
  (select((.context.disturbed_benchmarks | tonumber) != ([.regbench.benchmarks[] | select(.disturbed > 0)] | length))
   | "context disturbed_benchmarks \(.context.disturbed_benchmarks)")'

# the console: one line per benchmark, a skip or a result below resolution once, counters without SI suffixes
console_check() {	# console_check DESCRIPTION AWK-PROGRAM-THAT-PRINTS-OFFENDERS
	bad=$(awk "$2" "$out/console")
	if [ -n "$bad" ]; then echo "FAIL: console: $1:"; echo "$bad" | sed 's/^/  /' | head -10; fail=1
	else echo "ok: console: $1"; fi
}
console_check "each benchmark is one line" '$1 ~ /^(lat|chain|thrpt|flush|rep|copy|barrier|dispatch)\// && seen[$1]++ { print }'
console_check "no ERROR OCCURRED and no SI suffix on a figure" '/ERROR OCCURRED/ || /[0-9][kmMGTun]( |$)/ { print }'
for state in skipped below_resolution; do
	for name in $(jq -r --arg s "$state" '.regbench.benchmarks | to_entries[] | select(.value.state == $s) | .key' "$out/r.json" | head -3); do
		case $state in skipped) want="skipped: " ;; *) want="below timer resolution" ;; esac
		console_check "$name says '$want' once" '$1 == "'"$name"'" && index($0, "'"$want"'") { n++ } END { if (n != 1) print "'"$name"': " n + 0 " lines" }'
	done
done

if [ "$target" = trap ]; then
	check "the port window runs rep insX/outsX and the port cookie, each paired with its MMIO form" '
  .regbench.benchmarks as $m
  | ["rep","dispatch"][] as $f
  | select([$m[] | select(.family == $f and .space == "pio" and .state == "measured" and ($m[.pair].space == "mmio"))]
           | length == 0) | "no measured port \($f) benchmark with an MMIO pair"'
	check "every accessor copy strategy is measured on the copy window" '
  .regbench.strategies as $s | .regbench.benchmarks | to_entries[]
  | select(.value.family == "copy" and $s[.value.strategy].kind == "accessor" and (.value.state | IN("measured") | not)
           and (.value.reason | test("CPU|AVX|signal frame") | not))
  | "\(.key): \(.value.state) \(.value.reason)"'
	check "the reference copy row is skipped with the reason" '
  .regbench.strategies as $s | .regbench.benchmarks | to_entries[]
  | select(.value.family == "copy" and $s[.value.strategy].kind == "reference"
           and (.value.state != "skipped" or (.value.reason | test("outside libiomap") | not))) | .key'
fi
exit $fail
