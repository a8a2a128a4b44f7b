#!/bin/sh
# results-run.sh: scripts/run keeps what regbench measured: run-less uses pass through, signals keep the JSON, names never clash
#
# usage: results-run.sh REGBENCH [PROGRAM] (as results.sh)
set -u
. "$(dirname "$0")/results-lib.sh"
# scripts/run, in a tree of its own (its scripts, this regbench, a build step that does nothing), so that
# its results/ folder is the test's: run-less uses pass through, signals keep the JSON, names never clash.
src=$(cd "$(dirname "$0")/../.." && pwd)
tree=$tmp/tree
mkdir -p "$tree/scripts" "$tree/build/bench"
for f in run summary report regbench_report regbench_base; do ln -s "$src/scripts/$f" "$tree/scripts/$f"; done
printf '#!/bin/sh\nexit 0\n' >"$tree/scripts/build"
chmod +x "$tree/scripts/build"
ln -s "$(cd "$(dirname "$regbench")" && pwd)/$(basename "$regbench")" "$tree/build/bench/regbench"
run() { "$tree/scripts/run" "$@" >"$tmp/run.out" 2>"$tmp/run.err"; }
# What scripts/run left in results/, one line.
left() { ls -A "$tree/results" 2>/dev/null | tr '\n' ' '; }

run --list-targets
rc=$?
if [ "$rc" = 0 ] && grep -qE '^ram +available' "$tmp/run.out" && [ -z "$(left)" ]; then
	ok "scripts/run --list-targets: regbench's listing, exit 0, no result file"
else
	bad "scripts/run --list-targets: exit $rc, left '$(left)', printed: $(head -3 "$tmp/run.err")"
fi
for use in --benchmark_list_tests --benchmark_list_tests=yes; do
	run $use --target trap
	rc=$?
	if [ "$rc" = 0 ] && grep -qx 'barrier/mfence' "$tmp/run.out" && [ -z "$(left)" ]; then
		ok "scripts/run $use --target trap: the names, exit 0, no result file"
	else
		bad "scripts/run $use: exit $rc, left '$(left)', printed: $(grep '^regbench: ' "$tmp/run.err" | head -3)"
	fi
done
run --help
rc=$?
if [ "$rc" = 0 ] && head -1 "$tmp/run.out" | grep -q '^usage: scripts/run ' && grep -q '^usage: regbench ' "$tmp/run.out" &&
   [ -z "$(left)" ]; then
	ok "scripts/run --help: its usage, then regbench's, exit 0"
else
	bad "scripts/run --help: exit $rc, first line '$(head -1 "$tmp/run.out")'"
fi
run --self-check --cpu 0
rc=$?
case $rc in
0|1|3) if grep -q '^primitive ' "$tmp/run.out" && [ -z "$(left)" ]; then
	ok "scripts/run --self-check: the self-check's table (exit $rc), no result file"
	else bad "scripts/run --self-check: exit $rc, left '$(left)', printed: $(head -3 "$tmp/run.err")"; fi ;;
*) bad "scripts/run --self-check: exit $rc, printed: $(head -3 "$tmp/run.err")" ;;
esac
run --frobnicate
rc=$?
if [ "$rc" = 2 ] && [ "$(errors "$tmp/run.err")" = "regbench: --frobnicate: unknown flag (regbench --help lists the flags)" ] &&
   [ -z "$(left)" ]; then
	ok "scripts/run --frobnicate: regbench's one line and exit 2, nothing left in results/"
else
	bad "scripts/run --frobnicate: exit $rc, left '$(left)', printed: $(cat "$tmp/run.err")"
fi

# A run whose command needs quoting is reproduced as typed; runs in the same second never share names.
now=$(date +%s)
for i in 0 1 2 3 4 5 6 7 8 9; do
	mkdir -p "$tree/results"
	echo "an earlier run" >"$tree/results/regbench-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S).json"
done
run '--benchmark_filter=^barrier/(lfence|mfence)$' --benchmark_min_time=0.001 --benchmark_repetitions=1
rc=$?
json=$(ls "$tree/results"/regbench-*-2.json 2>/dev/null | head -1)
readme=$(ls "$tree/results"/report-*-2/README.md 2>/dev/null | head -1)
if [ "$rc" = 0 ] && [ -n "$json" ] && [ -z "$(strict "$json")" ] && [ -n "$readme" ] &&
   grep -qF -- "--benchmark_out_format=json '--benchmark_filter=^barrier/(lfence|mfence)\$' --benchmark_min_time=0.001" "$readme" &&
   [ "$(cat "$tree"/results/regbench-????????-??????.json | sort -u)" = "an earlier run" ]; then
	ok "scripts/run in a second that has results: its own -2 names, the earlier files untouched, the command quoted as typed"
else
	bad "scripts/run beside earlier results: exit $rc, json '$json', report '$readme', left '$(left)'"
fi

# SIGNAL to scripts/run alone, or to its whole process group (as timeout and kill -- -PGID send it): regbench
# gets it once, stops, keeps what it measured; scripts/run says where and exits 128+signo, without a report.
for how in TERM:15:alone INT:2:alone TERM:15:group; do
	sig=${how%%:*} want=$((128 + $(echo "$how" | cut -d: -f2))) to=${how##*:}
	rm -rf "$tree/results"
	# a job started with & ignores SIGINT, and a shell cannot trap what it was started ignoring
	setsid env --default-signal=INT "$tree/scripts/run" $long >"$tmp/run.out" 2>"$tmp/run.err" &
	pid=$!
	n=0
	until log=$(ls "$tree"/results/regbench-*.txt 2>/dev/null) && started "$log" || [ $n -ge 1200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if [ "$to" = group ]; then kill -"$sig" -"$pid"; else kill -"$sig" "$pid"; fi
	wait "$pid"
	rc=$?
	json=$(ls "$tree"/results/regbench-*.json 2>/dev/null)
	if [ "$rc" = "$want" ] && [ -n "$json" ] && [ -z "$(strict "$json")" ] &&
	   [ "$(field "$json" 'd["context"]["interrupted"]')" = "SIG$sig" ] &&
	   [ "$(field "$json" 'sum(b["state"] in ("measured", "below_resolution") for b in d["regbench"]["benchmarks"].values()) > 0')" = True ] &&
	   grep -qE "^scripts/run: interrupted: regbench kept the [0-9]+ benchmarks? it measured" "$tmp/run.err" &&
	   [ -z "$(ls -d "$tree"/results/report-* 2>/dev/null)" ]; then
		ok "SIG$sig to scripts/run ($to): exit $rc, regbench stopped and its JSON kept (interrupted=SIG$sig), no report"
	else
		bad "SIG$sig to scripts/run ($to): exit $rc (want $want), left '$(left)', printed: $(tail -2 "$tmp/run.err")"
	fi
done

# scripts/run 2>&1 | head -1: regbench writes its notes to the closed pipe, and its SIGPIPE stops it as SIGINT
# would, its JSON kept in results/
rm -rf "$tree/results"
timeout 300 "$tree/scripts/run" $long 2>&1 | head -1 >/dev/null
json=$(ls "$tree"/results/regbench-*.json 2>/dev/null)
if [ -n "$json" ] && [ -z "$(strict "$json")" ] && [ "$(field "$json" 'd["context"]["interrupted"]')" = SIGPIPE ]; then
	ok "scripts/run 2>&1 | head -1: regbench stopped, its JSON kept (interrupted=SIGPIPE)"
else
	bad "scripts/run 2>&1 | head -1: left '$(left)'"
fi

# scripts/run | head -1: the reader has its line; the run, its summary and its report still end as they would
rm -rf "$tree/results"
timeout 300 "$tree/scripts/run" '--benchmark_filter=^barrier/lfence$' --benchmark_min_time=0.001 2>/dev/null | head -1 >/dev/null
json=$(ls "$tree"/results/regbench-*.json 2>/dev/null)
if [ -n "$json" ] && [ -z "$(strict "$json")" ] && [ -z "$(field "$json" 'd["context"].get("interrupted", "")')" ] &&
   [ -s "${json%.json}.txt" ] && [ -f "$(echo "$json" | sed 's|regbench-\(.*\)\.json$|report-\1|')/README.md" ]; then
	ok "scripts/run | head -1: the run complete and its report rendered"
else
	bad "scripts/run | head -1: left '$(left)'"
fi

# results/ that cannot be a folder: one line, nothing run
rm -rf "$tree/results"
echo "not a folder" >"$tree/results"
run --benchmark_filter=^barrier/ --benchmark_min_time=0.001
rc=$?
if [ "$rc" = 1 ] && [ "$(cat "$tmp/run.err")" = "scripts/run: results: cannot create or write the folder here (make $tree/results a folder you can write to)" ] &&
   [ "$(cat "$tree/results")" = "not a folder" ]; then
	ok "scripts/run with a file named results: exit 1, one line, the file untouched"
else
	bad "scripts/run with a file named results: exit $rc, printed: $(cat "$tmp/run.err")"
fi
exit $fail
