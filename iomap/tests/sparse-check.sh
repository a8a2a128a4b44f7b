#!/bin/sh
# sparse-check.sh: sparse must flag each fixture's classic __iomem mistake, and stay silent on the tree
#
# usage: sparse-check.sh SOURCE_DIR ARCH
#
# A fixture marks each line that must draw a warning with a comment
# "sparse-expect: TEXT"; the check fails if that line draws no warning
# containing TEXT, or if any other line of the fixture draws one.  The tree
# (iomap/src/*.c, iomap/arch/ARCH/*.c and bench/*.c, whatever files exist
# now; ARCH is the build's, whose headers the sources include) must draw no
# warning at all, except from system headers under /usr/include, which are
# glibc's and not ours to fix.
set -u

src=${1:?usage: sparse-check.sh SOURCE_DIR ARCH}
arch=${2:?usage: sparse-check.sh SOURCE_DIR ARCH}
cd "$src" || exit 1

if ! command -v sparse >/dev/null 2>&1; then
	echo "sparse-check: sparse is not installed (scripts/setup installs it; on Debian: apt-get install sparse)"
	exit 1
fi

# sparse checks for the build's architecture (its own default is the machine's), with that
# architecture's glibc headers (Debian's multiarch folder under /usr/include) and the
# architecture's headers of libiomap and of bench/.
case $arch in
x86_64) multiarch=x86_64-linux-gnu ;;
arm64) multiarch=aarch64-linux-gnu ;;
*) echo "sparse-check: no multiarch folder known for architecture $arch (x86_64, arm64)"; exit 1 ;;
esac
if [ ! -d "/usr/include/$multiarch" ]; then
	echo "sparse-check: /usr/include/$multiarch is missing (scripts/setup installs $arch's libc6-dev)"
	exit 1
fi

sparse_run() {
	sparse --arch="$arch" -multiarch-dir "$multiarch" -std=gnu11 -Iiomap/include \
		-I"iomap/arch/$arch/include" -Iiomap/src -I"bench/arch/$arch" "$@" 2>&1
}

failed=0
fixtures=0
report=$(mktemp) || exit 1
trap 'rm -f "$report"' EXIT

for f in iomap/tests/sparse/*.c; do
	[ -e "$f" ] || continue
	fixtures=$((fixtures + 1))
	# Expectations first (file "-"), then sparse's output: primary lines are
	# "FILE:LINE:COL: warning: TEXT"; "FILE:LINE:COL:    expected ..." lines
	# only detail the one before.
	sparse_run "$f" | awk -v fixture="$f" '
		FNR == NR {
			if (match($0, /sparse-expect: .*\*\//)) {
				want[FNR] = substr($0, RSTART + 15, RLENGTH - 15 - 2)
				sub(/ +$/, "", want[FNR])
				expected++
			}
			next
		}
		{
			rest = substr($0, length(fixture) + 2)
			if (index($0, fixture ":") != 1 || rest !~ /^[0-9]+:[0-9]+: /) {
				print "  unexpected output: " $0; bad++; next
			}
			split(rest, loc, ":")
			msg = rest; sub(/^[0-9]+:[0-9]+: /, "", msg)
			if (msg ~ /^ /)
				next
			sub(/^(warning|error): /, "", msg)
			if (loc[1] in want && index(msg, want[loc[1]])) {
				met[loc[1]] = 1
			} else {
				print "  unexpected warning: " $0; bad++
			}
		}
		END {
			if (!expected) {
				print "  no sparse-expect: line in the fixture"; bad++
			}
			for (l in want)
				if (!(l in met)) {
					print "  line " l ": sparse did not warn \"" want[l] "\""; bad++
				}
			exit bad != 0
		}' "$f" - >"$report" 2>&1
	if [ $? -ne 0 ]; then
		echo "FAIL fixture $f:"
		cat "$report"
		failed=1
	else
		echo "ok   fixture $f"
	fi
done

if [ "$fixtures" -eq 0 ]; then
	echo "FAIL: no fixtures in iomap/tests/sparse"
	failed=1
fi

checked=0
for f in iomap/src/*.c "iomap/arch/$arch"/*.c bench/*.c; do
	[ -e "$f" ] || continue
	checked=$((checked + 1))
	out=$(sparse_run "$f")
	status=$?
	ours=$(printf '%s\n' "$out" | grep -v '^/usr/include/' | grep -v '^$')
	if [ -n "$ours" ] || [ "$status" -ne 0 ]; then
		echo "FAIL tree    $f (sparse exit $status):"
		printf '%s\n' "$ours" | sed 's/^/  /'
		failed=1
	else
		echo "ok   tree    $f"
	fi
done
if [ "$checked" -eq 0 ]; then
	echo "FAIL: no sources found under iomap/src"
	failed=1
fi

if [ "$failed" -ne 0 ]; then
	echo "sparse-check: FAILED"
	exit 1
fi
echo "sparse-check: $fixtures fixtures flagged, $checked files clean"
