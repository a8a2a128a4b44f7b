#!/bin/sh
# chain-check.sh: every chain baseline is its kernel's instructions without the read (disassembly compared)
#
# usage: chain-check.sh RUN-CHAIN-KERNELS [CHAIN-KERNELS-FILE ARCH]
#
# RUN-CHAIN-KERNELS runs the program (under qemu-user in a cross build: its
# wrapper, then the program's own file is the second argument); ARCH is
# x86_64 (the default) or arm64, whose objdump and instruction forms are used.
#
# The program (chain-kernels.c) lists each chain kernel of the table with its
# twin and baselines as addresses in its own file, and the device reads one
# access makes (a 64-bit split makes two); objdump disassembles the
# same file.  A chain's figure is kernel minus baseline, so the baseline may
# hold nothing the kernel lacks: each instruction of the baseline (its
# mnemonic and the kinds of its operands: register, memory, immediate,
# label) must be in the kernel at least as often.  What the kernel has on top
# must hold exactly `unroll` reads (twice as many in the twin), and whatever
# else it adds per read is printed; a read that writes only part of a
# register (movb, movw, inb, inw: it merges with the old value) must have
# the table's note saying so.  The operand size of a 32- or 64-bit ALU
# operation between registers is not compared: andl and andq are the same
# one-cycle and, both writing the whole register, and the compiler picks
# andl where it knows the upper half is zero (after a 32-bit load); a lea of
# base plus index is the add of those two registers; movl, movzbl and movzwl
# between registers are one zero-extension (the compiler picks movzwl where
# it knows a value has 16 bits, movl where it has 32).
set -u

run=${1:?usage: chain-check.sh RUN-CHAIN-KERNELS [CHAIN-KERNELS-FILE ARCH]}
prog=${2:-$run}
arch=${3:-x86_64}
case $arch in
x86_64) objdump=objdump flags="-M att,suffix" ;;
arm64) objdump=aarch64-linux-gnu-objdump flags= ;;
*) echo "chain-check: $arch: not an architecture the check knows (x86_64, arm64)"; exit 1 ;;
esac

if ! command -v "$objdump" >/dev/null 2>&1; then
	echo "chain-check: $objdump is not installed (scripts/setup installs it; Debian: binutils, binutils-aarch64-linux-gnu)"
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! "$run" >"$tmp/kernels"; then
	echo "chain-check: $run failed"
	exit 1
fi
# shellcheck disable=SC2086 # flags is a list of options
if ! "$objdump" -d --no-show-raw-insn $flags "$prog" >"$tmp/dis"; then
	echo "chain-check: objdump cannot read $prog"
	exit 1
fi
# each function's size, so that code after it without a name of its own (a weak definition the linker
# did not choose) is not taken for part of it
if ! "$objdump" -t "$prog" |
	awk '/ F / { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9a-f]+$/ && length($i) >= 8) { print $1, $i; break } }' \
	>"$tmp/sizes" || [ ! -s "$tmp/sizes" ]; then
	echo "chain-check: objdump cannot list the functions of $prog"
	exit 1
fi

awk -v arch="$arch" '
function hex(s) { sub(/^0x/, "", s); sub(/^0+/, "", s); return s == "" ? "0" : tolower(s) }
# A hexadecimal number as a number.
function num(s,    v, i) {
	s = tolower(s); sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

# An arm64 instruction as "mnemonic kind,kind": registers of either width are "reg" (the
# instruction names no size; w and x are the same one-cycle operation), "#..." is "imm",
# "[...]" is "mem", a shift or extend of the operand before is "shift", a branch target
# "label"; an unconditional branch is "jmp" as on x86-64, for the merged-baseline check.
function canon_arm64(text,    m, ops, n, j, kinds, op, c, depth) {
	jump_target = ""
	sub(/[ \t]*\/\/.*$/, "", text)
	m = text; sub(/[ \t].*$/, "", m)
	ops = text; sub(/^[^ \t]+[ \t]*/, "", ops)
	if (m == "nop")
		return ""
	if (m == "b") m = "jmp"
	if (ops ~ /^[0-9a-f]+ <.*>$/ || ops ~ /, [0-9a-f]+ <.*>$/) {
		jump_target = hex(ops ~ /,/ ? substr(ops, index(ops, ", ") + 2) : ops)
		sub(/ .*$/, "", jump_target)
		sub(/[0-9a-f]+ <.*>$/, "label", ops)
	}
	# split at commas outside brackets
	gsub(/ /, "", ops)
	# a mov between w registers, uxtb, uxth and an and with 0xff, 0xffff or 0xffffffff are one
	# zero-extension into the whole register (the compiler picks among them as x86-64 among movzx)
	if ((m == "mov" && ops ~ /^w[0-9]+,w[0-9]+$/) || m ~ /^uxt[bh]$/ ||
	    (m == "and" && ops ~ /^[wx][0-9]+,[wx][0-9]+,#0x(ff|ffff|ffffffff)$/))
		return "zext"
	kinds = ""; n = 0; op = ""; depth = 0
	for (j = 1; j <= length(ops) + 1; j++) {
		c = substr(ops, j, 1)
		if (c == "[") depth++
		if (c == "]") depth--
		if ((c == "," && depth == 0) || j > length(ops)) {
			if (op != "")
				kinds = kinds (n++ ? "," : "") (op == "label" ? "label" : op ~ /^#/ ? "imm" : op ~ /^\[/ ? "mem" : op ~ /^(lsl|lsr|asr|ror|[su]xt[bhwx])/ ? "shift" : "reg")
			op = ""
		} else {
			op = op c
		}
	}
	return kinds == "" ? m : m " " kinds
}

# An operand as its kind.
function kind(op) {
	if (op ~ /^\$/) return "imm"
	if (op ~ /^\*/) return "indirect"
	if (op ~ /^%/) return "reg"
	return "mem"
}

# Instruction text (after the address) as "mnemonic kind,kind"; "" for padding.
function canon(text,    n, f, i, m, ops, depth, c, cur, kinds, nk, j, target) {
	if (arch == "arm64")
		return canon_arm64(text)
	jump_target = ""
	n = split(text, f, /[ \t]+/)
	i = 1; m = ""
	while (i < n && f[i] ~ /^(lock|rep|repz|repe|repnz|repne|notrack|bnd|data16|cs|ds|es|fs|gs|ss)$/)
		m = m f[i++] " "
	m = m f[i]
	if (f[i] ~ /^(nop|int3)/ || text ~ /^xchgw? +%ax,%ax$/)
		return ""
	if (f[i] ~ /^(j|call|loop)/ && f[i + 1] ~ /^[0-9a-f]+$/) {
		jump_target = hex(f[i + 1])
		return m " label"
	}
	ops = ""
	for (j = i + 1; j <= n; j++)
		ops = ops f[j]
	# split at commas outside parentheses
	nk = 0; cur = ""; depth = 0; kinds = ""
	for (j = 1; j <= length(ops); j++) {
		c = substr(ops, j, 1)
		if (c == "(") depth++
		if (c == ")") depth--
		if (c == "," && depth == 0) {
			kinds = kinds (nk++ ? "," : "") kind(cur); cur = ""
		} else {
			cur = cur c
		}
	}
	if (cur != "")
		kinds = kinds (nk++ ? "," : "") kind(cur)
	# lea of base plus index is an add of two registers
	if (m ~ /^lea[lq]$/ && ops ~ /^\(%[a-z0-9]+,%[a-z0-9]+(,1)?\),%[a-z0-9]+$/) {
		m = "add" substr(m, 4); kinds = "reg,reg"
	}
	# movl, movzbl, movzwl between registers all zero-extend into a whole register
	if (m ~ /^(movl|movz[bw][lq])$/ && kinds == "reg,reg")
		m = "zext"
	if (m ~ /^(and|or|xor|add|sub|adc|sbb|cmp|test|inc|dec|neg|not|shl|shr|sar|rol|ror|imul)[lq]$/ &&
	    kinds !~ /mem/)
		m = substr(m, 1, length(m) - 1)
	return kinds == "" ? m : m " " kinds
}

# A read of the target: a load into a register (x86-64: mov, movzx, movsx or a port in; arm64: ldr
# of any width, unscaled, acquire or exclusive).
function is_read(c) {
	if (arch == "arm64")
		return c ~ /^(ldr|ldur|ldar|ldapr|ldxr|ldaxr)(s?[bhw])? reg,mem/
	return c ~ /^(mov[a-z]*|in[bwl]) mem,reg$/
}

FILENAME == ARGV[1] {
	size[hex($1)] = num($2)
	next
}

FILENAME == ARGV[2] {
	if ($0 ~ /^[0-9a-f]+ <.*>:$/) {
		cur = hex($1); ninsn[cur] = 0; first[cur] = ""
		end = (cur in size) ? num(cur) + size[cur] : -1
		next
	}
	if (cur == "" || $0 !~ /^ *[0-9a-f]+:\t/)
		next
	at = $1; sub(/:.*/, "", at)
	if (end >= 0 && num(at) >= end)
		next
	text = $0; sub(/^ *[0-9a-f]+:\t/, "", text)
	c = canon(text)
	if (c == "")
		next
	if (!ninsn[cur]++)
		first[cur] = jump_target != "" && c ~ /^jmp/ ? jump_target : ""
	count[cur, c]++
	seen[cur, c] = 1
	list[cur] = list[cur] SUBSEP c
	next
}

# A function that is only a jump to an identical one (the compiler merges equal baselines): the one it jumps to.
function body(a) {
	while (ninsn[a] == 1 && first[a] != "")
		a = first[a]
	return a
}

# Checks one kernel against its baseline; returns the per-read extras, or sets problem.
function compare(what, k, b, reads,    n, i, c, done, extra, nread, per, total, out, parts) {
	k = body(k); b = body(b)
	if (!(k in ninsn) || !(b in ninsn)) {
		problem = problem "\n    " what ": no function at the address the table gives"
		return ""
	}
	delete done
	n = split(list[b], parts, SUBSEP)
	for (i = 2; i <= n; i++) {
		c = parts[i]
		if (c in done) continue
		done[c] = 1
		if (count[b, c] > count[k, c] + 0)
			problem = problem "\n    " what ": the baseline has " count[b, c] " x \"" c "\", the kernel " (count[k, c] + 0)
	}
	delete done
	nread = 0; out = ""; total = 0
	n = split(list[k], parts, SUBSEP)
	for (i = 2; i <= n; i++) {
		c = parts[i]
		if (c in done) continue
		done[c] = 1
		extra = count[k, c] - count[b, c]
		if (extra <= 0) continue
		if (is_read(c)) {
			nread += extra; reads_as = c
		} else {
			xs[c] = extra; total += extra
		}
	}
	if (nread != reads)
		problem = problem "\n    " what ": " nread " reads more than the baseline, want " reads
	for (c in xs) {
		if (halves) {
			# the halves of a split are combined (shift, or) in ways the compiler may share
			# between accesses: only that the baseline holds nothing more is compared
			out = "the halves combined"
		} else if (nread && xs[c] % nread)
			problem = problem "\n    " what ": " xs[c] " x \"" c "\" for " nread " reads"
		else if (nread)
			out = out (out == "" ? "" : "; ") c
		delete xs[c]
	}
	return out
}

{
	name = $1; unroll = $2; noted = $3; per = $8; halves = per > 1
	problem = ""
	if (name ~ /-region$/) {
		# a region read calls the accessor that preads: the call saves registers once per call of
		# the kernel (n versus 2n cancels that) and the read itself is a system call
		printf "skip %-28s each read is a call into pread, not an instruction to compare\n", name
		next
	}
	if (unroll == "missing") {
		problem = "\n    no twin or baseline in the table"
	} else {
		adds = compare("kernel", hex($4), hex($6), unroll * per)
		read1 = reads_as
		adds2 = compare("twin", hex($5), hex($7), 2 * unroll * per)
		if (adds != adds2)
			problem = problem "\n    the kernel adds \"" adds "\" per read, its twin \"" adds2 "\""
		# arm64 has no partial-register load: ldrb and ldrh zero-extend into the whole register
		partial = arch == "x86_64" && read1 ~ /^(movb|movw|inb|inw) /
		if (partial && !noted)
			problem = problem "\n    each read (" read1 ") writes part of a register, and the table has no note saying so"
		if (!partial && noted)
			problem = problem "\n    the table notes a partial-register read, the kernel reads with " read1
	}
	checked++
	if (problem != "") {
		printf "FAIL %s:%s\n", name, problem
		failed++
	} else {
		printf "ok   %-28s read: %-16s adds per read: %s\n", name, read1, adds == "" ? "nothing" : adds
	}
}

END {
	if (!checked) {
		print "chain-check: no chain kernels listed"
		exit 1
	}
	if (failed) {
		printf "chain-check: FAILED (%d of %d)\n", failed, checked
		exit 1
	}
	printf "chain-check: %d chain kernels, each baseline the kernel without its reads\n", checked
}' "$tmp/sizes" "$tmp/dis" "$tmp/kernels"
