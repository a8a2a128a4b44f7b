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

expect_error "regbench: target 'nosuch': unknown target kind 'nosuch' (the kinds: ram, trap, pci, port, vfio, kernel)" --target nosuch
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
expect_error "regbench: --sizes: 1048576 bytes do not fit the copy window of target 'ram:64k', 65536 bytes (sizes up to 64k, or a larger target such as ram:1m)" --target ram:64k --sizes=64,1m
expect_error "regbench: --sizes: 8192 bytes do not fit the copy window of target 'trap', 4096 bytes (sizes up to 4k, or a larger target such as ram:8k)" --target trap --sizes=8k
expect_error "regbench: --sizes: bad value '4q' in '8,4q' (numbers from 1 to 1099511627776, k/m/g/t allowed, comma-separated, e.g. --sizes=8,64,4k,256k,4m)" --sizes=8,4q
expect_error "regbench: --counts: bad value '0' in '0,8' (numbers from 1 to 16777216, k/m/g/t allowed, comma-separated, e.g. --counts=1,16,1k)" --counts=0,8
expect_error "regbench: --counts: bad value '32m' in '32m' (numbers from 1 to 16777216, k/m/g/t allowed, comma-separated, e.g. --counts=1,16,1k)" --counts=32m
# each value is a benchmark per strategy and width: 1000 of them kept Google Benchmark starting for 12 minutes
expect_error "regbench: --counts: 65 values, each a benchmark per strategy and width (at most 64, e.g. --counts=1,16,1k)" --counts="$(seq -s, 1 65)"
expect_error "regbench: --sizes: 65 values, each a benchmark per strategy and width (at most 64, e.g. --sizes=8,64,4k,256k,4m)" --sizes="$(seq -s, 8 8 520)"
# numbers are decimal or 0x hex, never octal, with nothing before the first digit, as in a target spec
expect_error "regbench: --sizes: bad value '+8' in '+8,64' (numbers from 1 to 1099511627776, k/m/g/t allowed, comma-separated, e.g. --sizes=8,64,4k,256k,4m)" --sizes=+8,64
expect_error "regbench: --counts: bad value ' 8' in ' 8' (numbers from 1 to 16777216, k/m/g/t allowed, comma-separated, e.g. --counts=1,16,1k)" "--counts= 8"
expect_error "regbench: --sizes: bad value '0x' in '0x' (numbers from 1 to 1099511627776, k/m/g/t allowed, comma-separated, e.g. --sizes=8,64,4k,256k,4m)" --sizes=0x
expect_error "regbench: --sizes: 1099511627776 bytes do not fit the copy window of target 'ram', 4194304 bytes (sizes up to 4m, or a larger target such as ram:1t)" --sizes=1t
# the hint names the exact size in the largest unit that divides it
expect_error "regbench: --sizes: 1572865 bytes do not fit the copy window of target 'ram:1536k', 1572864 bytes (sizes up to 1536k, or a larger target such as ram:1572865)" --target=ram:1536k --sizes=0x180001
expect_error "regbench: --sizes: 3145728 bytes do not fit the copy window of target 'ram:12345', 12345 bytes (sizes up to 12345, or a larger target such as ram:3m)" --target=ram:12345 --sizes=8,3m
expect_error "regbench: --allow-write: bad window '+4+4' (OFF+LEN in bytes from the start of the BAR or port range, e.g. --allow-write=0x4+4)" --allow-write=+4+4
expect_error "regbench: --allow-write: bad window '0x+4' (OFF+LEN in bytes from the start of the BAR or port range, e.g. --allow-write=0x4+4)" --allow-write=0x+4
# one spec, one meaning: a ':' promises what follows, a selector names a device, an option comes once
# (parse errors: no device is looked up or touched)
expect_error "regbench: target 'trap:': bad model name '' (letters, digits, - and _, e.g. trap:default)" --target trap:
expect_error "regbench: target 'pci:/0': empty selector '' would take any device (give a slot or ids as lspci -s and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)" --target pci:/0
expect_error "regbench: target 'vfio:s=/0,len=4': empty selector 's=' would take any device (give a slot or ids as lspci -s and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)" --target vfio:s=/0,len=4
expect_error "regbench: target 'pci:ffff:1234/0,len=4,len=0x1000': option 'len' given twice: 'len=4' and 'len=0x1000' (give it once)" --target pci:ffff:1234/0,len=4,len=0x1000
expect_error "regbench: target 'ram:64k,huge,huge': option 'huge' given twice (give it once)" --target ram:64k,huge,huge
# lookups only: no device has vendor ffff, and domain ffff does not exist on the machines this runs on
expect_error "regbench: target 'pci:ffff:1234/0': no PCI device matches d=ffff:1234 (lspci -nn lists the devices with their ids)" --target pci:ffff:1234/0
expect_error "regbench: target 'pci:ffff:ff:1f.7/0': no PCI device matches s=ffff:ff:1f.7 (lspci -D lists the devices)" --target pci:ffff:ff:1f.7/0

# Google Benchmark's own flags, checked before Google Benchmark sees them
expect_error "regbench: --benchmark_repetitions: bad count 'x' (repetitions from 1 to 1000, e.g. --benchmark_repetitions=5)" --benchmark_repetitions=x
expect_error "regbench: --benchmark_repetitions: bad count '0' (repetitions from 1 to 1000, e.g. --benchmark_repetitions=5)" --benchmark_repetitions=0
expect_error "regbench: --benchmark_repetitions: bad count '-3' (repetitions from 1 to 1000, e.g. --benchmark_repetitions=5)" --benchmark_repetitions=-3
expect_error "regbench: --benchmark_repetitions: bad count '99999999999' (repetitions from 1 to 1000, e.g. --benchmark_repetitions=5)" --benchmark_repetitions=99999999999
expect_error "regbench: --benchmark_repetitions: bad count '1001' (repetitions from 1 to 1000, e.g. --benchmark_repetitions=5)" --benchmark_repetitions=1001
expect_error "regbench: --benchmark_repetitions: bad count '' (repetitions from 1 to 1000, e.g. --benchmark_repetitions=5)" --benchmark_repetitions=
expect_error "regbench: --benchmark_repetitions: needs a value (Google Benchmark's flags take =, e.g. --benchmark_repetitions=5)" --benchmark_repetitions 5
expect_error "regbench: --benchmark_min_time: bad time '0.5s' (Google Benchmark 1.7.1 takes a bare number of seconds, e.g. --benchmark_min_time=0.5)" --benchmark_min_time=0.5s
expect_error "regbench: --benchmark_min_time: bad time '100x' (Google Benchmark 1.7.1 takes a bare number of seconds, e.g. --benchmark_min_time=0.5)" --benchmark_min_time=100x
expect_error "regbench: --benchmark_min_time: bad time '-1' (seconds above 0 to 3600, e.g. --benchmark_min_time=0.5)" --benchmark_min_time=-1
expect_error "regbench: --benchmark_min_time: bad time '0' (seconds above 0 to 3600, e.g. --benchmark_min_time=0.5)" --benchmark_min_time=0
expect_error "regbench: --benchmark_min_time: bad time 'nan' (seconds above 0 to 3600, e.g. --benchmark_min_time=0.5)" --benchmark_min_time=nan
expect_error "regbench: --benchmark_min_time: bad time '1e9' (seconds above 0 to 3600, e.g. --benchmark_min_time=0.5)" --benchmark_min_time=1e9
expect_error "regbench: --benchmark_min_warmup_time: regbench warms up and times its own calls; Google Benchmark's warm-up would repeat whole measurements (leave it out)" --benchmark_min_warmup_time=-0.1
expect_error "regbench: --benchmark_min_warmup_time: regbench warms up and times its own calls; Google Benchmark's warm-up would repeat whole measurements (leave it out)" --benchmark_min_warmup_time=0.5
expect_error "regbench: --benchmark_filter: not a regular expression: '(': missing ): ( (an extended regular expression, as grep -E takes)" "--benchmark_filter=("
expect_error "regbench: --benchmark_filter: not a regular expression: '-[z-a]': invalid character class range: z-a (an extended regular expression, as grep -E takes)" "--benchmark_filter=-[z-a]"
# grep -E's syntax, as RE2 reads it: no Perl classes (std::regex took \d for a plain d), repeats bounded
expect_error "regbench: --benchmark_filter: not a regular expression: '^rep/.*/\\d+$': invalid escape sequence: \\d (an extended regular expression, as grep -E takes)" '--benchmark_filter=^rep/.*/\d+$'
expect_error "regbench: --benchmark_filter: not a regular expression: '(a{100}){100}': invalid repetition size: {100} (an extended regular expression, as grep -E takes)" '--benchmark_filter=(a{100}){100}'
expect_error "regbench: --benchmark_filter: needs a value (a regular expression or all, e.g. --benchmark_filter=^chain/)" --benchmark_filter=
expect_error "regbench: --benchmark_filter: needs a value (Google Benchmark's flags take =, e.g. --benchmark_filter=^chain/)" --benchmark_filter
# a filter that selects nothing, counted against the benchmarks registered (- selects what it does not match)
n=$("$regbench" --benchmark_list_tests=true 2>/dev/null | wc -l)
expect_error "regbench: --benchmark_filter: 'nosuch' matches none of the $n benchmarks on target 'ram' (regbench --benchmark_list_tests lists them)" --benchmark_filter=nosuch
expect_error "regbench: --benchmark_filter: 'BARRIER' matches none of the $n benchmarks on target 'ram' (regbench --benchmark_list_tests lists them)" --benchmark_filter=BARRIER
expect_error "regbench: --benchmark_filter: '-.' matches none of the $n benchmarks on target 'ram' (regbench --benchmark_list_tests lists them)" --benchmark_filter=-.
expect_error "regbench: --benchmark_filter: '-' matches none of the $n benchmarks on target 'ram' (regbench --benchmark_list_tests lists them)" --benchmark_filter=-
# no filter can crash or hang regbench: RE2 neither recurses nor backtracks, and Google Benchmark's std::regex
# (which overflowed its stack on deep nesting, and backtracked for minutes) never sees one; timeout catches a hang
deep=$(awk 'BEGIN { for (i = 0; i < 30000; i++) printf "("; printf "barrier"; for (i = 0; i < 30000; i++) printf ")" }')
# hang_free WHAT WANT ARGS...: regbench exits within 60 s (else 124: a hang), its status and stdout (or its
# stderr when it fails) being WANT
hang_free() {
	what=$1 want=$2; shift 2
	out=$(timeout 60 "$regbench" "$@" 2>"${TMPDIR:-/tmp}/cli.err.$$") && got="0 $out" || got="$? $(cat "${TMPDIR:-/tmp}/cli.err.$$")"
	rm -f "${TMPDIR:-/tmp}/cli.err.$$"
	if [ "$got" = "$want" ]; then echo "ok: $what"
	else echo "FAIL: $what: printed (the exit status first):"; echo "$got" | head -3 | cut -c1-200 | sed 's/^/  /'; fail=1; fi
}
hang_free "30000 nested groups: matched, no crash" "0 $("$regbench" --benchmark_filter=barrier --benchmark_list_tests)" \
	--benchmark_filter="$deep" --benchmark_list_tests
hang_free "30000 groups left open: one line, no crash" "2 regbench: --benchmark_filter: not a regular expression: '$(printf '%.60s' "$deep")...$(printf '%.17s' "$deep")': missing ): $(printf '%.60s' "$deep")...$(printf '%.17s' "$deep") (an extended regular expression, as grep -E takes)" \
	--benchmark_filter="${deep%%b*}"
hang_free "catastrophic backtracking: ^(.*)*(.*)*(.*)*(.*)*(.*)*/mfence\$ lists at once" "0 barrier/mfence" \
	'--benchmark_filter=^(.*)*(.*)*(.*)*(.*)*(.*)*/mfence$' --benchmark_list_tests
# in a run, Google Benchmark runs what regbench selected; $ ends regbench's name (Google Benchmark's ends /manual_time)
out=$(timeout 60 "$regbench" '--benchmark_filter=^((b|a|r|i|e)*)*/(c|o|m|p|i|l|e|r)+$' --benchmark_min_time=0.001 \
	--benchmark_repetitions=1 --benchmark_format=json 2>/dev/null); rc=$?
ran=$(echo "$out" | sed -n 's/^ *"run_name": "\(.*\)",$/\1/p' | sort -u)
if [ "$rc" = 0 ] && [ "$ran" = barrier/compiler ]; then echo "ok: catastrophic backtracking in a run: barrier/compiler ran, at once"
else echo "FAIL: catastrophic backtracking in a run: exit $rc (124: a hang), ran: $ran"; fail=1; fi
expect_error "regbench: --benchmark_filter: '^(.*)*(.*)*(.*)*(.*)*x\$' matches none of the $n benchmarks on target 'ram' (regbench --benchmark_list_tests lists them)" \
	'--benchmark_filter=^(.*)*(.*)*(.*)*(.*)*x$'
expect_error "regbench: --benchmark_list_tests: not true or false: 'banana' (true or false)" --benchmark_list_tests=banana
expect_error "regbench: --benchmark_enable_random_interleaving: not true or false: 'maybe' (true or false)" --benchmark_enable_random_interleaving=maybe
expect_error "regbench: --benchmark_counters_tabular: not true or false: 'wide' (true or false)" --benchmark_counters_tabular=wide
expect_error "regbench: --benchmark_report_aggregates_only: the result file keeps every repetition, which its statistics need (--benchmark_display_aggregates_only chooses what the console shows)" --benchmark_report_aggregates_only
expect_error "regbench: --benchmark_time_unit: unknown value 'h' (one of ns, us, ms, s)" --benchmark_time_unit=h
expect_error "regbench: --benchmark_context: bad pair 'foo' (KEY=VALUE, several joined by commas, e.g. --benchmark_context=accelerator=tcg)" --benchmark_context=foo
expect_error "regbench: --benchmark_context: bad pair '=tcg' (KEY=VALUE, several joined by commas, e.g. --benchmark_context=accelerator=tcg)" --benchmark_context==tcg
expect_error "regbench: --benchmark_context: bad pair 'b=1=2' (KEY=VALUE, several joined by commas, e.g. --benchmark_context=accelerator=tcg)" --benchmark_context=a=1,b=1=2
expect_error "regbench: --benchmark_context: bad pair '' (KEY=VALUE, several joined by commas, e.g. --benchmark_context=accelerator=tcg)" --benchmark_context=a=1,,b=2
expect_error "regbench: --benchmark_context: 'a' given twice: '1' and '2' (give it once)" --benchmark_context=a=1 --benchmark_context=a=2
expect_error "regbench: --benchmark_context: 'target' is a key regbench or Google Benchmark sets itself (choose another key)" --benchmark_context=target=mine
expect_error "regbench: --benchmark_context: 'date' is a key regbench or Google Benchmark sets itself (choose another key)" --benchmark_context=date=today
expect_error "regbench: --benchmark_context: 'interrupted' is a key regbench or Google Benchmark sets itself (choose another key)" --benchmark_context=interrupted=no
for key in disturbed_benchmarks target_first_read target_lost target_iommu machine_id firmware microcode regbench_commit arch labels; do
	expect_error "regbench: --benchmark_context: '$key' is a key regbench or Google Benchmark sets itself (choose another key)" --benchmark_context=$key=mine
done
expect_error "regbench: --benchmark_perf_counters: this Google Benchmark is built without libpfm: it has no counters to read (regbench's core_cycles counts core cycles where perf_event has a counter)" --benchmark_perf_counters=CYCLES
expect_error "regbench: --v: bad level 'x' (a verbosity from 0, e.g. --v=1)" --v=x
expect_error "regbench: --benchmark_frobnicate: unknown flag (regbench --help lists the flags)" --benchmark_frobnicate=1
expect_error "regbench: --benchmark_out_format: unknown value 'xml' (one of json, console, csv)" --benchmark_out=r.json --benchmark_out_format=xml
expect_error "regbench: --benchmark_format: unknown value 'tabular' (one of console, json, csv)" --benchmark_format=tabular
expect_error "regbench: --benchmark_color: unknown value 'blue' (one of auto, true, false, yes, no, 1, 0)" --benchmark_color=blue
expect_error "regbench: --benchmark_out: needs a value (e.g. --benchmark_out=FILE)" --benchmark_out=
expect_error "regbench: --benchmark_out: '/' is a folder (give a file name, e.g. /result.json)" --benchmark_out=/
expect_error "regbench: --benchmark_out: cannot create a file in '/nonexistent-regbench': No such file or directory (create the folder first)" --benchmark_out=/nonexistent-regbench/r.json
# a path the end could not use is refused before the run (results.sh has the cases that need files)
expect_error "regbench: --benchmark_out: 'nonexistent-regbench/' ends in /, which names a folder (give a file name, e.g. nonexistent-regbench/result.json)" --benchmark_out=nonexistent-regbench/
expect_error "regbench: --benchmark_out: '/dev/zero' is a device, not a file: a write that fails when the run ends would lose the results (give a file name; /dev/stdout, /dev/stderr and /dev/null work too)" --benchmark_out=/dev/zero
expect_error "regbench: --benchmark_out: cannot create a file in '/proc': No such file or directory (choose a folder you can write to)" --benchmark_out=/proc/version
# Google Benchmark reads the same flags from its environment, where these checks do not reach
for env in BENCHMARK_REPETITIONS=0:benchmark_repetitions BENCHMARK_OUT=x.json:benchmark_out BENCHMARK_LIST_TESTS=no:benchmark_list_tests; do
	want="regbench: ${env%%=*}: Google Benchmark would read this environment variable past regbench's checks (unset it, and give --${env#*:}=... instead)"
	err=$(env "${env%:*}" "$regbench" --benchmark_filter=^barrier/compiler --benchmark_min_time=0.001 2>&1 >/dev/null) &&
		{ echo "FAIL: ${env%:*} regbench succeeded"; fail=1; }
	if [ "$err" = "$want" ]; then echo "ok: ${env%:*} regbench -> $err"; else echo "FAIL: ${env%:*} regbench printed: $err"; fail=1; fi
done

# every argument is kept in the JSON, which holds UTF-8 only: bytes that are not are refused up front
utf8="the results are JSON, which holds UTF-8 text only: give it in UTF-8"
expect_error "regbench: --benchmark_context: 'a=\\xff': not valid UTF-8 at byte 3 ($utf8)" "--benchmark_context=a=$(printf '\377')"
expect_error "regbench: --benchmark_context: 'a=1,b=\\xc3(': not valid UTF-8 at byte 7 ($utf8)" "--benchmark_context=a=1,b=$(printf '\303(')"
expect_error "regbench: --benchmark_out: 'r\\xed\\xa0\\x80.json': not valid UTF-8 at byte 2 ($utf8)" "--benchmark_out=r$(printf '\355\240\200').json"
expect_error "regbench: --target: 'ram\\xc0\\xaf': not valid UTF-8 at byte 4 ($utf8)" --target "ram$(printf '\300\257')"
expect_error "regbench: command line: 'x\\xfe': not valid UTF-8 at byte 2 ($utf8)" "x$(printf '\376')"

# each flag once; regbench's own flags where they mean nothing
expect_error "regbench: --target: given twice: 'ram' and 'trap' (give it once)" --target=ram --target trap
expect_error "regbench: --benchmark_filter: given twice: 'lat' and 'chain' (give it once)" --benchmark_filter=lat --benchmark_filter=chain
expect_error "regbench: --cpu: given twice: '0' and '1' (give it once)" --cpu=0 --cpu=1
# a boolean is what it means, however spelt: bare and =yes are one value, =no another
expect_error "regbench: --benchmark_list_tests: given twice: 'true' and 'false' (give it once)" --benchmark_list_tests --benchmark_list_tests=no
names=$("$regbench" --benchmark_list_tests --benchmark_list_tests=yes --benchmark_filter='^barrier/mfence$' 2>&1); rc=$?
if [ "$rc" = 0 ] && [ "$names" = barrier/mfence ]; then echo "ok: --benchmark_list_tests and --benchmark_list_tests=yes: one value"
else echo "FAIL: --benchmark_list_tests and --benchmark_list_tests=yes: exit $rc, printed: $names"; fail=1; fi
expect_error "regbench: --strategy: an empty name in '' (names joined by commas, e.g. --strategy=relaxed,volatile)" --strategy=
expect_error "regbench: --strategy: an empty name in 'relaxed,' (names joined by commas, e.g. --strategy=relaxed,volatile)" --strategy=relaxed,
expect_error "regbench: --strategy: 'relaxed' given twice (name each strategy once)" --strategy=relaxed,volatile,relaxed
expect_error "regbench: --quick: takes no value (give --quick alone)" --quick=yes
expect_error "regbench: --allow-write: target 'ram' is not hardware: its write families run without it (drop --allow-write)" --allow-write=0+4
expect_error "regbench: --force: target 'trap' is not hardware: no driver can own it (drop --force)" --target=trap --force
expect_error "regbench: --list-targets: takes no other flag, and --target was given (run regbench --list-targets alone)" --list-targets --target=trap
expect_error "regbench: --frobnicate: unknown flag (regbench --help lists the flags)" --list-targets --frobnicate
expect_error "regbench: --self-check: measures the CPU's own primitives and ignores --target (give --self-check alone, or with --cpu=N)" --self-check --target=trap
expect_error "regbench: --self-check: measures the CPU's own primitives and ignores --benchmark_out (give --self-check alone, or with --cpu=N)" --self-check --benchmark_out=r.json
expect_error "regbench: --benchmark_list_tests: lists the names and runs nothing, so --benchmark_repetitions means nothing (drop one of them)" --benchmark_list_tests --benchmark_repetitions=5
expect_error "regbench: --benchmark_list_tests: lists the names and runs nothing, so --benchmark_out means nothing (drop one of them)" --benchmark_list_tests=true --benchmark_out=r.json
expect_error "regbench: --benchmark_out_format: there is no --benchmark_out file to write in it (add --benchmark_out=FILE)" --benchmark_out_format=json
expect_error "regbench: --benchmark_counters_tabular: only the console format has columns, and no output is console (drop it, or use --benchmark_format=console)" --benchmark_format=json --benchmark_counters_tabular=true
expect_error "regbench: --benchmark_color: only the console format has colours, and --benchmark_format is csv (drop it)" --benchmark_format=csv --benchmark_color=false
expect_error "regbench: results.json: not a flag (regbench --help lists the flags)" results.json

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

# --action says what a command line asks for, from regbench's own reading of it (scripts/run asks it)
action_is() {	# action_is WORD ARGS...
	want=$1; shift
	got=$("$regbench" --action "$@" 2>&1); rc=$?
	if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then echo "ok: --action $* -> $want"
	else echo "FAIL: --action $*: exit $rc, printed '$got', wanted '$want'"; fail=1; fi
}
action_is run
action_is run --target trap --quick --sizes 64 --benchmark_filter=^copy/
action_is run --benchmark_list_tests=no
action_is help --target ram -h
action_is list-targets --list-targets
action_is self-check --self-check --cpu 0
action_is list-tests --benchmark_list_tests
action_is list-tests --strategy relaxed --benchmark_list_tests=yes
action_is run --target --list-targets	# --list-targets is --target's value here, as regbench reads it
err=$("$regbench" --action --list-targets --quick 2>&1); rc=$?
if [ "$rc" = 2 ] && [ "$err" = "regbench: --list-targets: takes no other flag, and --quick was given (run regbench --list-targets alone)" ]; then
	echo "ok: --action on arguments regbench refuses: its one line, exit 2"
else
	echo "FAIL: --action --list-targets --quick: exit $rc, printed '$err'"; fail=1
fi

# The context: labels apart from the facts, the machine hashed (never its ids), the build's commit and architecture
out=$(mktemp) || exit 1
if "$regbench" --benchmark_filter='^barrier/mfence$' --benchmark_min_time=0.001 --benchmark_repetitions=1 \
	--benchmark_context=baseline=yes,accelerator=tcg --benchmark_out="$out" >/dev/null 2>&1; then
	got=$(/usr/bin/python3 - "$out" "$(cd "$(dirname "$0")/../../scripts" && pwd)" <<'PY'
import copy, json, os, re, sys
sys.path.insert(0, sys.argv[2])
from regbench_report import contract
doc = json.load(open(sys.argv[1]))
c = doc["context"]


def problem(key, value, where=None):
    """What the contract says of the run with context[key] (or context[where][key]) set to value."""
    d = copy.deepcopy(doc)
    (d["context"][where] if where else d["context"])[key] = value
    return contract.problem(d)


ids = [open(p).read().strip() for p in ("/etc/machine-id", "/sys/class/dmi/id/product_uuid") if os.access(p, os.R_OK)]
cpuinfo = open("/proc/cpuinfo").read()
checks = {
    "labels in the order given, apart": c["labels"] == {"baseline": "yes", "accelerator": "tcg"} and "baseline" not in c,
    "machine_id: 32 hex digits, or empty with nothing to hash": bool(re.fullmatch("[0-9a-f]{32}", c["machine_id"]))
                                                                 if ids else c["machine_id"] == "",
    "no identifier of the machine in the file": not any(i and i.lower() in json.dumps(c).lower() for i in ids),
    "arch: the machine's": c["arch"] == os.uname().machine,
    "regbench_commit: set": c["regbench_commit"] != "",
    "microcode as /proc/cpuinfo says, absent where it does not":
        ("microcode" in c) == bool(re.search(r"^microcode\s*: 0x", cpuinfo, re.M)),
    "as written keeps the contract": contract.problem(doc) is None,
    "a number as text that is no number is refused":
        problem("tsc_hz", "fast") == 'context.tsc_hz: expected a number as decimal text, got "fast"'
        and problem("timer_overhead_cycles", "") is not None and problem("env_sibling_busy", "") is None,
    "a key the table does not declare is refused":
        problem("tsc_hzz", "1") == "context: Additional properties are not allowed ('tsc_hzz' was unexpected)",
    "a label is text": problem("baseline", 1, "labels") == "context.labels.baseline: expected text, got 1",
    "a machine_id that is not a hash is refused": problem("machine_id", "4c4c4544-004a") is not None,
}
for what, ok in checks.items():
    print(("ok: " if ok else "FAIL: ") + "context " + what + ("" if ok else f": {c}"))
PY
)
	echo "$got"
	echo "$got" | grep -q '^FAIL' && fail=1
else
	echo "FAIL: a run with --benchmark_context labels failed"; fail=1
fi
rm -f "$out"

# --help ends with Google Benchmark's own flags
help=$("$regbench" --help)
if echo "$help" | grep -q '^benchmark \[--benchmark_list_tests' && echo "$help" | tail -1 | grep -qE '^ +\[--'; then
	echo "ok: --help ends with Google Benchmark's flags"
else
	echo "FAIL: --help does not end with Google Benchmark's flags:"; echo "$help" | tail -3 | sed 's/^/  /'; fail=1
fi

# --strategy narrows the accessor strategies and keeps the libc reference row
names=$("$regbench" --quick --strategy=string --benchmark_list_tests=true 2>/dev/null)
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
# 010 and 08 are decimal (ten, eight), never octal (eight, an error)
names=$("$regbench" --sizes=010,08,0x10 --counts=010 --benchmark_list_tests=true)
if [ "$(echo "$names" | grep '^copy/toio/kernel/' | tr '\n' ' ')" != "copy/toio/kernel/8 copy/toio/kernel/10 copy/toio/kernel/16 " ] ||
   [ "$(echo "$names" | grep '^rep/read32/relaxed/')" != rep/read32/relaxed/10 ]; then
	echo "FAIL: --sizes=010,08,0x10 --counts=010 lists:"; echo "$names" | grep -E '^(copy/toio/kernel|rep/read32/relaxed)/' | sed 's/^/  /'
	fail=1
else
	echo "ok: --sizes=010,08,0x10 --counts=010 are ten, eight, sixteen and ten"
fi
out=$("$regbench" --sizes=13 --strategy=iowrite32-copy --benchmark_filter='^copy/toio/iowrite32-copy/13$' 2>&1)
if echo "$out" | grep -q "skipped: it copies whole 4-byte words: 13 bytes is not a multiple of 4"; then
	echo "ok: a word copy skips a size that is not whole words"
else
	echo "FAIL: iowrite32-copy of 13 bytes:"; echo "$out" | tail -3 | sed 's/^/  /'; fail=1
fi
# Skipped benchmarks in a row with one reason (another architecture's barriers: eight arm64 ones on x86-64, four
# x86 ones on arm64) are one line on the console and in scripts/summary, not a row each
out=$(mktemp) || exit 1
console=$("$regbench" --benchmark_filter='^barrier/' --benchmark_min_time=0.001 --benchmark_repetitions=1 \
	--benchmark_out="$out" 2>/dev/null)
skipped=$(/usr/bin/python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["regbench"]["benchmarks"]
print(" ".join(n for n, e in b.items() if e["state"] == "skipped"))' "$out")
summary=$("$(dirname "$0")/../../scripts/summary" "$out")
set -- $skipped
for where in console summary; do
	text=$(eval echo '"$'$where'"')
	rows=0
	for name in $skipped; do
		rows=$((rows + $(echo "$text" | grep -c "^$name ")))
	done
	if [ $# -ge 2 ] && { [ "$rows" != 1 ] || ! echo "$text" | grep -q "^$1 .* $# skipped, $1 to "; }; then
		echo "FAIL: $where: the $# skipped barriers ($skipped) are $rows rows, not one line:"
		echo "$text" | sed 's/^/  /'; fail=1
	else
		echo "ok: $where: the $# skipped barriers are one line"
	fi
done
rm -f "$out"
exit $fail
