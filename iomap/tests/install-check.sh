#!/bin/sh
# install-check.sh: libiomap as an outside program gets it: installed, found by CMake and by pkg-config, headers self-contained
#
# usage: install-check.sh STEP BUILD_DIR WORK_DIR
#
#   install     install libiomap from BUILD_DIR (its install component, iomap) into WORK_DIR/prefix, afresh
#   cmake       configure consumer/ (a project of its own) with CMAKE_PREFIX_PATH=WORK_DIR/prefix,
#               build it and run its program
#   pkg-config  build consumer/consumer.c with $CC and `pkg-config --cflags --libs --static iomap`
#               alone, and run it
#   headers     compile each installed public header alone (twice, for its include guard) as GNU C11
#               with -Wall -Wextra -Werror, and io.h as C++17, which regbench's C++ includes
#
# CMAKE, CC and CXX name the tools (default cmake, cc, c++); in a cross build CMAKE_TOOLCHAIN_FILE
# (which cmake reads from the environment) configures the outside project for the same architecture,
# PKG_CONFIG_LIBDIR points pkg-config at its libraries and EMULATOR runs its programs. The steps
# after install use only what install put into WORK_DIR/prefix and the system's packages; nothing
# comes from the network.
# The consumer program exits 0 only if a value written to a ram target reads back.
set -eu

usage="usage: install-check.sh install|cmake|pkg-config|headers BUILD_DIR WORK_DIR"
step=${1:?$usage}
build=${2:?$usage}
work=${3:?$usage}
CMAKE=${CMAKE:-cmake}
CC=${CC:-cc}
CXX=${CXX:-c++}
EMULATOR=${EMULATOR:-}
export CC CXX

src=$(cd "$(dirname "$0")/consumer" && pwd)
prefix=$work/prefix
mkdir -p "$work"
log=$work/$step.log
: >"$log"

# The output of the command that failed, then one line saying what failed.
fail() {
	cat "$log" >&2
	echo "install-check: $step: $*" >&2
	exit 1
}

case $step in
install)
	rm -rf "$prefix"
	"$CMAKE" --install "$build" --component iomap --prefix "$prefix" >"$log" 2>&1 ||
		fail "cmake --install $build --component iomap failed"
	;;
cmake)
	out=$work/cmake-build
	rm -rf "$out"
	"$CMAKE" -S "$src" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" >"$log" 2>&1 ||
		fail "the outside project does not configure with CMAKE_PREFIX_PATH=$prefix"
	found=$(sed -n 's/^iomap_DIR:PATH=//p' "$out/CMakeCache.txt")
	case $found in
	"$prefix"/*) ;;
	*) fail "find_package(iomap) took '$found', not the package installed in $prefix" ;;
	esac
	"$CMAKE" --build "$out" >"$log" 2>&1 || fail "the outside project does not build"
	$EMULATOR "$out/consumer" >"$log" 2>&1 || fail "the program linked through iomap::iomap failed"
	;;
pkg-config)
	pc=$(find "$prefix" -name iomap.pc)
	[ -n "$pc" ] || fail "no iomap.pc under $prefix"
	flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs --static iomap 2>"$log") ||
		fail "pkg-config --static does not resolve iomap (PKG_CONFIG_PATH=$(dirname "$pc"))"
	# shellcheck disable=SC2086 # the flags are words
	"$CC" -o "$work/consumer-pc" "$src/consumer.c" $flags >"$log" 2>&1 ||
		fail "$CC consumer.c $flags does not build"
	$EMULATOR "$work/consumer-pc" >"$log" 2>&1 || fail "the program linked with pkg-config's flags failed"
	;;
headers)
	n=0
	for h in "$prefix"/include/iomap/*.h; do
		[ -e "$h" ] || fail "no headers in $prefix/include/iomap"
		name=iomap/${h##*/}
		printf '#include <%s>\n#include <%s>\n' "$name" "$name" >"$work/header.c"
		"$CC" -std=gnu11 -Wall -Wextra -Werror -I"$prefix/include" -c -o "$work/header.o" "$work/header.c" \
			>"$log" 2>&1 || fail "<$name> does not compile alone as GNU C11"
		n=$((n + 1))
	done
	printf '#include <iomap/io.h>\n' >"$work/header.cc"
	"$CXX" -std=c++17 -Wall -Wextra -Werror -I"$prefix/include" -c -o "$work/header.o" "$work/header.cc" \
		>"$log" 2>&1 || fail "<iomap/io.h> does not compile alone as C++17"
	echo "install-check: headers: $n compile alone as GNU C11, io.h also as C++17"
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
