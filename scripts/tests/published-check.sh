#!/bin/sh
# published-check.sh: the published reports are what the current scripts/report makes of their JSON: scripts/publish --render-only on a copy of reports/ changes no file
#
# usage: published-check.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the committed files only: a report folder holds nothing else in a clean checkout
(cd "$root" && git ls-files -z reports) | (cd "$root" && xargs -0 cp --parents -t "$tmp") ||
	{ echo "FAIL: cannot copy reports/ (is this a git checkout?)"; exit 1; }
if ! "$root/scripts/publish" --render-only "$tmp/reports" >"$tmp/log" 2>&1; then
	cat "$tmp/log"
	echo "FAIL: scripts/publish --render-only failed on a copy of reports/"
	exit 1
fi
stale=$(cd "$root" && git ls-files reports | while IFS= read -r f; do
	cmp -s "$f" "$tmp/$f" || echo "$f"
done)
new=$(cd "$tmp" && find reports -type f | while IFS= read -r f; do
	[ -n "$(cd "$root" && git ls-files -- "$f")" ] || echo "$f (new)"
done)
if [ -n "$stale$new" ]; then
	echo "FAIL: the published reports are stale; these files would change (scripts/publish --render-only, then commit):"
	printf '%s\n%s\n' "$stale" "$new" | sed '/^$/d; s/^/  /' | head -40
	exit 1
fi
echo "ok: every published report is what scripts/report renders from its JSON today ($(cd "$root" && git ls-files reports | wc -l) files)"
