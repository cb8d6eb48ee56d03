#!/usr/bin/env bash
# Installs what navscript needs on a fresh Debian/Ubuntu machine, and only
# what is missing: Lua 5.4's headers and library (liblua5.4-dev, found
# through pkg-config), xmllint (libxml2-utils, used by the JUnit schema
# tests) and luacheck (lua-check, which lints the shipped scenarios).
# With --browser (the test command passes it), also Chromium, for the HTML
# report's browser test — optional: without it that test is skipped with a note.
# Swift itself must already be on PATH.
set -euo pipefail
browser=false
for argument in "$@"; do
    case "$argument" in
        --browser) browser=true ;;
        *) echo "bootstrap: unknown option $argument (known: --browser)" >&2; exit 2 ;;
    esac
done

missing=()
pkg-config --exists lua5.4 2>/dev/null || missing+=(liblua5.4-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
command -v luacheck >/dev/null 2>&1 || missing+=(lua-check)

if ((${#missing[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
        sudo="sudo"
    fi
    echo "bootstrap: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Chromium is large and optional: a failed install only skips the browser test.
if $browser && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
    echo "bootstrap: installing chromium (for the HTML report's browser test)" >&2
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; } \
        || echo "bootstrap: could not install chromium; the browser test will be skipped" >&2
fi

command -v swift >/dev/null 2>&1 || { echo "bootstrap: swift is not on PATH (Swift 6.0 or newer is required)" >&2; exit 2; }

# The JUnit consumer checks run Python's junitparser, junit2html and
# Codecov's test-results-parser on a report; without them those tests are
# skipped (with a note), so a missing PyPI is not fatal.
if command -v python3 >/dev/null 2>&1 \
    && ! python3 -c "import junitparser, junit2htmlreport, test_results_parser" >/dev/null 2>&1; then
    echo "bootstrap: installing junitparser, junit2html, test-results-parser (pip)" >&2
    python3 -m pip install -q junitparser junit2html test-results-parser >/dev/null 2>&1 \
        || python3 -m pip install -q --break-system-packages junitparser junit2html test-results-parser >/dev/null 2>&1 \
        || echo "bootstrap: could not install the JUnit consumers; their checks will be skipped" >&2
fi
