#!/usr/bin/env bash
# The test command (README, .ci/run): the package's tests, then every
# example package under Examples/ as a team would run it — its own package
# built, its unit tests if it has any, its scenario suite through its
# `<name>-navscript` executable, and mutate proving the suite kills
# every one of its faults, a fault-free exploration (no finding expected), and for
# the examples listed below, exploration alone finding every fault. Last, a release build runs the shipped suite in
# worker processes: what users run, and optimisation has broken what debug
# builds did not (a C header's state duplicated across modules).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's time, printed as it ends and together at the end: the whole
# command is meant to finish in ten minutes on a clean 2-core machine.
phase_name="" phase_start=$SECONDS phase_times=()
phase() {
    if [ -n "$phase_name" ]; then
        phase_times+=("$(printf '%5ds  %s' $((SECONDS - phase_start)) "$phase_name")")
        echo "test.sh: $phase_name took $((SECONDS - phase_start))s" >&2
    fi
    phase_name="$1" phase_start=$SECONDS
}
trap 'phase ""; printf "test.sh: phases\n" >&2; printf "  %s\n" "${phase_times[@]}" >&2; echo "test.sh: ${SECONDS}s in all" >&2' EXIT
phase "format lint"
# The code follows .swift-format (fix with: swift format format -i -r <paths>).
swift format lint --strict -r Sources Tests Benchmarks/Sources Examples/*/Sources
phase "build (debug)"
swift build
phase "tests"
swift test
explore_finds_every_fault="Bistro Wander"
# The examples build into one scratch folder: each compiles navscript's own modules with the same
# commands, so the second reuses the first's (about 35 s of a 2-core machine). What is built and run
# is what a team gets from `swift build` in its own package.
examples_build="$PWD/.build-examples"
for example in Examples/*/; do
    [ -f "$example/Package.swift" ] || continue
    phase "$example: build, tests, scenarios, mutate, explore"
    echo "== $example: build, tests, scenarios, mutate, explore" >&2
    (
        cd "$example"
        swift build --scratch-path "$examples_build"
        if [ -d Tests ]; then swift test --scratch-path "$examples_build"; fi
        bin="$(swift build --scratch-path "$examples_build" --show-bin-path)"
        out="$examples_build/$(basename "$example")"
        mkdir -p "$out"
        # An example's runner is named after it (Bistro: bistro-navscript); the folder holds both.
        tool="$bin/$(basename "$example" | tr '[:upper:]' '[:lower:]')-navscript"
        [ -x "$tool" ] || { echo "test.sh: $example has no $(basename "$tool") executable" >&2; exit 1; }
        "$tool" lint scenarios/
        "$tool" run scenarios/ --junit "$out/junit.xml"
        "$tool" mutate scenarios/
        # The fault-free app explored: a finding here is a bug in the example (or a false finding).
        "$tool" explore --time 5 --seed 1 --out "$out/explore-findings"
        # Examples whose every fault exploration alone must find (both, today).
        case " $explore_finds_every_fault " in
            *" $(basename "$example") "*) "$tool" mutate --explore --explore-time 3 ;;
        esac
    )
done
phase "release build"
echo "== release: the shipped suite in worker processes, and a crash and a hang isolated" >&2
swift build -c release --product navscript
phase "release: suite, crash and hang"
release="$(swift build -c release --show-bin-path)/navscript"
"$release" lint scenarios/
"$release" run scenarios/ --jobs 2
"$release" mutate scenarios/ --only force-unwrap-crash --only main-thread-deadlock --only graft-external-link
