#!/bin/sh
# results.sh: results are never lost or corrupted: interruption, a full disk, a vanished folder, /dev/stdout, pipes, strict JSON
#
# usage: results.sh REGBENCH [PROGRAM]
#
# PROGRAM is regbench's own file when REGBENCH is a script that runs it under an emulator (a
# cross build's qemu-user): the file a result's command_line names.
#
# Each case runs regbench on ram and checks what it leaves: the exit status, one line on stderr
# for a failure, the result file whole and strict (Debian's /usr/bin/python3 json, NaN and
# Infinity refused) or absent, a previous file of that name untouched, and no temporary file.
. "$(dirname "$0")/results-lib.sh"

# Interrupted by SIGNAL: exit 128+signo, the JSON strict and whole with the context key, no temporary file.
for sig in INT:2 TERM:15 HUP:1 USR1:10 ALRM:14; do
	want=$((128 + ${sig#*:}))
	sig=${sig%:*}
	dir=$tmp/$sig
	mkdir "$dir"
	: >"$tmp/console"	# before the start: the previous run's lines would read as this one's
	"$regbench" $long --benchmark_out="$dir/r.json" >"$tmp/console" 2>"$tmp/err" &
	pid=$!
	if ! started "$tmp/console"; then
		kill "$pid"; wait "$pid"; bad "SIG$sig: no first result within 120 s"; continue
	fi
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	why=$(strict "$dir/r.json")
	if [ "$rc" = "$want" ] && [ -z "$why" ] &&
	   [ "$(field "$dir/r.json" 'd["context"]["interrupted"]')" = "SIG$sig" ] &&
	   [ "$(field "$dir/r.json" 'sum(b["state"] == "not_run" and b["reason"] == "the run was interrupted" for b in d["regbench"]["benchmarks"].values()) > 0')" = True ] &&
	   [ "$(field "$dir/r.json" 'sum(b["state"] in ("measured", "below_resolution") for b in d["regbench"]["benchmarks"].values()) > 0')" = True ] &&
	   [ "$(ls -A "$dir")" = r.json ]; then
		ok "SIG$sig mid-run: exit $rc, strict JSON with context interrupted=SIG$sig, results from before it and not-run benchmarks, nothing else left"
	else
		bad "SIG$sig mid-run: exit $rc (want $want), JSON: ${why:-strict}, files: $(ls -A "$dir" | tr '\n' ' '), states: $(field "$dir/r.json" 'sorted(collections.Counter((b["state"], b["reason"][:20]) for b in d["regbench"]["benchmarks"].values()).items())' 2>&1)"
	fi
done


# The console's reader gone (regbench ... | head -1): SIGPIPE stops the run as SIGINT does; its JSON is kept.
dir=$tmp/pipe
mkdir "$dir"
{ "$regbench" $long --benchmark_out="$dir/r.json" 2>/dev/null; echo $? >"$tmp/rc"; } | head -1 >/dev/null
kept "$dir" SIGPIPE "regbench ... | head -1" "$(cat "$tmp/rc")" 141

# A terminal that hangs up (the window closed, ssh dropped): SIGHUP from the kernel, writes to the terminal failing after it.
dir=$tmp/tty
mkdir "$dir"
: >"$tmp/console"
cat >"$tmp/tty.sh" <<EOF
exec "$regbench" '--benchmark_filter=^(lat|thrpt)/' --benchmark_repetitions=5 --benchmark_out="$dir/r.json" 2>&1
EOF
setsid script -qfec "sh $tmp/tty.sh" /dev/null >"$tmp/console" 2>&1 </dev/null &
term=$!
if started "$tmp/console"; then
	kill -KILL "$term"	# the terminal's master side closes: its session gets SIGHUP
	wait "$term"
	# regbench is not this shell's child: its status is not ours to see, its result file (renamed whole) is
	n=0
	while [ ! -e "$dir/r.json" ] && [ $n -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
	kept "$dir" SIGHUP "its terminal hung up"
else
	kill "$term"; wait "$term"; bad "its terminal hung up: no first result within 120 s"
fi

# Signals that come again and again (every write to the closed pipe, every second past a soft CPU-time limit) never
# count as asked twice; a second SIGINT, SIGTERM or SIGHUP stops the run at once, leaving nothing half-written.
dir=$tmp/again
mkdir "$dir"
: >"$tmp/console"
"$regbench" $long --benchmark_out="$dir/r.json" >"$tmp/console" 2>/dev/null &
pid=$!
started "$tmp/console" && kill -PIPE "$pid" && sleep 0.05 && kill -PIPE "$pid" 2>/dev/null	# unless it has ended
wait "$pid"
kept "$dir" SIGPIPE "SIGPIPE twice" $? 141
dir=$tmp/cpu
mkdir "$dir"
(ulimit -S -t 3 && exec "$regbench" $long --benchmark_out="$dir/r.json" >/dev/null 2>&1)
kept "$dir" SIGXCPU "past a soft CPU-time limit (ulimit -S -t 3)" $? 152
dir=$tmp/twice
mkdir "$dir"
: >"$tmp/console"
"$regbench" $long --benchmark_out="$dir/r.json" >"$tmp/console" 2>/dev/null &
pid=$!
started "$tmp/console" && kill -HUP "$pid" && kill -TERM "$pid"
wait "$pid"
rc=$?
# both pending at once, the kernel runs SIGTERM's handler first, then SIGHUP's, which ends the process
if { [ "$rc" = 129 ] || [ "$rc" = 143 ]; } && [ -z "$(ls -A "$dir")" ]; then
	ok "SIGHUP then SIGTERM: stopped at once (exit $rc), nothing left"
else
	bad "SIGHUP then SIGTERM: exit $rc (want 129 or 143), files: $(ls -A "$dir" | tr '\n' ' ')"
fi

# An allocation that fails (a _rep buffer of 2^24 64-bit elements, 128 MiB, under a 100 MB memory limit) is that
# benchmark's error; the others are measured and the JSON kept (exit 1: a benchmark failed).
# Under an emulator the limit is the emulator's own address space, which qemu-user's reservation for
# its guest and code cache alone exceeds: the case cannot run there.
dir=$tmp/memory
mkdir "$dir"
if [ "$program" != "$regbench" ]; then
	echo "skipped: out of memory in a benchmark: ulimit -v would limit the emulator's address space (qemu-user reserves more than 100 MB for itself), not regbench's"
else
	(ulimit -v 100000 && exec "$regbench" --benchmark_filter='^rep/read64/relaxed/' --counts=16,16m --benchmark_repetitions=2 \
		--benchmark_min_time=0.01 --benchmark_out="$dir/r.json" >/dev/null 2>&1)
	rc=$?
	states=$(field "$dir/r.json" '" ".join(b["state"] + ":" + b["reason"] for n, b in sorted(d["regbench"]["benchmarks"].items(), key=lambda i: i[1]["param"]))' 2>&1)
	if [ "$rc" = 1 ] && [ -z "$(strict "$dir/r.json")" ] && [ "$(ls -A "$dir")" = r.json ] &&
	   echo "$states" | grep -qx "\(measured\|below_resolution\): error:out of memory (std::bad_alloc) for its 134217728-byte buffer"; then
		ok "out of memory in a benchmark (ulimit -v): that benchmark's error, the rest measured, the JSON kept"
	else
		bad "out of memory in a benchmark: exit $rc, states: $states"
	fi
fi

# Past the file-size limit: one line, the previous file untouched, no temporary file (SIGXFSZ would have left one).
dir=$tmp/fsize
mkdir "$dir"
echo "previous results" >"$dir/r.json"
(ulimit -f 8 && exec "$regbench" $quick --benchmark_out="$dir/r.json" >/dev/null 2>"$tmp/err")
rc=$?
line=$(errors "$tmp/err")
if [ "$rc" = 1 ] && [ "$line" = "regbench: --benchmark_out=$dir/r.json: cannot write the results: File too large (raise the file-size limit, ulimit -f, or write elsewhere)" ] &&
   [ "$(cat "$dir/r.json")" = "previous results" ] && [ "$(ls -A "$dir")" = r.json ]; then
	ok "past the file-size limit (ulimit -f): exit 1, one line, the previous file untouched, no temporary file"
else
	bad "past the file-size limit: exit $rc, printed '$line', files: $(ls -A "$dir" | tr '\n' ' ')"
fi

# rescued LINE PREFIX WHAT: LINE is PREFIX and "(the results are whole in FILE instead: ...)", FILE a strict
# result file in $tmp/rescue with WHAT's benchmarks; prints nothing when so, else what is wrong.
rescued() {
	file=$(printf '%s\n' "$1" | sed -n "s|^$2 (the results are whole in \($tmp/rescue/regbench-rescued-.*\.json\) instead: move them where they belong)\$|\1|p")
	if [ -z "$file" ]; then
		echo "no rescue named"
	elif [ -n "$(strict "$file")" ] || [ "$(field "$file" 'len(d["regbench"]["benchmarks"])')" = 0 ]; then
		echo "$file: $(strict "$file")"
	fi
}
mkdir "$tmp/rescue"

# A full disk: a small tmpfs where we may mount one (root).  The results go whole to $TMPDIR instead.
full_disk() {	# full_disk FOLDER: the previous r.json stays, no other file appears
	echo "previous results" >"$1/r.json"
	dd if=/dev/zero of="$1/fill" bs=1k count=1024 2>/dev/null
	TMPDIR=$tmp/rescue "$regbench" $quick --benchmark_out="$1/r.json" >/dev/null 2>"$tmp/err"
	rc=$?
	line=$(errors "$tmp/err")
	why=$(rescued "$line" "regbench: --benchmark_out=$1/r.json: cannot write the results: No space left on device")
	if [ "$rc" = 1 ] && [ -z "$why" ] && [ "$(cat "$1/r.json")" = "previous results" ] &&
	   [ "$(ls -A "$1" | tr '\n' ' ')" = "fill r.json " ]; then
		ok "a full disk: exit 1, one line, the previous file untouched, no partial or temporary file, the results whole in \$TMPDIR"
	else
		bad "a full disk: exit $rc, printed '$line' ($why), files: $(ls -A "$1" | tr '\n' ' ')"
	fi
}
small=$tmp/small
mkdir "$small"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k regbench-test "$small" 2>/dev/null; then
	full_disk "$small"
	umount "$small"
else
	small=
	echo "skip: a full tmpfs (not root, or no mount here)"
fi

# The output folder removed during the run: one line, non-zero, nothing recreated, the results whole in $TMPDIR.
dir=$tmp/gone
mkdir "$dir"
TMPDIR=$tmp/rescue "$regbench" --benchmark_filter='^lat/read' --benchmark_out="$dir/r.json" >"$tmp/console" 2>"$tmp/err" &
pid=$!
started "$tmp/console"
rm -rf "$dir"
wait "$pid"
rc=$?
line=$(errors "$tmp/err")
why=$(rescued "$line" "regbench: --benchmark_out=$dir/r.json: cannot create the result file: No such file or directory")
if [ "$rc" = 1 ] && [ ! -e "$dir" ] && [ -z "$why" ]; then
	ok "the folder removed during the run: exit 1, one line, the results whole in \$TMPDIR"
else
	bad "the folder removed during the run: exit $rc, printed '$line' ($why)"
fi

# stdout is written as a file is: on a full disk (/dev/full) it is an error, one line, exit 1, and the results
# go whole to $TMPDIR, as a failed --benchmark_out's do; with a result file that holds them, the line names it.
# stdout_full WHAT PREFIX ARGS...: regbench ARGS >/dev/full printed PREFIX and the rescue, exit 1
stdout_full() {
	what=$1 prefix=$2; shift 2
	TMPDIR=$tmp/rescue "$regbench" $quick "$@" >/dev/full 2>"$tmp/err"
	rc=$?
	line=$(errors "$tmp/err")
	why=$(rescued "$line" "$prefix")
	if [ "$rc" = 1 ] && [ -z "$why" ]; then
		ok "$what to a full stdout: exit 1, one line, the results whole in \$TMPDIR"
	else
		bad "$what to a full stdout: exit $rc, printed '$line' ($why)"
	fi
}
stdout_full "--benchmark_format=json" "regbench: stdout: cannot write the results: No space left on device" \
	--benchmark_format=json
stdout_full "--benchmark_format=csv" "regbench: stdout: cannot write the results: No space left on device" \
	--benchmark_format=csv
stdout_full "the console" "regbench: stdout: cannot write the console: No space left on device"
stdout_full "the console beside a console-format result file" \
	"regbench: stdout: cannot write the console: No space left on device" \
	--benchmark_out="$tmp/console.txt" --benchmark_out_format=console
before=$(ls "$tmp/rescue" | wc -l)
"$regbench" $quick --benchmark_out="$tmp/kept.json" >/dev/full 2>"$tmp/err"
rc=$?
line=$(errors "$tmp/err")
if [ "$rc" = 1 ] && [ "$line" = "regbench: stdout: cannot write the console: No space left on device (the results are whole in $tmp/kept.json)" ] &&
   [ -z "$(strict "$tmp/kept.json")" ] && [ "$(ls "$tmp/rescue" | wc -l)" = "$before" ]; then
	ok "the console to a full stdout beside a JSON result file: exit 1, one line naming the file, no rescue"
else
	bad "the console to a full stdout beside a JSON result file: exit $rc, printed '$line'"
fi
# a reader that closes the pipe (regbench | true): SIGPIPE stops the run, and what it measured is rescued
{ TMPDIR=$tmp/rescue "$regbench" --benchmark_filter='^(lat|barrier)/' --benchmark_repetitions=1 2>"$tmp/err"; echo $? >"$tmp/rc"; } | true
line=$(grep '^regbench: stdout: ' "$tmp/err")
why=$(rescued "$line" "regbench: stdout: cannot write the console: Broken pipe")
file=$(printf '%s\n' "$line" | sed -n 's|.*whole in \(.*\) instead.*|\1|p')
if [ "$(cat "$tmp/rc")" = 141 ] && [ -z "$why" ] && [ "$(field "$file" 'd["context"]["interrupted"]')" = SIGPIPE ]; then
	ok "the console to a closed pipe: exit 141, one line, what was measured whole in \$TMPDIR"
else
	bad "the console to a closed pipe: exit $(cat "$tmp/rc"), printed '$line' ($why)"
fi
"$regbench" --benchmark_list_tests=true >/dev/full 2>"$tmp/err"
rc=$?
line=$(errors "$tmp/err")
if [ "$rc" = 1 ] && [ "$line" = "regbench: stdout: cannot write: No space left on device (check where stdout goes)" ]; then
	ok "--benchmark_list_tests to a full stdout: exit 1, one line"
else
	bad "--benchmark_list_tests to a full stdout: exit $rc, printed '$line'"
fi

# /dev/stdout into a pipe and into a file: the console, then the whole JSON; no hang.
# console_then_json RC FILE WHAT: regbench exited RC, FILE holds its console lines and then strict JSON.
console_then_json() {
	sed -n '/^{$/,$p' "$2" >"$2.json"
	why=$(strict "$2.json")
	if [ "$1" = 0 ] && [ -z "$why" ] && grep -q '^barrier/' "$2"; then
		ok "--benchmark_out=/dev/stdout $3: the console, then strict JSON"
	else
		bad "--benchmark_out=/dev/stdout $3: exit $1, JSON: ${why:-strict}"
	fi
}
{ timeout 120 "$regbench" $quick --benchmark_out=/dev/stdout 2>/dev/null; echo $? >"$tmp/rc"; } | cat >"$tmp/piped"
console_then_json "$(cat "$tmp/rc")" "$tmp/piped" "into a pipe"
timeout 120 "$regbench" $quick --benchmark_out=/dev/stdout >"$tmp/file" 2>/dev/null
console_then_json $? "$tmp/file" "into a file"

# A pipe this process was given (as a shell's >(command) passes one, /dev/fd/N), and /dev/null: written as they
# are; a symbolic link written through, not replaced.
{ timeout 120 "$regbench" $quick --benchmark_out=/dev/fd/3 3>&1 >/dev/null 2>/dev/null; echo $? >"$tmp/rc"; } | cat >"$tmp/fd3.json"
why=$(strict "$tmp/fd3.json")
if [ "$(cat "$tmp/rc")" = 0 ] && [ -z "$why" ]; then
	ok "--benchmark_out=/dev/fd/3, a pipe: strict JSON through it"
else
	bad "--benchmark_out=/dev/fd/3, a pipe: exit $(cat "$tmp/rc"), JSON: ${why:-strict}"
fi
timeout 120 "$regbench" $quick --benchmark_out=/dev/null >/dev/null 2>&1
rc=$?
if [ "$rc" = 0 ]; then ok "--benchmark_out=/dev/null: exit 0"; else bad "--benchmark_out=/dev/null: exit $rc"; fi
echo old >"$tmp/target.json"
ln -s target.json "$tmp/link.json"
"$regbench" $quick --benchmark_out="$tmp/link.json" >/dev/null 2>&1
rc=$?
if [ "$rc" = 0 ] && [ -L "$tmp/link.json" ] && [ -z "$(strict "$tmp/target.json")" ]; then
	ok "a symbolic link: written through, still a link"
else
	bad "a symbolic link: exit $rc, link kept: $([ -L "$tmp/link.json" ] && echo yes || echo no)"
fi

# Never measure, then throw the results away: a path the end could not use is refused before any benchmark runs
# (within 60 s, nothing on stdout, one line), and nothing is left behind.
# refused WHAT LINE ARGS...
refused() {
	what=$1 want=$2; shift 2
	timeout 60 "$regbench" $quick "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ]; then
		ok "$what: refused before the run, one line"
	else
		bad "$what: exit $rc (124: a hang), printed: $(head -c 300 "$tmp/err") $(head -c 100 "$tmp/out")"
	fi
}
dir=$tmp/paths
mkdir "$dir"
name=$(printf "%0250d" 0 | tr 0 n)
refused "a folder-style path" "regbench: --benchmark_out: '$dir/newdir/' ends in /, which names a folder (give a file name, e.g. $dir/newdir/result.json)" \
	--benchmark_out="$dir/newdir/"
echo "previous results" >"$dir/r.json"
refused "a file's name with / after it" "regbench: --benchmark_out: '$dir/r.json/' ends in /, which names a folder (give a file name, e.g. $dir/r.json)" \
	--benchmark_out="$dir/r.json/"
refused "a 256-byte name" "regbench: --benchmark_out: the name '$(printf %.60s "$name")...$(printf %.11s "$name").jsonx' is 256 bytes, more than the 255 its folder takes (a shorter name)" \
	--benchmark_out="$dir/$name.jsonx"
mkfifo "$dir/fifo"
refused "a named pipe, no reader (the end would have hung)" "regbench: --benchmark_out: '$dir/fifo' is a named pipe, not a file: a write that fails when the run ends would lose the results (give a file name; /dev/stdout, /dev/stderr and /dev/null work too)" \
	--benchmark_out="$dir/fifo"
rm "$dir/fifo"
refused "/dev/full" "regbench: --benchmark_out: '/dev/full' is a device, not a file: a write that fails when the run ends would lose the results (give a file name; /dev/stdout, /dev/stderr and /dev/null work too)" \
	--benchmark_out=/dev/full
if [ "$(ls -A "$dir")" = r.json ] && [ "$(cat "$dir/r.json")" = "previous results" ]; then
	ok "refused paths: nothing created, the previous file untouched"
else
	bad "refused paths left: $(ls -A "$dir" | tr '\n' ' ')"
fi
# a legal 255-byte name: its temporary file's name is cut to fit the folder, the results land whole
"$regbench" $quick --benchmark_out="$dir/$name.json" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ -z "$(strict "$dir/$name.json")" ] && [ "$(ls -A "$dir" | sort | tr '\n' ' ')" = "$name.json r.json " ]; then
	ok "a 255-byte name: the results in place, strict, no temporary file left"
else
	bad "a 255-byte name: exit $rc, printed '$(errors "$tmp/err")', files: $(ls -A "$dir" | tr '\n' ' ')"
fi
# as root: a folder on a read-only file system; a file another user owns in a sticky folder, run as nobody
if [ "$(id -u)" = 0 ] && mkdir "$tmp/ro" && mount -t tmpfs -o ro,size=64k regbench-ro "$tmp/ro" 2>/dev/null; then
	refused "a read-only folder" "regbench: --benchmark_out: cannot create a file in '$tmp/ro': Read-only file system (choose a folder you can write to)" \
		--benchmark_out="$tmp/ro/r.json"
	umount "$tmp/ro"
else
	echo "skip: a read-only folder (not root, or no mount here)"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && mkdir -m 1777 "$tmp/sticky" && chmod o+x "$tmp" &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$regbench" --help >/dev/null 2>&1; then
	echo "root's results" >"$tmp/sticky/r.json"
	timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$regbench" $quick --benchmark_out="$tmp/sticky/r.json" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/sticky/r.json")" = "root's results" ] &&
	   [ "$(cat "$tmp/err")" = "regbench: --benchmark_out: '$tmp/sticky/r.json' belongs to another user in a sticky folder, $tmp/sticky, where only they may replace it (choose another name)" ]; then
		ok "another user's file in a sticky folder: refused before the run, one line, the file untouched"
	else
		bad "another user's file in a sticky folder: exit $rc, printed: $(cat "$tmp/err")"
	fi
else
	echo "skip: another user's file in a sticky folder (not root, no setpriv, or nobody cannot run regbench here)"
fi

# CSV, on stdout and in the file: Google Benchmark's takes its columns from the first runs and aborted on a
# later one with more counters (a skipped benchmark, which has none, then a measured one): it gets them all at once.
csv='--benchmark_filter=^(thrpt/read32/io-delay|rep/read8/volatile/16)$'
"$regbench" "$csv" --counts=16 --benchmark_min_time=0.001 --benchmark_repetitions=1 --benchmark_format=csv \
	--benchmark_out="$tmp/r.csv" --benchmark_out_format=csv >"$tmp/stdout.csv" 2>"$tmp/err"
rc=$?
for f in "$tmp/stdout.csv" "$tmp/r.csv"; do
	if [ "$rc" = 0 ] && grep -q '^name,.*,"cycles"' "$f" && [ "$(grep -c '^"\(thrpt\|rep\)/' "$f")" = 2 ]; then
		ok "$(basename "$f"): a skipped benchmark, then a measured one: both rows, the counters' columns"
	else
		bad "$(basename "$f"): exit $rc, printed: $(errors "$tmp/err" | head -2)"
	fi
done
# a --benchmark_context pair given twice alike is one pair, never a key "regbench sets itself"
"$regbench" $quick --benchmark_context=run=a --benchmark_context=run=a,lab=b --benchmark_out="$tmp/ctx.json" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(field "$tmp/ctx.json" 'd["context"]["labels"]')" = "{'run': 'a', 'lab': 'b'}" ]; then
	ok "--benchmark_context=run=a twice: one pair"
else
	bad "--benchmark_context=run=a twice: exit $rc, printed: $(cat "$tmp/err")"
fi

# JSON on stdout is strict, and a command line with NaN in it comes back verbatim, there and in the file.
filter='--benchmark_filter=NaN|^barrier/'
"$regbench" "$filter" --benchmark_min_time=0.001 --benchmark_format=json --benchmark_out="$tmp/nan.json" \
	>"$tmp/stdout.json" 2>/dev/null
rc=$?
line="$program $filter --benchmark_min_time=0.001 --benchmark_format=json --benchmark_out=$tmp/nan.json"
for f in "$tmp/stdout.json" "$tmp/nan.json"; do
	why=$(strict "$f")
	if [ "$rc" = 0 ] && [ -z "$why" ] && [ "$(field "$f" 'd["context"]["command_line"]')" = "$line" ]; then
		ok "$(basename "$f"): strict JSON, the command line with NaN verbatim"
	else
		bad "$(basename "$f"): exit $rc, JSON: ${why:-strict}, command_line: $(field "$f" 'd["context"]["command_line"]' 2>&1)"
	fi
done

# Control characters in a label and in the result's name: escaped, strict, read back as given.
ctl=$(printf 'a\001b\tc\033[1md\177')
name="$tmp/$(printf 'r\002\nx').json"
"$regbench" $quick "--benchmark_context=note=$ctl" --benchmark_out="$name" >/dev/null 2>&1
rc=$?
why=$(strict "$name")
if [ "$rc" = 0 ] && [ -z "$why" ] && [ "$(field "$name" 'd["context"]["labels"]["note"] == sys.argv[3]' "$ctl")" = True ] &&
   [ "$(field "$name" 'sys.argv[3] in d["context"]["command_line"]' "$name")" = True ]; then
	ok "control characters in a label and the result's name: strict JSON, read back as given"
else
	bad "control characters: exit $rc, JSON: ${why:-strict}, note: $(field "$name" 'repr(d["context"]["labels"].get("note"))' 2>&1)"
fi

# The metadata speaks of the benchmarks the run had, not of those the filter left out.
names=$(field "$tmp/nan.json" '" ".join(sorted(d["regbench"]["benchmarks"]))')
ran=$(field "$tmp/nan.json" '" ".join(sorted({b["run_name"] for b in d["benchmarks"]}))')
if [ -n "$names" ] && [ "$names" = "$ran" ]; then
	ok "a filtered run's metadata: the $(echo "$names" | wc -w) benchmarks it ran, no other"
else
	bad "a filtered run's metadata names '$names', the run '$ran'"
fi
exit $fail
