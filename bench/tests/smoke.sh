#!/bin/sh
# smoke.sh: regbench --target TARGET --quick as JSON (TARGET: ram, the default, or trap): every family, the context, sane counters, reasons for skips
#
# The checks themselves are smoke.py, on the file through the one reader and on the console.
set -eu
regbench=$1
target=${2:-ram}
case $target in
ram | trap) ;;
*) echo "smoke.sh: no expectations for target '$target' (ram or trap)"; exit 2 ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$regbench" --target "$target" --quick --benchmark_out="$out/r.json" --benchmark_out_format=json >"$out/console" 2>&1 ||
	{ cat "$out/console"; echo "FAIL: regbench exited non-zero"; exit 1; }
/usr/bin/python3 "$(dirname "$0")/smoke.py" "$out/r.json" "$out/console" "$target"
