#!/usr/bin/env bash
# Regenerates README.md's generated sections: the language reference table
# (`navscript types --format markdown`, between the reference:begin/end
# markers) and "What the suite catches" from a real `navscript mutate` run
# (between the mutate:begin/end markers). Also rewrites types/navscript.lua.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product navscript >/dev/null
.build/release/navscript types -o types/navscript.lua
.build/release/navscript types --format luacheck -o .luacheckrc
reference=$(.build/release/navscript types --format markdown)
matrix=$(.build/release/navscript mutate --markdown scenarios/ || true)
python3 - "$reference" "$matrix" <<'PY'
import sys
readme = open("README.md").read()
def replace(text, name, body):
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    if begin not in text or end not in text:
        sys.exit("README.md has no %s:begin/end markers" % name)
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body.strip() + "\n" + end + tail
readme = replace(readme, "reference", sys.argv[1])
readme = replace(readme, "mutate", sys.argv[2])
open("README.md", "w").write(readme)
PY
echo "README.md updated"
