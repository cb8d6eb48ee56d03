#!/usr/bin/env bash
# Regenerates docs/html-report.png, the README's picture of the HTML report:
# one ShopApp scenario failing under a fault, rendered by headless Chromium
# and (when pngquant is installed) compressed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build --product navscript >/dev/null
"$(swift build --show-bin-path)/navscript" run scenarios/leak_on_back/pushed_flows.lua --fault no-pop-detection \
    --filter "back-swipe releases the order flow" --html "$work/report.html" >/dev/null || true
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size=1200,820 --screenshot="$work/report.png" "file://$work/report.html" 2>/dev/null
if command -v pngquant >/dev/null 2>&1; then
    pngquant --quality 60-80 --force --output docs/html-report.png "$work/report.png"
else
    cp "$work/report.png" docs/html-report.png
fi
echo "wrote docs/html-report.png ($(stat -c %s docs/html-report.png) bytes)"
