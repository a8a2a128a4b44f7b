#!/bin/sh
# results-lib.sh: what results.sh and results-run.sh share: the temporary folder, ok/bad, and the checks of what a run left
#
# sourced with REGBENCH [PROGRAM] as the caller's arguments; each case's check is one of the functions below.
set -u
regbench=$1
program=${2:-$regbench}
py=/usr/bin/python3
fail=0
tmp=$(mktemp -d) || exit 1
small=
cleanup() {
	[ -n "$small" ] && umount "$small" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# A quick run: the barriers, once each.
quick="--benchmark_filter=^barrier/ --benchmark_min_time=0.001 --benchmark_repetitions=1"
# A run long enough to be interrupted or disturbed after its first result.
long="--benchmark_filter=^(lat|thrpt)/ --benchmark_repetitions=5"

# strict FILE: FILE is one whole JSON document without NaN or Infinity that keeps the contract
# (bench/regbench.schema.json, as the report's reader checks it); prints why not.
strict() {
	"$py" -c '
import json, sys
sys.path.insert(0, sys.argv[2])
def constant(c):
    raise ValueError("not JSON: " + c)
try:
    with open(sys.argv[1]) as f:
        doc = json.load(f, parse_constant=constant)
    from regbench_base import contract
    why = contract.problem(doc)
    if why:
        raise ValueError(why)
except Exception as e:
    print(e)
    sys.exit(1)' "$1" "$(cd "$(dirname "$0")/../../scripts" && pwd)"
}

# field FILE EXPR [ARG]: a Python expression over d, the JSON of FILE (and sys.argv[3], ARG), printed.
field() {
	"$py" -c 'import collections, json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}

# started CONSOLE: waits (up to 120 s) until the console shows a first result line.
started() {
	for _ in $(seq 1200); do
		grep -q '^\(lat\|thrpt\)/' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# The lines on stderr that are regbench's own, not its notes or its progress.
errors() { grep '^regbench: ' "$1" | grep -v '^regbench: note: \|^regbench: [0-9]* \(of [0-9]* \)\?benchmarks\? '; }

# kept DIR SIG WHAT [RC WANT]: regbench left DIR/r.json alone, strict, with the context interrupted=SIG and results
# from before it (and exited RC, WANT wanted).
kept() {
	why=$(strict "$1/r.json")
	if [ "${4-}" = "${5-}" ] && [ -z "$why" ] && [ "$(field "$1/r.json" 'd["context"]["interrupted"]')" = "$2" ] &&
	   [ "$(field "$1/r.json" 'sum(b["state"] in ("measured", "below_resolution") for b in d["regbench"]["benchmarks"].values()) > 0')" = True ] &&
	   [ "$(ls -A "$1")" = r.json ]; then
		ok "$3: ${4+exit $4, }strict JSON with interrupted=$2 and what was measured before it, nothing else left"
	else
		bad "$3: ${4+exit $4 (want $5), }JSON: ${why:-strict}, files: $(ls -A "$1" | tr '\n' ' ')"
	fi
}
