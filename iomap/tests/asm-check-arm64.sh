#!/bin/sh
# asm-check-arm64.sh: every arm64 accessor in asm-accessors.o is, instruction for instruction, the kernel's own (Linux v6.1's headers, compiled at test time)
#
# usage: asm-check-arm64.sh OBJECT CACHE CC [CFLAGS...]
#
# OBJECT is asm-accessors.c's object; CACHE a folder where Debian's
# linux-source-6.1 is unpacked once (scripts/debian-kernel source) and kept;
# CC and CFLAGS compile kernel-accessors.c as OBJECT was compiled.
#
# kernel-accessors.c wraps the kernel's own definitions, taken out of its
# headers at test time (arch/arm64/include/asm/io.h and barrier.h,
# include/asm-generic/io.h and barrier.h, include/linux/io-64-nonatomic-*.h),
# under the same names asm-accessors.c gives ours: kn_<name> for each of the
# kernel's names (kernel-names.h), seq_ and asm_{read,write}BITS_ID[_imm]
# for each strategy the kernel's pieces make.  Each of its functions must be
# the same instructions as ours of that name, the branch targets counted from
# the function's start.  Two things have no kernel counterpart and are
# checked here alone:
#   seq_{read,write}BITS_acquire  ldar / stlr of the width (the address in x0,
#       x1 for a write), then ret
#   asm_reload_{read,write}BITS_{ordered,relaxed}  the device access through
#       x0 and the normal loads of *p through x1: two for ordered (readl's
#       "memory" clobber forces the reload), one for relaxed
# Where Debian's archive cannot be reached, those two are checked and the
# rest is skipped (exit 77) with the reason.
set -u

usage="usage: asm-check-arm64.sh OBJECT CACHE CC [CFLAGS...]"
obj=${1:?$usage}
cache=${2:?$usage}
cc=${3:?$usage}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
objdump=${OBJDUMP:-aarch64-linux-gnu-objdump}
command -v "$objdump" >/dev/null 2>&1 || objdump=objdump

tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
dis() {
	"$objdump" -d --no-show-raw-insn "$1" >"$2" 2>/dev/null && grep -q 'aarch64' "$2"
}
if ! dis "$obj" "$tmp/ours"; then
	echo "asm-check-arm64: $objdump cannot read $obj as arm64 code (Debian: apt-get install binutils-aarch64-linux-gnu)"
	exit 1
fi

# Each function as lines "NAME<TAB>instruction", the address column dropped and a branch target
# written as its offset in the function (<+0x1c>), so that two objects can be compared.
bodies() {
	awk '
	/^[0-9a-f]+ <.*>:$/ { name = $2; sub(/^</, "", name); sub(/>:$/, "", name); next }
	/^ *[0-9a-f]+:\t/ {
		if (name == "")
			next
		text = $0; sub(/^ *[0-9a-f]+:\t/, "", text); sub(/[ \t]*\/\/.*$/, "", text)
		gsub(/[0-9a-f]+ <[^+>]*\+/, "<+", text); gsub(/[0-9a-f]+ <[^+>]*>/, "<+0x0>", text)
		gsub(/[ \t]+/, " ", text)
		print name "\t" text
	}' "$1"
}
bodies "$tmp/ours" >"$tmp/ours.b"

# The checks of what has no kernel counterpart.
awk -F '\t' '
function acc(kind, bits) {
	if (bits == 8) return kind "b w0, [x"
	if (bits == 16) return kind "h w0, [x"
	return kind (bits == 64 ? " x0, [x" : " w0, [x")
}
$1 != name {
	finish()
	name = $1; body = ""; normal = 0; dev = 0
}
$2 !~ /^(and|mov|uxt[bh]|nop) / && $2 != "nop" { body = body "; " $2 }
name ~ /^asm_reload_/ && $2 ~ /^ld/ && $2 ~ /\[x1\]/ { normal++ }
name ~ /^asm_reload_/ && $2 ~ /^(ld|st)/ && $2 ~ /\[x0\]/ { dev++ }
function finish(    bits, dir, want, got) {
	if (name ~ /^seq_(read|write)[0-9]+_acquire$/) {
		dir = name ~ /^seq_read/ ? "read" : "write"
		bits = name; sub(/^seq_(read|write)/, "", bits); sub(/_.*/, "", bits)
		want = dir == "read" ? acc("ldar", bits) "0]" : acc("stlr", bits) "1]"
		want = "; " want "; ret"
		got = body
		if (got != want) { printf "FAIL %s:\n    issues %s\n    want   %s\n", name, substr(got, 3), substr(want, 3); failed++ }
		else printf "ok   %-32s %s\n", name, substr(got, 3)
		checked++
	} else if (name ~ /^asm_reload_/) {
		want = name ~ /_ordered$/ ? 2 : 1
		if (dev != 1 || normal != want) {
			printf "FAIL %s: %d device access(es) through x0, %d load(s) of *p through x1; want 1 and %d\n", name, dev, normal, want
			failed++
		} else
			printf "ok   %-32s %d load(s) of *p around the access\n", name, normal
		checked++
	}
}
END {
	finish()
	if (checked != 8 + 16) { printf "FAIL the object holds %d acquire and reload probes, want 24\n", checked; failed++ }
	exit failed ? 1 : 0
}' "$tmp/ours.b"
local_rc=$?

# The kernel's own: its headers from Debian's linux-source-6.1, the definitions taken out in the order the
# kernel includes them (asm/barrier.h before asm-generic/barrier.h, asm/io.h before asm-generic/io.h, whose
# #ifndef'd ones arm64 has already given); asm-generic's C __raw_readX as gen_raw_readX (volatile's).
paths='arch/arm64/include/asm/barrier.h include/asm-generic/barrier.h arch/arm64/include/asm/io.h
include/asm-generic/io.h include/linux/io-64-nonatomic-lo-hi.h include/linux/io-64-nonatomic-hi-lo.h'
# shellcheck disable=SC2086 # paths is a list
if ! src=$("$top/scripts/debian-kernel" source "$cache" $paths 2>"$tmp/why"); then
	echo "asm-check-arm64: skipped the comparison with the kernel's own accessors: $(tail -1 "$tmp/why")"
	[ "$local_rc" = 0 ] || exit 1
	exit 77
fi
raw="__raw_readb __raw_readw __raw_readl __raw_readq __raw_writeb __raw_writew __raw_writel __raw_writeq"
names="isb dmb dsb __mb __rmb __wmb __dma_mb __dma_rmb __dma_wmb mb rmb wmb dma_mb dma_rmb dma_wmb
$raw __io_ar __io_bw __io_br __io_aw __iormb __iowmb ioread16be ioread32be ioread64be iowrite16be iowrite32be
iowrite64be"
for k in b w l q; do
	names="$names read$k write$k read${k}_relaxed write${k}_relaxed reads$k writes$k"
done
for b in 8 16 32 64; do
	names="$names ioread$b iowrite$b ioread${b}_rep iowrite${b}_rep"
done
for o in lo_hi hi_lo; do
	names="$names ${o}_readq ${o}_writeq ${o}_readq_relaxed ${o}_writeq_relaxed ioread64_$o iowrite64_$o
ioread64be_$o iowrite64be_$o"
done
# extract WANTED FILE...: the first definition of each wanted name (a #define with its continuation lines, or a
# static function to its closing brace), in the files' order
extract() {
	wanted=$1
	shift
	awk -v wanted="$wanted" '
	BEGIN { n = split(wanted, w, /[ \n]+/); for (i = 1; i <= n; i++) want[w[i]] = 1 }
	inmacro { print; if ($0 !~ /\\$/) inmacro = 0; next }
	infn { print; if ($0 ~ /^}/) { infn = 0; print "" } next }
	/^#define [A-Za-z_0-9]+/ {
		nm = $2; sub(/\(.*/, "", nm)
		if (!(nm in want) || (nm in done) || $0 ~ ("^#define " nm "[ \t]+" nm "[ \t]*$"))
			next
		done[nm] = 1; print
		if ($0 ~ /\\$/) inmacro = 1
		next
	}
	/^static / && /\(/ {
		nm = $0; sub(/\(.*/, "", nm); sub(/.*[ *]/, "", nm)
		if (!(nm in want) || (nm in done))
			next
		done[nm] = 1; print; infn = 1
	}
	END { for (nm in want) if (!(nm in done)) print "#error \"no definition of " nm " found in the kernel source\"" }' "$@"
}
{
	extract "$names" "$src/arch/arm64/include/asm/barrier.h" "$src/include/asm-generic/barrier.h" \
		"$src/arch/arm64/include/asm/io.h" "$src/include/asm-generic/io.h" \
		"$src/include/linux/io-64-nonatomic-lo-hi.h" "$src/include/linux/io-64-nonatomic-hi-lo.h"
	extract "$raw" "$src/include/asm-generic/io.h" | sed 's/__raw_\(read\|write\)\([bwlq]\)\b/gen_raw_\1\2/g'
} >"$tmp/kernel-extract.h"
if ! "$cc" "$@" -Werror=implicit-function-declaration -Werror=implicit-int -I"$tmp" -I"$here" \
	-c "$here/kernel-accessors.c" -o "$tmp/kernel.o" 2>"$tmp/cc"; then
	echo "asm-check-arm64: the kernel's accessors did not compile from $src:"
	cat "$tmp/cc"
	exit 1
fi
dis "$tmp/kernel.o" "$tmp/kernel" || { echo "asm-check-arm64: $objdump cannot read the kernel's object"; exit 1; }
bodies "$tmp/kernel" >"$tmp/kernel.b"

# Each function of the kernel's object beside ours of that name; every one of ours but the probes above has one.
awk -F '\t' -v src="$(basename "$src")" '
FILENAME == ARGV[1] { ours[$1] = ours[$1] "; " $2; next }
{ kern[$1] = kern[$1] "; " $2 }
END {
	# the padding after a function is not its own
	for (f in ours) sub(/(; nop)+$/, "", ours[f])
	for (f in kern) sub(/(; nop)+$/, "", kern[f])
	for (f in kern) {
		compared++
		if (!(f in ours)) { printf "FAIL %s: the kernel has it, asm-accessors.c not\n", f; failed++ }
		else if (ours[f] != kern[f]) {
			printf "FAIL %s:\n    ours    %s\n    kernel  %s\n", f, substr(ours[f], 3), substr(kern[f], 3); failed++
		} else {
			n = split(kern[f], insn, "; ") - 1
			printf "ok   %-32s %d instructions, as the kernel'"'"'s\n", f, n
		}
	}
	for (f in ours)
		if (!(f in kern) && f !~ /_acquire$/ && f !~ /^asm_reload_/) {
			printf "FAIL %s: the kernel'"'"'s object has nothing to compare it with\n", f; failed++
		}
	if (failed) { printf "asm-check-arm64: FAILED (%d)\n", failed; exit 1 }
	printf "asm-check-arm64: %d functions the same instructions as Linux v6.1'"'"'s own, compiled from %s\n", compared, src
}' "$tmp/ours.b" "$tmp/kernel.b" || exit 1
[ "$local_rc" = 0 ] || exit 1
echo "asm-check-arm64: acquire and the reload probes as above"
