#!/bin/sh
# state-words.sh: the words of a result's state (the JSON's, the console's, Google Benchmark's messages) are written in one bench/ file
#
# usage: state-words.sh BENCH-SOURCE-FOLDER
set -u
dir=${1:?usage: state-words.sh BENCH-SOURCE-FOLDER}
files=$(grep -lE '"(measured|below_resolution|skipped|error|not_run)"|"(skipped|error|not run): |below timer resolution' \
	"$dir"/*.c "$dir"/*.cc "$dir"/*.h)
n=$(printf '%s' "$files" | grep -c .)
if [ "$n" -le 1 ]; then
	echo "ok: the state words are in ${files:-no file}"
else
	echo "FAIL: the state words are in $n files:"; echo "$files" | sed 's/^/  /'
	exit 1
fi
