#!/bin/sh
# cli.sh: bad input gives one line "regbench: what: why (what to try)" and a non-zero exit; --list-targets
set -u
regbench=$1
fail=0

expect_error() {	# expect_error EXPECTED-LINE ARGS...
	want=$1; shift
	err=$("$regbench" "$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" = 0 ] || [ "$err" != "$want" ]; then
		echo "FAIL: regbench $*: exit $rc, printed:"; echo "$err" | sed 's/^/  /'; echo "  wanted: $want"; fail=1
	else
		echo "ok: regbench $* -> $want"
	fi
}

expect_error "regbench: target 'nosuch': unknown target kind 'nosuch' (regbench --list-targets shows the kinds)" --target nosuch
expect_error "regbench: target 'ram:12q': bad size '12q' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" --target=ram:12q
expect_error "regbench: target 'ram:0': bad size '0' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" --target=ram:0
expect_error "regbench: target 'trap:nosuch': unknown model 'nosuch' (the models: default, scratch)" --target trap:nosuch
expect_error "regbench: target 'pci:00:04.0/0': the pci backend is not built yet in this version (use ram)" --target pci:00:04.0/0
expect_error "regbench: --strategy: unknown strategy 'fast' (regbench --help lists them)" --strategy=relaxed,fast
expect_error "regbench: --cpu: bad CPU number 'x' (a CPU number as in /proc/cpuinfo)" --cpu x
expect_error "regbench: --frobnicate: unknown flag (regbench --help lists the flags)" --frobnicate
expect_error "regbench: --target: needs a value (e.g. --target=...)" --target

# the allowed CPUs differ between machines: check the line's shape
err=$("$regbench" --cpu 1023 2>&1 >/dev/null) && { echo "FAIL: --cpu 1023 succeeded"; fail=1; }
if echo "$err" | grep -qxE "regbench: --cpu: CPU 1023 is not one this process may use \(one of [0-9,]+\)"; then
	echo "ok: regbench --cpu 1023 -> $err"
else
	echo "FAIL: regbench --cpu 1023 printed: $err"; fail=1
fi

list=$("$regbench" --list-targets)
for want in "^ram +available" "^trap +available" "^pci +not available" "^port +not available" "why not: not built yet"; do
	if echo "$list" | grep -qE "$want"; then echo "ok: --list-targets shows /$want/"
	else echo "FAIL: --list-targets lacks /$want/:"; echo "$list" | sed 's/^/  /'; fail=1; fi
done

# --strategy narrows the accessor strategies and keeps the libc reference row
names=$("$regbench" --quick --strategy=string --benchmark_list_tests=true)
if echo "$names" | grep -q '/relaxed' || ! echo "$names" | grep -q '^copy/fromio/string/' ||
   ! echo "$names" | grep -q '^copy/fromio/libc/'; then
	echo "FAIL: --strategy=string lists:"; echo "$names" | head | sed 's/^/  /'; fail=1
else
	echo "ok: --strategy=string keeps string and libc only"
fi
exit $fail
