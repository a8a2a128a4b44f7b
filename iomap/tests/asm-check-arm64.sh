#!/bin/sh
# asm-check-arm64.sh: every arm64 accessor in asm-accessors.o issues exactly arm64 Linux v6.1's sequence for its strategy
#
# usage: asm-check-arm64.sh OBJECT
#
# Each function's body up to its ret is reduced to what the device sees and
# what orders it: loads and stores (ldrb/ldrh/ldr w/ldr x, the same for
# str, ldar and stlr; with the offset from the address, @0 or @4),
# barriers (dmb and dsb with their option), and the eor/cbnz dependency.
# Register-only instructions the compiler adds around them (mov, and, uxtb)
# are dropped; a call, another branch or any other memory access fails.
#   asm_ and seq_{read,write}BITS_ID[_imm]  the whole sequence, as below
#   asm_reload_{read,write}BITS_{ordered,relaxed}  the device access through
#       x0, and the normal loads of *p through x1: two for ordered (readl's
#       "memory" clobber forces the reload), one for relaxed
# The sequences (Linux v6.1, arch/arm64/include/asm/io.h and barrier.h):
#   ordered    read: ldr; dmb oshld; eor; cbnz    write: dmb oshst; str
#   relaxed    read: ldr                          write: str
#   volatile   the same as relaxed (the compiler's own ldr/str)
#   barriered  read: ldr; dsb ld                  write: dsb st; str
#   fenced     dsb sy; the access; dsb sy
#   acquire    ldar of the width; stlr of the width
#   lo_hi      readl of the word at +0, then of the word at +4 (writel the same);
#   hi_lo      +4 first
set -u

obj=${1:?usage: asm-check-arm64.sh OBJECT}
objdump=${OBJDUMP:-aarch64-linux-gnu-objdump}
command -v "$objdump" >/dev/null 2>&1 || objdump=objdump

dis=$(mktemp) || exit 1
trap 'rm -f "$dis"' EXIT
if ! "$objdump" -d --no-show-raw-insn "$obj" >"$dis" 2>/dev/null || ! grep -q 'aarch64' "$dis"; then
	echo "asm-check-arm64: $objdump cannot read $obj as arm64 code (Debian: apt-get install binutils-aarch64-linux-gnu)"
	exit 1
fi

awk '
# A number as objdump writes it (0x10 or 16).
function num(s,    v, i) {
	if (s !~ /^0x/)
		return s + 0
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

function acc(kind, bits,    r) {
	r = bits == 64 ? " x" : " w"
	if (bits == 8) return kind "b w"
	if (bits == 16) return kind "h w"
	return kind r
}
function seq(dir, bits, id,    ld, st, read, write) {
	ld = acc("ldr", bits) "@0"; st = acc("str", bits) "@0"
	if (id == "ordered") { read = ld "; dmb oshld; eor; cbnz"; write = "dmb oshst; " st }
	else if (id == "relaxed" || id == "volatile") { read = ld; write = st }
	else if (id == "barriered") { read = ld "; dsb ld"; write = "dsb st; " st }
	else if (id == "fenced") { read = "dsb sy; " ld "; dsb sy"; write = "dsb sy; " st "; dsb sy" }
	else if (id == "acquire") { read = acc("ldar", bits) "@0"; write = acc("stlr", bits) "@0" }
	else if (id == "lo_hi" || id == "hi_lo") {
		a = id == "lo_hi" ? "@0" : "@4"; b = id == "lo_hi" ? "@4" : "@0"
		read = "ldr w" a "; dmb oshld; eor; cbnz; ldr w" b "; dmb oshld; eor; cbnz"
		write = "dmb oshst; str w" a "; dmb oshst; str w" b
	} else return ""
	return (dir == "read" ? read : write) "; ret"
}

function finish(    dir, bits, id, want, n) {
	if (name !~ /^(asm|seq)_/)
		return
	seen[name] = 1
	checked++
	if (name ~ /^asm_reload_/) {
		dir = name ~ /_read/ ? "read" : "write"
		bits = name; sub(/^asm_reload_(read|write)/, "", bits); sub(/_.*/, "", bits)
		want = name ~ /_ordered$/ ? 2 : 1
		n = split(dev, parts, "; ")
		if (dev !~ (dir == "read" ? "ldr" : "str"))
			problems = problems "\n    no " dir " through x0 (" dev ")"
		if (normal != want)
			problems = problems "\n    " normal " loads of *p through x1, want " want
	} else if (match(name, /^(asm|seq)_(read|write)(8|16|32|64)_/)) {
		dir = name ~ /^(asm|seq)_read/ ? "read" : "write"
		bits = name; sub(/^(asm|seq)_(read|write)/, "", bits); sub(/_.*/, "", bits)
		id = name; sub(/^(asm|seq)_(read|write)(8|16|32|64)_/, "", id); sub(/_imm$/, "", id)
		want = seq(dir, bits + 0, id)
		if (want == "")
			problems = problems "\n    no sequence known for strategy " id
		else if (got != want)
			problems = problems "\n    issues: " got "\n    want:   " want
	} else {
		problems = problems "\n    name does not say what to expect"
	}
	if (problems != "") {
		printf "FAIL %s:%s\n%s", name, problems, body
		failed++
	} else {
		printf "ok   %-26s %s\n", name, name ~ /^asm_reload/ ? normal " load(s) of *p" : got
	}
}

/^[0-9a-f]+ <.*>:$/ {
	finish()
	name = $2; sub(/^</, "", name); sub(/>:$/, "", name)
	got = ""; dev = ""; normal = 0; problems = ""; body = ""; done = 0
	# where the device address is: x0, or x1 for a write that takes the value first
	split("", off)
	off[name ~ /^(asm|seq)_write/ && name !~ /_imm$/ ? "x1" : "x0"] = 0
	next
}

/^ *[0-9a-f]+:\t/ {
	if (name == "" || done)
		next
	text = $0; sub(/^ *[0-9a-f]+:\t/, "", text); sub(/[ \t]*\/\/.*$/, "", text)
	body = body "    | " text "\n"
	mnem = text; sub(/[ \t].*/, "", mnem)
	ops = text; sub(/^[^ \t]*[ \t]*/, "", ops); gsub(/ /, "", ops)
	tok = ""
	nops = split(ops, op, ",")
	if (mnem ~ /^(ld|st)/) {
		reg = substr(ops, 1, 1)
		base = ops; sub(/^[^[]*\[/, "", base); sub(/[],].*/, "", base)
		disp = 0
		if (ops ~ /,#(0x)?[0-9a-f]+\]/) { disp = ops; sub(/^.*,#/, "", disp); sub(/\].*/, "", disp); disp = num(disp) }
		at = base in off ? "@" (off[base] + disp) : "@?"
		tok = (mnem ~ /^(ldrb|ldrh|strb|strh|ldarb|ldarh|stlrb|stlrh)$/ ? mnem " w" : mnem " " reg) at
		if (mnem ~ /^ld/)
			delete off["x" substr(op[1], 2)]
		if (name ~ /^asm_reload_/) {
			if (ops ~ /\[x1\]/ && mnem ~ /^ld/) { normal++; next }
			dev = dev (dev == "" ? "" : "; ") tok
			next
		}
	} else if (mnem == "add" && nops == 3 && op[3] ~ /^#/ && (op[2] in off)) {
		off[op[1]] = off[op[2]] + num(substr(op[3], 2))
	} else if (mnem !~ /^(cb|b|ret|dmb|dsb|isb)/ && op[1] ~ /^[wx][0-9]+$/) {
		delete off["x" substr(op[1], 2)]
	}
	if (mnem == "dmb" || mnem == "dsb") {
		tok = mnem " " ops
	} else if (mnem == "eor" || mnem == "cbnz" || mnem == "ret") {
		tok = mnem
	} else if (mnem ~ /^(b|bl|blr|br|cbz|tbz|tbnz|isb|stp|ldp)$/ || mnem ~ /^b\./) {
		tok = mnem " (unexpected)"
	}
	if (tok != "" && name !~ /^asm_reload_/)
		got = got (got == "" ? "" : "; ") tok
	if (mnem == "ret")
		done = 1
}

END {
	finish()
	split("8 16 32 64", widths, " ")
	split("ordered relaxed volatile barriered fenced acquire", strategies, " ")
	for (w = 1; w <= 4; w++)
		for (d = 0; d < 2; d++) {
			dir = d ? "write" : "read"
			for (s = 1; s <= 6; s++) {
				want = "seq_" dir widths[w] "_" strategies[s]
				if (!(want in seen)) { printf "FAIL %s: missing from the object\n", want; failed++ }
			}
			for (s = 1; s <= 3; s++) {
				want = "asm_" dir widths[w] "_" strategies[s]
				if (!(want in seen)) { printf "FAIL %s: missing from the object\n", want; failed++ }
			}
			for (s = 1; s <= 2; s++) {
				want = "asm_reload_" dir widths[w] "_" strategies[s]
				if (!(want in seen)) { printf "FAIL %s: missing from the object\n", want; failed++ }
			}
		}
	for (d = 0; d < 2; d++)
		for (s = 0; s < 2; s++) {
			want = "seq_" (d ? "write" : "read") "64_" (s ? "hi_lo" : "lo_hi")
			if (!(want in seen)) { printf "FAIL %s: missing from the object\n", want; failed++ }
		}
	if (failed) {
		printf "asm-check-arm64: FAILED (%d)\n", failed
		exit 1
	}
	printf "asm-check-arm64: %d functions: each accessor issues arm64 Linux v6.1'"'"'s sequence for its strategy; readl reloads across, readl_relaxed not\n", checked
}' "$dis"
