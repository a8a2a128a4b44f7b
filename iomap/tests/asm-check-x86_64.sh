#!/bin/sh
# asm-check-x86_64.sh: every accessor in asm-accessors.o is exactly one mov of its width; readl has a compiler barrier, readl_relaxed not
#
# usage: asm-check-x86_64.sh OBJECT
#
# For each function asm_{read,write}BITS_STRATEGY[_imm] the body (up to its
# ret) must hold exactly one instruction with a memory operand, a mov whose
# memory side is BITS wide: the source for a read, the destination for a
# write.  A write may store an immediate.  Calls, pushes and pops are extra
# memory traffic and fail too.  objdump's "suffix" option spells every width
# out (movl, movzbl), so the width is read from the mnemonic whatever form the
# compiler chose: a volatile 8-bit read may be movzbl, still one byte read.
#
# For each asm_reload_{read,write}BITS_{ordered,relaxed}, a normal load of *p
# (the second argument, %rsi) sits before the device access (through the
# first, %rdi) and again after it: the access through %rdi must still be one
# mov of BITS, and the loads through %rsi must be two for ordered (readl's
# "memory" clobber forces the reload) and one for relaxed (readl_relaxed has
# none, and the compiler did use that freedom).
set -u

obj=${1:?usage: asm-check-x86_64.sh OBJECT}

if ! command -v objdump >/dev/null 2>&1; then
	echo "asm-check: objdump is not installed (Debian: apt-get install binutils)"
	exit 1
fi
dis=$(mktemp) || exit 1
trap 'rm -f "$dis"' EXIT
if ! objdump -d --no-show-raw-insn -M att,suffix "$obj" >"$dis"; then
	echo "asm-check: objdump cannot read $obj"
	exit 1
fi

awk '
# The memory width a mov-family mnemonic names, or 0 for anything else.
function width(m,    c) {
	if (m ~ /^mov[bwlq]$/)
		c = substr(m, 4, 1)
	else if (m ~ /^mov[sz][bwl][wlq]$/)	# movzbl: the b is the memory side of a load
		c = substr(m, 5, 1)
	else if (m ~ /^movabs[bwlq]$/)
		c = substr(m, 7, 1)
	else
		return 0
	return c == "b" ? 8 : c == "w" ? 16 : c == "l" ? 32 : 64
}

function problem(msg) {
	problems = problems "\n    " msg
}

function finish(    dir, bits, m, ops) {
	if (name == "" || name !~ /^asm_/)
		return
	seen[name] = 1
	checked++
	if (name ~ /^asm_reload_/) {
		reload()
		return
	}
	if (!match(name, /^asm_(read|write)(8|16|32|64)_[a-z]+(_imm)?$/)) {
		problem("name does not say what to expect")
	} else {
		dir = name ~ /^asm_read/ ? "read" : "write"
		bits = name; sub(/^asm_(read|write)/, "", bits); sub(/_.*/, "", bits)
		if (!ret_seen)
			problem("no ret")
		if (nmem != 1) {
			problem(nmem " memory instructions, want exactly 1")
		} else {
			m = mem_mnem; ops = mem_ops
			if (width(m) == 0)
				problem("the access is \"" m "\", not a mov")
			else if (width(m) != bits + 0)
				problem("the access is " width(m) " bits wide, want " bits)
			if (dir == "read" && ops !~ /^[^,$%]*\([^)]*\),%[a-z0-9]+$/)
				problem("the access does not load memory into a register")
			if (dir == "write" && ops !~ /^(\$[^,]+|%[a-z0-9]+),[^,$%]*\([^)]*\)$/)
				problem("the access does not store a register or immediate to memory")
		}
	}
	if (problems != "") {
		printf "FAIL %s:%s\n%s\n", name, problems, body
		failed++
	} else {
		printf "ok   %-26s %s %s\n", name, mem_mnem, mem_ops
	}
}

# asm_reload_*: the one device access through %rdi, and the normal loads through %rsi.
function reload(    dir, bits, want) {
	if (!match(name, /^asm_reload_(read|write)(8|16|32|64)_(ordered|relaxed)$/)) {
		problem("name does not say what to expect")
	} else {
		dir = name ~ /_read/ ? "read" : "write"
		bits = name; sub(/^asm_reload_(read|write)/, "", bits); sub(/_.*/, "", bits)
		want = name ~ /_ordered$/ ? 2 : 1
		if (ndev != 1 || width(dev_mnem) != bits + 0)
			problem(ndev " accesses through %rdi (" dev_mnem "), want one " bits "-bit mov")
		if (nnormal != want)
			problem(nnormal " loads of *p through %rsi, want " want \
				(want == 2 ? " (the compiler barrier forces a reload)" : " (no barrier: the load is reused)"))
	}
	if (problems != "") {
		printf "FAIL %s:%s\n%s\n", name, problems, body
		failed++
	} else {
		printf "ok   %-26s %s, %d load(s) of *p\n", name, dev_mnem, nnormal
	}
}

/^[0-9a-f]+ <.*>:$/ {
	finish()
	name = $2; sub(/^</, "", name); sub(/>:$/, "", name)
	nmem = 0; ret_seen = 0; problems = ""; body = ""; mem_mnem = ""; mem_ops = ""
	ndev = 0; nnormal = 0; dev_mnem = ""
	next
}

/^ *[0-9a-f]+:\t/ {
	if (name == "")
		next
	text = $0; sub(/^ *[0-9a-f]+:\t/, "", text)
	body = body "    | " text "\n"
	if (ret_seen) {
		# alignment padding between functions
		if (text !~ /nop/ && text !~ /^xchgw? +%ax,%ax$/ && text !~ /^int3/)
			problem("code after ret: " text)
		next
	}
	n = split(text, f, /[ \t]+/)
	i = 1
	while (i < n && f[i] ~ /^(lock|rep|repz|repnz|data16|cs|ds|es|fs|gs|ss|notrack|bnd)$/)
		i++
	mnem = f[i]; ops = ""
	for (j = i + 1; j <= n; j++)
		ops = ops f[j]
	if (mnem ~ /^ret/) {
		ret_seen = 1
	} else if (mnem ~ /^(call|jmp|push|pop|enter|leave)/) {
		problem("unexpected " mnem ": the accessor did not compile to one access")
	} else if (ops ~ /\(/ && mnem !~ /^(nop|lea)/) {
		nmem++; mem_mnem = mnem; mem_ops = ops
		if (ops ~ /\(%rdi\)/) {
			ndev++; dev_mnem = mnem
		} else if (ops ~ /\(%rsi\)/) {
			nnormal++
		}
	}
}

END {
	finish()
	# every accessor the test means to cover is really in the object
	split("8 16 32 64", widths, " ")
	split("ordered relaxed volatile", strategies, " ")
	for (w = 1; w <= 4; w++)
		for (s = 1; s <= 3; s++)
			for (d = 0; d < 2; d++) {
				want = "asm_" (d ? "write" : "read") widths[w] "_" strategies[s]
				reload_want = "asm_reload_" (d ? "write" : "read") widths[w] "_" strategies[s]
				if (!(want in seen)) {
					printf "FAIL %s: missing from the object\n", want
					failed++
				}
				if (s <= 2 && !(reload_want in seen)) {
					printf "FAIL %s: missing from the object\n", reload_want
					failed++
				}
			}
	if (failed) {
		printf "asm-check: FAILED (%d)\n", failed
		exit 1
	}
	printf "asm-check: %d functions: each accessor exactly one mov of its width; readl reloads across, readl_relaxed not\n", checked
}' "$dis"
