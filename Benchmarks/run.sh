#!/usr/bin/env bash
# Builds the benchmarks (bench, bench-spawn) and the navscript CLI in release mode, runs every
# benchmark and prints one Markdown table (also saved to results/latest.md).
#
#   Benchmarks/run.sh                       # everything (about a minute after the build)
#   Benchmarks/run.sh --only core,scenario  # in-process benchmarks only
#   Benchmarks/run.sh --repetitions 21 --sizes 1000,5000,10000
#
# Extra arguments go to the bench executable (see Sources/bench/main.swift).
set -euo pipefail
cd "$(dirname "$0")"
jobs="${BENCH_BUILD_JOBS:-2}"
echo "run.sh: building bench and navscript (release, -j $jobs)…" >&2
# SwiftPM does not notice files added to or removed from the path dependency
# (the main package) once it has planned a build: plan again every time.
rm -f .build/release/description.json
# Nor does it track the C headers of the main package (CLua/, CWorkerOutbox/),
# and once it kept a stale object of a module whose dependency's layout had
# changed (the CLI crashed). So when the main package's sources changed since
# the last build here, its modules are built afresh (dependencies are kept).
stamp=.build/navscript-sources.stamp
sources="$(cd .. && find Package.swift Sources CLua -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$sources" ]; then
  echo "run.sh: the main package changed since the last build: rebuilding its modules" >&2
  for dir in .build/*/release; do
    find "$dir" -maxdepth 1 -name '*.build' ! -name 'ArgumentParser*' -exec rm -rf {} +
    find "$dir/Modules" -maxdepth 1 ! -name 'ArgumentParser*' ! -name Modules -exec rm -rf {} + 2>/dev/null || true
  done
fi
# The C targets' debug information in DWARF 4: valgrind (the instruction
# counts) cannot read clang's default DWARF 5. A build flag, not the
# manifest's: unsafe flags would keep teams from depending on the package.
dwarf=(-Xcc -gdwarf-4)
swift build -c release -j "$jobs" "${dwarf[@]}" --product navscript >&2
swift build -c release -j "$jobs" "${dwarf[@]}" --product bench >&2
swift build -c release -j "$jobs" "${dwarf[@]}" --product bench-spawn >&2
bin="$(swift build -c release "${dwarf[@]}" --show-bin-path)"
echo "$sources" > "$stamp"
mkdir -p results
"$bin/bench" --navscript "$bin/navscript" "$@" | tee results/latest.md
