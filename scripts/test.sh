#!/usr/bin/env bash
# The test command (README, .ci/run): the package's tests, then the Bistro
# example as a team would run it — its own package, built from a clean
# state, its scenario suite, and mutate proving the suite kills every one of
# its faults.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
swift test
echo "== Examples/Bistro: build, scenarios, mutate" >&2
cd Examples/Bistro
swift build
.build/debug/bistro-navscript run scenarios/ --junit .build/bistro-junit.xml
.build/debug/bistro-navscript mutate scenarios/
