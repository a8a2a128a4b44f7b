#!/bin/sh
# kbuild.sh: what CMake's kmod target and tests run: the module built by kbuild, and checked by sparse and checkpatch
#
# usage: kbuild.sh DIR modules|sparse|checkpatch|inline
#   modules     make -C KDIR M=DIR modules (DIR holds the copied sources; regbench.ko lands there)
#   inline      the built kernels.o has no function but the module's own (rbk_*): every kernel accessor inlined
#   sparse      the same with C=2: every file checked by sparse; any warning fails
#   checkpatch  the kernel's scripts/checkpatch.pl --strict on the sources in DIR; any remark fails
# Environment: KDIR (empty: Debian's headers of the guests' kernel for DEBARCH, fetched into CACHE_DIR),
# CROSS_COMPILE, REGBENCH_VERSION.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
what=$2

kdir() {
	if [ -n "${KDIR:-}" ]; then
		[ -f "$KDIR/Makefile" ] || { echo "kbuild.sh: REGBENCH_KMOD_KDIR=$KDIR has no Makefile (give a kernel build folder, e.g. /lib/modules/\$(uname -r)/build)" >&2; exit 1; }
		echo "$KDIR"
	else
		"$root/scripts/debian-kernel" headers "$DEBARCH" "$CACHE_DIR"
	fi
}

case $what in
modules|sparse)
	k=$(kdir)
	set -- -C "$k" M="$dir" REGBENCH_VERSION="${REGBENCH_VERSION:-unknown}" ${CROSS_COMPILE:+CROSS_COMPILE=$CROSS_COMPILE}
	if [ "$what" = modules ]; then
		make "$@" modules
		exit
	fi
	command -v sparse >/dev/null || { echo "kbuild.sh: sparse is missing (scripts/setup installs it)"; exit 1; }
	log=$(make "$@" C=2 modules 2>&1) || { printf '%s\n' "$log"; exit 1; }
	printf '%s\n' "$log" | grep -E '^  CHECK' || true
	if printf '%s\n' "$log" | grep -E 'warning:|error:'; then
		echo "FAIL: sparse has the remarks above"
		exit 1
	fi
	echo "ok: sparse is quiet on every file of the module"
	;;
inline)
	# a kernel accessor GCC left out of line is a local function of its own name (readl, __raw_readb.isra.0)
	out=$("${CROSS_COMPILE:-}nm" "$dir/kernels.o" | awk '$2 ~ /^[tT]$/ && $3 !~ /^rbk_/ { print $3 }')
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		echo "FAIL: these functions are out of line in the module's loops (the _call functions are __flatten)"
		exit 1
	fi
	echo "ok: every accessor is inlined in the module's loops"
	;;
checkpatch)
	top=$("$root/scripts/debian-kernel" source "$CACHE_DIR" scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)
	cd "$dir"
	files="Kbuild main.c kernels.c kmod.h include/uapi/regbench.h include/uapi/regbench-benchmarks.h"
	# shellcheck disable=SC2086
	out=$(perl "$top/scripts/checkpatch.pl" --strict --no-tree --file $files 2>&1) || true
	if printf '%s\n' "$out" | grep -E -A3 '^(ERROR|WARNING|CHECK):'; then
		echo "FAIL: checkpatch --strict has the remarks above"
		exit 1
	fi
	[ "$(printf '%s\n' "$out" | grep -c '^total: 0 errors, 0 warnings, 0 checks')" = "$(echo $files | wc -w)" ] ||
		{ printf '%s\n' "$out"; echo "FAIL: checkpatch did not check every file"; exit 1; }
	echo "ok: checkpatch --strict is quiet on every file of the module"
	;;
*)
	echo "usage: kbuild.sh DIR modules|sparse|checkpatch|inline" >&2
	exit 2 ;;
esac
