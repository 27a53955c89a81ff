#!/usr/bin/env bash
# The HTML report in a real browser (issue 37): Debian's Chromium, headless, loads the report of
# a small experiment with every host name resolving nowhere; no console error, no request of
# any kind (the report is one file); every chart is drawn, inside the screen, at 1366 px and at
# a 390 px phone width (the report in an iframe that wide), and the page itself does not scroll
# sideways there; chart text is at least 11 px high on the screen at both widths; every cell of
# the comparison table is on the screen at 390 px; at 1366 px no table is a wider frame than its
# rows (issue 61.6); printing to PDF works. Screenshots at both widths are left in
# report-screenshots/ beside the test (ctest's working directory) for whoever changes the report.
# Needs Debian's chromium (scripts/install-deps installs it): missing, the test skips, except
# under CI=true.
# Usage: report_browser_test.sh PATH/TO/scalelab TESTS_DATA_DIR
set -uo pipefail
scalelab=$1 data_dir=$2
source "$(dirname "$0")/../support/cli_helpers.sh"
chromium=$(command -v chromium || true)
if [[ -z $chromium ]]; then
  echo "no chromium (Debian's chromium package)"
  [[ "${CI:-}" == true ]] && exit 1
  exit 77
fi
shots=$PWD/report-screenshots
mkdir -p "$shots"

# A small experiment: three pgbench outputs imported as two series, then the report.
expect_rc 0 "import A" "$scalelab" import "$data_dir/pgbench/pgbench-16.txt" "$data_dir/pgbench/pgbench-15-loop-buffered.txt" \
  --series "A <b>bold</b>" -o "$work/e.slab"
expect_rc 0 "import B" "$scalelab" import "$data_dir/pgbench/pgbench-9.6-loop.txt" --series B -o "$work/e.slab" --append
expect_rc 0 "html report" env -u DISPLAY "$scalelab" export "$work/e.slab" --html "$work/report.html"

browse() { # WIDTH PAGE: the DOM after load, the browser's log in $work/log-WIDTH
  timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 --window-size="$1",1000 \
    --virtual-time-budget=3000 --dump-dom "file://$2" 2>"$work/log-$1"
}
# The report inside an iframe of WIDTH px (Chromium's own window is at least 500 wide), and a
# probe that measures it once loaded: each chart's box, the page's scroll width, the requests
# the report made (Resource Timing), the errors it raised.
python3 - "$work/report.html" "$work" <<'PY'
import html, sys
report = open(sys.argv[1]).read()
for width in (1366, 390):
    page = f'''<!doctype html><html><body style="margin:0">
<iframe id="r" style="border:0" width="{width}" height="3000" srcdoc="{html.escape(report, quote=True)}"></iframe>
<script>
const frame = document.getElementById('r');
frame.addEventListener('load', () => {{
  const d = frame.contentDocument, w = frame.contentWindow, out = [];
  // The charts shown at this width (each is drawn for a wide page and for a phone), and the
  // median height of their text on the screen.
  [...d.querySelectorAll('figure svg')].filter(s => s.getBoundingClientRect().width > 0).forEach((s, i) => {{
    const b = s.getBoundingClientRect();
    const h = [...s.querySelectorAll('text')].filter(t => t.textContent.trim())
                .map(t => t.getBoundingClientRect().height).sort((x, y) => x - y);
    out.push(`chart ${{i}} ${{Math.round(b.left)}} ${{Math.round(b.right)}} ${{Math.round(b.width)}} ${{Math.round(b.height)}}`);
    out.push(`text ${{i}} ${{h.length ? h[Math.floor(h.length / 2)].toFixed(1) : 0}}`);
  }});
  // Each cell of a comparison table (its verdict above all) inside the screen.
  d.querySelectorAll('table.cards td').forEach((c, i) => {{
    const b = c.getBoundingClientRect();
    out.push(`cell ${{i}} ${{Math.round(b.left)}} ${{Math.round(b.right)}}`);
  }});
  // A table's frame as wide as its rows, not the page's width with empty space in it.
  d.querySelectorAll('table').forEach((t, i) => {{
    const r = t.querySelector('tr');
    if (r) out.push(`table ${{i}} ${{Math.round(t.getBoundingClientRect().width)}} ${{Math.round(r.getBoundingClientRect().width)}}`);
  }});
  out.push(`page ${{w.innerWidth}} ${{d.documentElement.scrollWidth}}`);
  out.push(`requests ${{w.performance.getEntriesByType('resource').length}}`);
  const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = out.join('\\n'); document.body.appendChild(pre);
}});
</script></body></html>'''
    open(f"{sys.argv[2]}/probe-{width}.html", "w").write(page)
PY
for width in 1366 390; do
  probe=$(browse "$width" "$work/probe-$width.html" | sed -n '/<pre id="probe">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
  [[ -n $probe ]] || { fail "$width px: the probe did not run: $(tail -5 "$work/log-$width")"; continue; }
  charts=$(grep -c '^chart ' <<<"$probe")
  [[ $charts -ge 1 ]] || fail "$width px: no chart: $probe"
  while read -r _ i left right cw ch; do
    ((cw > 0 && ch >= 100)) || fail "$width px: chart $i is ${cw}x${ch}"
    ((left >= 0 && right <= width)) || fail "$width px: chart $i runs off the screen ($left..$right)"
    ((cw >= (width < 1200 ? width : 1200) / 2)) || fail "$width px: chart $i is only $cw px wide"
  done < <(grep '^chart ' <<<"$probe")
  # Chart text reads on a phone too (issue 61.6: the wide drawing shrunk to 390 px had 5 px text).
  while read -r _ i height; do
    awk -v h="$height" 'BEGIN { exit !(h >= 11) }' || fail "$width px: chart $i's text is $height px high"
  done < <(grep '^text ' <<<"$probe")
  cells=$(grep -c '^cell ' <<<"$probe")
  ((cells >= 1)) || fail "$width px: no comparison table"
  while read -r _ i left right; do
    ((left >= 0 && right <= width)) || fail "$width px: comparison cell $i runs off the screen ($left..$right)"
  done < <(grep '^cell ' <<<"$probe")
  if ((width > 1000)); then
    while read -r _ i tw rw; do
      ((tw <= rw + 4)) || fail "$width px: table $i is a ${tw} px frame around ${rw} px rows"
    done < <(grep '^table ' <<<"$probe")
  fi
  read -r _ inner scroll < <(grep '^page ' <<<"$probe")
  ((scroll <= inner)) || fail "$width px: the page scrolls sideways ($scroll px in $inner)"
  grep -qx 'requests 0' <<<"$probe" || fail "$width px: the report made requests: $probe"
  if grep -E 'CONSOLE|ERR_NAME_NOT_RESOLVED|Uncaught' "$work/log-$width" | grep -v 'probe' >"$work/console-$width"; then
    fail "$width px: the browser logged: $(cat "$work/console-$width")"
  fi
  timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size="$((width < 500 ? 500 : width))",3000 \
    --screenshot="$shots/report-$width.png" "file://$work/probe-$width.html" >/dev/null 2>&1 ||
    fail "$width px: no screenshot"
done
# The label with markup is text in the browser too.
browse 1366 "$work/report.html" | grep -q 'A &lt;b&gt;bold&lt;/b&gt;' || fail "the series label is not shown as typed"
timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu --print-to-pdf="$work/report.pdf" --no-pdf-header-footer \
  "file://$work/report.html" >/dev/null 2>&1 || fail "print to PDF"
head -c 5 "$work/report.pdf" | grep -q '%PDF-' || fail "the PDF is not a PDF"
# Page objects, also inside compressed object streams.
pages=$(python3 - "$work/report.pdf" <<'PY'
import re, sys, zlib
pdf = open(sys.argv[1], "rb").read()
found = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
    try:
        found += len(re.findall(rb"/Type\s*/Page[^s]", zlib.decompress(m.group(1))))
    except zlib.error:
        pass
print(found)
PY
)
((pages >= 1)) || fail "the PDF has no page"
cp "$work/report.pdf" "$shots/report.pdf" 2>/dev/null
echo "screenshots and the PDF ($pages pages) in $shots"
finish report_browser
