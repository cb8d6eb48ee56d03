#!/usr/bin/env bash
# The test command (README, .ci/run): the package's tests, then every
# example package under Examples/ as a team would run it — its own package,
# built from a clean state, its unit tests if it has any, its scenario suite
# through its `*-navscript` executable, and mutate proving the suite kills
# every one of its faults, a fault-free exploration (no finding expected), and for
# the examples listed below, exploration alone finding every fault. Last, a release build runs the shipped suite in
# worker processes: what users run, and optimisation has broken what debug
# builds did not (a C header's state duplicated across modules).
set -euo pipefail
cd "$(dirname "$0")/.."
# The code follows .swift-format (fix with: swift format format -i -r <paths>).
swift format lint --strict -r Sources Tests Benchmarks/Sources Examples/*/Sources
swift build
swift test
explore_finds_every_fault="Bistro Wander"
for example in Examples/*/; do
    [ -f "$example/Package.swift" ] || continue
    echo "== $example: build, tests, scenarios, mutate, explore" >&2
    (
        cd "$example"
        swift build
        if [ -d Tests ]; then swift test; fi
        bin="$(swift build --show-bin-path)"
        for tool in "$bin"/*-navscript; do
            [ -x "$tool" ] || { echo "test.sh: $example has no *-navscript executable" >&2; exit 1; }
            "$tool" lint scenarios/
            "$tool" run scenarios/ --junit .build/junit.xml
            "$tool" mutate scenarios/
            # The fault-free app explored: a finding here is a bug in the example (or a false finding).
            "$tool" explore --time 5 --seed 1 --out .build/explore-findings
            # Examples whose every fault exploration alone must find (both, today).
            case " $explore_finds_every_fault " in
                *" $(basename "$example") "*) "$tool" mutate --explore --explore-time 3 ;;
            esac
        done
    )
done
echo "== release: the shipped suite in worker processes, and a crash and a hang isolated" >&2
swift build -c release --product navscript
release="$(swift build -c release --show-bin-path)/navscript"
"$release" lint scenarios/
"$release" run scenarios/ --jobs 2
"$release" mutate scenarios/ --only force-unwrap-crash --only main-thread-deadlock --only graft-external-link
