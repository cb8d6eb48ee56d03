#!/usr/bin/env bash
# Installs what navscript needs on a fresh Debian/Ubuntu machine, and only
# what is missing: Lua 5.4's headers and library (liblua5.4-dev, found
# through pkg-config), xmllint (libxml2-utils, used by the JUnit schema
# tests) and luacheck (lua-check, which lints the shipped scenarios).
# Swift itself must already be on PATH.
set -euo pipefail

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

command -v swift >/dev/null 2>&1 || { echo "bootstrap: swift is not on PATH (Swift 6.0 or newer is required)" >&2; exit 2; }
