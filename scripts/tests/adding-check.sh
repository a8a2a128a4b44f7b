#!/bin/sh
# adding-check.sh: each docs/adding/*.patch (a thing added once, for real: a strategy, a family, a target kind, ...) still applies to the tree, and ARCHITECTURE.md states its file count
#
# usage: adding-check.sh
# ARCHITECTURE.md's "Adding things" cites each patch as `docs/adding/NAME.patch` (N files: ...); the count
# must be the patch's, and every patch must be cited. A patch that no longer applies is written again
# against the tree (apply it to an older checkout, then rebase it), and its counts re-measured.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
doc=$root/docs/ARCHITECTURE.md
fail=0
found=0
for p in "$root"/docs/adding/*.patch; do
	[ -e "$p" ] || continue
	found=1
	name=docs/adding/$(basename "$p")
	if err=$(cd "$root" && git apply --check "$name" 2>&1); then
		echo "ok: $name applies to the tree"
	else
		echo "FAIL: $name no longer applies to the tree:"; echo "$err" | sed 's/^/  /'; fail=1
	fi
	files=$(cd "$root" && git apply --numstat "$name" | wc -l | tr -d ' ')
	# the citation may break across lines: read the page as one line
	stated=$(tr '\n' ' ' <"$doc" | sed -n "s|.*\`$name\` *(\([0-9][0-9]*\) files.*|\1|p")
	if [ -z "$stated" ]; then
		echo "FAIL: docs/ARCHITECTURE.md does not cite $name as \`$name\` (N files: ...)"; fail=1
	elif [ "$stated" != "$files" ]; then
		echo "FAIL: docs/ARCHITECTURE.md says $name touches $stated files; it touches $files"; fail=1
	else
		echo "ok: $name touches $files files, as docs/ARCHITECTURE.md says"
	fi
done
# every patch the document cites is there
for name in $(grep -o '`docs/adding/[a-z0-9-]*\.patch`' "$doc" | tr -d '`' | sort -u); do
	[ -e "$root/$name" ] || { echo "FAIL: docs/ARCHITECTURE.md cites $name, which is not in the tree"; fail=1; }
done
[ "$found" = 1 ] || { echo "FAIL: no patch in docs/adding/"; fail=1; }
exit $fail
