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

expect_error "regbench: target 'nosuch': unknown target kind 'nosuch' (the kinds: ram, trap, pci, port)" --target nosuch
expect_error "regbench: target 'ram:12q': bad size '12q' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" --target=ram:12q
expect_error "regbench: target 'ram:0': bad size '0' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" --target=ram:0
expect_error "regbench: target 'trap:nosuch': unknown model 'nosuch' (the models: default, scratch)" --target trap:nosuch
expect_error "regbench: --strategy: unknown strategy 'fast' (regbench --help lists them)" --strategy=relaxed,fast
expect_error "regbench: --cpu: bad CPU number 'x' (a CPU number as in /proc/cpuinfo)" --cpu x
expect_error "regbench: --frobnicate: unknown flag (regbench --help lists the flags)" --frobnicate
expect_error "regbench: --target: needs a value (e.g. --target=...)" --target
expect_error "regbench: --allow-write: bad window '4' (OFF+LEN in bytes from the start of the BAR or port range, e.g. --allow-write=0x4+4)" --allow-write=4
expect_error "regbench: --allow-write: bad window '0x4+0' (OFF+LEN in bytes from the start of the BAR or port range, e.g. --allow-write=0x4+4)" --allow-write 0x4+0
expect_error "regbench: target 'pci:00:04.0/0,widths=12': bad widths '12' (bits joined by +, e.g. widths=32 or widths=8+16)" --target pci:00:04.0/0,widths=12
expect_error "regbench: target 'port:0x70+2,widths=64': bad option 'widths=64' (port takes widths= of 8, 16 and 32, e.g. port:0xc000+4,widths=32)" --target port:0x70+2,widths=64
expect_error "regbench: --sizes: 1048576 bytes do not fit the copy window of target 'ram:64k', 65536 bytes (sizes up to 65536, or a larger target such as ram:1m)" --target ram:64k --sizes=64,1m
expect_error "regbench: --sizes: 8192 bytes do not fit the copy window of target 'trap', 4096 bytes (sizes up to 4096, or a larger target such as ram:8k)" --target trap --sizes=8k
expect_error "regbench: --sizes: bad value '4q' in '8,4q' (numbers from 1 to 1099511627776, k/m/g allowed, comma-separated, e.g. --sizes=8,64,4k,256k,4m)" --sizes=8,4q
expect_error "regbench: --counts: bad value '0' in '0,8' (numbers from 1 to 16777216, k/m/g allowed, comma-separated, e.g. --counts=1,16,1k)" --counts=0,8
expect_error "regbench: --counts: bad value '32m' in '32m' (numbers from 1 to 16777216, k/m/g allowed, comma-separated, e.g. --counts=1,16,1k)" --counts=32m
# lookups only: no device has vendor ffff, and domain ffff does not exist on the machines this runs on
expect_error "regbench: target 'pci:ffff:1234/0': no PCI device ffff:1234 (lspci -nn lists the devices with their ids)" --target pci:ffff:1234/0
expect_error "regbench: target 'pci:ffff:ff:1f.7/0': no PCI device at ffff:ff:1f.7 (lspci lists the devices)" --target pci:ffff:ff:1f.7/0

# the allowed CPUs differ between machines: check the line's shape
err=$("$regbench" --cpu 1023 2>&1 >/dev/null) && { echo "FAIL: --cpu 1023 succeeded"; fail=1; }
if echo "$err" | grep -qxE "regbench: --cpu: CPU 1023 is not one this process may use \(one of [0-9,]+\)"; then
	echo "ok: regbench --cpu 1023 -> $err"
else
	echo "FAIL: regbench --cpu 1023 printed: $err"; fail=1
fi

# pci and port depend on the machine (sysfs, ioperm): each is either available or says why not
list=$("$regbench" --list-targets)
for kind in pci port; do
	line=$(echo "$list" | grep -A3 "^$kind ")
	if echo "$line" | grep -qE "^$kind +available" ||
	   { echo "$line" | grep -qE "^$kind +not available" && echo "$line" | grep -qE "why not: .{10,}"; }; then
		echo "ok: --list-targets: $kind is available or says why not"
	else
		echo "FAIL: --list-targets: $kind:"; echo "$line" | sed 's/^/  /'; fail=1
	fi
done
# every PCI device line is followed by its BARs in lspci's terms, each mapping with yes or no: why
bad=$(echo "$list" | awk '/^          (uc|wc|port) / && $3 != "yes" && $3 != "no:" { print }')
if [ -n "$bad" ]; then echo "FAIL: --list-targets mapping lines:"; echo "$bad" | sed 's/^/  /'; fail=1
else echo "ok: --list-targets: every BAR mapping says yes or no: why"; fi
for want in "^ram +available" "^trap +available"; do
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
# --sizes and --counts replace the copy sizes and _rep counts; a word copy skips sizes that are not whole words
names=$("$regbench" --sizes=13,4k --counts=3 --benchmark_list_tests=true)
if [ "$(echo "$names" | grep -c '^copy/toio/kernel/')" != 2 ] || ! echo "$names" | grep -q '^copy/toio/kernel/13$' ||
   [ "$(echo "$names" | grep -c '^rep/read32/relaxed/')" != 1 ] || ! echo "$names" | grep -q '^rep/read32/relaxed/3$'; then
	echo "FAIL: --sizes=13,4k --counts=3 lists:"; echo "$names" | grep -E '^(copy/toio/kernel|rep/read32/relaxed)/' | sed 's/^/  /'
	fail=1
else
	echo "ok: --sizes and --counts set the copy sizes and _rep counts"
fi
out=$("$regbench" --sizes=13 --strategy=iowrite32-copy --benchmark_filter='^copy/toio/iowrite32-copy/13$' 2>&1)
if echo "$out" | grep -q "skipped: it copies whole 4-byte words: 13 bytes is not a multiple of 4"; then
	echo "ok: a word copy skips a size that is not whole words"
else
	echo "FAIL: iowrite32-copy of 13 bytes:"; echo "$out" | tail -3 | sed 's/^/  /'; fail=1
fi
exit $fail
