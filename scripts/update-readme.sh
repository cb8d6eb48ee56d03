#!/usr/bin/env bash
# Regenerates README.md's "What the suite catches" section from a real
# `navscript mutate` run (the text between the mutate:begin/end markers).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product navscript >/dev/null
matrix=$(.build/release/navscript mutate --markdown scenarios/ || true)
python3 - "$matrix" <<'PY'
import re, sys
matrix = sys.argv[1].strip()
readme = open("README.md").read()
begin, end = "<!-- mutate:begin -->", "<!-- mutate:end -->"
if begin not in readme or end not in readme:
    sys.exit("README.md has no mutate:begin/end markers")
head, rest = readme.split(begin, 1)
_, tail = rest.split(end, 1)
open("README.md", "w").write(head + begin + "\n" + matrix + "\n" + end + tail)
PY
echo "README.md updated"
