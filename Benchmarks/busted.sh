#!/usr/bin/env bash
# navscript's default run against busted, per scenario: the issue's yardstick for "no slower
# than busted per trivial spec". Writes two suites of the same shape into a temporary folder —
# N generated navscript scenarios (`bench --generate`, ten-step mixes of links, taps, gates and
# expectations) and N trivial busted specs (`it("…", function() assert.is_true(true) end)`), both
# K per file — then times `navscript run` (default jobs, no report file) and `busted` on them
# alternately, R rounds, and prints the median wall time per scenario of each. Wall time is
# process start to exit, as a CI step sees it.
#
#   Benchmarks/busted.sh                     # 2,000 in 200 files, 11 rounds
#   Benchmarks/busted.sh 2000 10 21          # N, K per file, R rounds
#
# Needs release builds of bench and navscript (Benchmarks/run.sh makes them) and busted
# (`apt-get install lua-busted`).
set -euo pipefail
cd "$(dirname "$0")"
count="${1:-2000}"
per_file="${2:-10}"
rounds="${3:-11}"
bin="$(swift build -c release --show-bin-path 2>/dev/null || echo .build/release)"
for tool in "$bin/bench" "$bin/navscript"; do
  [ -x "$tool" ] || { echo "busted.sh: $tool is missing: run Benchmarks/run.sh first (it builds both)" >&2; exit 2; }
done
command -v busted >/dev/null || { echo "busted.sh: busted is not installed: apt-get install -y lua-busted" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin/bench" --per-file "$per_file" --generate "$count" "$work/scenarios" >/dev/null
mkdir -p "$work/spec"
files=$(( (count + per_file - 1) / per_file ))
for ((f = 0; f < files; f++)); do
  {
    printf 'describe("file %d", function()\n' "$f"
    for ((i = 0; i < per_file && f * per_file + i < count; i++)); do
      printf '  it("spec %d", function() assert.is_true(true) end)\n' "$i"
    done
    printf 'end)\n'
  } > "$work/spec/file_${f}_spec.lua"
done

# Wall nanoseconds of one command run in $work; a failing command stops the comparison.
wall() {
  local start end
  start=$(date +%s%N)
  (cd "$work" && "$@" >/dev/null 2>&1) || { echo "busted.sh: '$*' failed" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( end - start ))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

navscript_times=() busted_times=()
for ((r = 0; r < rounds; r++)); do
  navscript_times+=("$(wall "$bin/navscript" run scenarios)")
  busted_times+=("$(wall busted --output=plainTerminal spec)")
done
n=$(printf '%s\n' "${navscript_times[@]}" | median)
b=$(printf '%s\n' "${busted_times[@]}" | median)
awk -v n="$n" -v b="$b" -v c="$count" -v k="$per_file" -v r="$rounds" 'BEGIN {
  printf "%d scenarios in files of %d, median of %d alternated rounds (wall, process start to exit):\n", c, k, r
  printf "  navscript run (default jobs): %6.1f ms, %5.1f µs per scenario\n", n / 1e6, n / 1e3 / c
  printf "  busted (trivial specs):       %6.1f ms, %5.1f µs per spec\n", b / 1e6, b / 1e3 / c
  printf "  navscript / busted per scenario: %.2f×\n", n / b
}'
