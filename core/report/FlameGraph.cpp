#include "report/FlameGraph.h"

#include "report/HtmlReport.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

namespace scalelab {
namespace {

struct FlameNode {
    double a = 0, b = 0;  // values (b only, outside a differential)
    double selfB = 0;
    std::map<std::string, std::unique_ptr<FlameNode>> children;
};

void addStack(FlameNode& root, const std::string& stack, double value, bool isA) {
    FlameNode* node = &root;
    (isA ? root.a : root.b) += value;
    size_t start = 0;
    while (start <= stack.size()) {
        size_t end = stack.find(';', start);
        std::string name = stack.substr(start, end == std::string::npos ? std::string::npos : end - start);
        auto& child = node->children[name];
        if (!child) child = std::make_unique<FlameNode>();
        node = child.get();
        (isA ? node->a : node->b) += value;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    if (!isA) node->selfB += value;
}

FlameLayout layoutTree(const FlameNode& root, bool differential, double minShare) {
    FlameLayout out;
    out.total = root.b;
    out.differential = differential;
    if (!(root.b > 0)) return out;
    std::function<void(const std::string&, const FlameNode&, int, double)> place = [&](const std::string& name,
                                                                                      const FlameNode& n, int depth, double x) {
        FlameFrame f;
        f.name = name;
        f.depth = depth;
        f.x = x;
        f.width = n.b / root.b;
        f.value = n.b;
        f.self = depth == 0 ? 0 : n.selfB;
        if (differential) {
            f.delta = n.b - n.a;
            // The root and the process kinds hold every change: scaled to them, every function
            // would be near white.
            if (depth >= 2) out.maxAbsDelta = std::max(out.maxAbsDelta, std::fabs(*f.delta));
        }
        out.depth = std::max(out.depth, depth);
        out.frames.push_back(f);
        double cx = x;
        for (const auto& [childName, child] : n.children) {
            if (child->b / root.b < minShare) continue;
            place(childName, *child, depth + 1, cx);
            cx += child->b / root.b;
        }
    };
    place("all", root, 0, 0);
    return out;
}

std::string svgText(const std::string& s) { return htmlEscape(s); }

} // namespace

FlameLayout layoutFlame(const std::map<std::string, double>& stacks, double minShare) {
    FlameNode root;
    for (const auto& [stack, v] : stacks)
        if (v > 0) addStack(root, stack, v, false);
    return layoutTree(root, false, minShare);
}

FlameLayout layoutFlameDiff(const std::map<std::string, double>& a, const std::map<std::string, double>& b, double minShare) {
    FlameNode root;
    for (const auto& [stack, v] : a)
        if (v > 0) addStack(root, stack, v, true);
    for (const auto& [stack, v] : b)
        if (v > 0) addStack(root, stack, v, false);
    return layoutTree(root, true, minShare);
}

FlameRgb flameRgb(const FlameFrame& f, const FlameLayout& layout) {
    if (layout.differential && f.delta) {
        // Square root: a change a tenth of the largest is still a clear tint (a third of full).
        double t = layout.maxAbsDelta > 0 ? std::sqrt(std::min(1.0, std::fabs(*f.delta) / layout.maxAbsDelta)) : 0;
        int fade = static_cast<int>(std::lround(255 * (1 - t)));
        return *f.delta >= 0 ? FlameRgb{255, fade, fade} : FlameRgb{fade, fade, 255};
    }
    // flamegraph.pl's "hot" palette, hued by the name so that a function keeps its colour.
    unsigned h = 2166136261u;
    for (char c : f.name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    double v1 = (h % 1000) / 1000.0, v2 = ((h / 1000) % 1000) / 1000.0;
    bool kernel = f.name.size() > 4 && f.name.compare(f.name.size() - 4, 4, "_[k]") == 0;
    if (kernel) return {205 + static_cast<int>(50 * v1), 120 + static_cast<int>(60 * v2), 40};
    return {205 + static_cast<int>(50 * v2), static_cast<int>(230 * v1), static_cast<int>(55 * v2)};
}

std::string flameColour(const FlameFrame& f, const FlameLayout& layout) {
    FlameRgb c = flameRgb(f, layout);
    return "rgb(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

std::string flameSvg(const FlameLayout& layout, const FlameSvgOptions& o) {
    const int frameH = 16, top = 36, bottom = 24;
    const double pad = 10, usable = o.width - 2 * pad;
    const int height = top + (layout.depth + 1) * frameH + bottom;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" width=\"" + std::to_string(o.width) +
                    "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(o.width) + " " +
                    std::to_string(height) + "\" font-family=\"Verdana, sans-serif\" font-size=\"12\" data-unit=\"" +
                    svgText(o.unit) + "\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"#f8f8f8\"/>\n";
    s += "<text x=\"" + std::to_string(o.width / 2) + "\" y=\"18\" text-anchor=\"middle\" font-size=\"15\">" + svgText(o.title) + "</text>\n";
    s += "<text class=\"flame-reset\" x=\"10\" y=\"18\" style=\"cursor:pointer\" visibility=\"hidden\">Reset zoom</text>\n";
    s += "<text class=\"flame-search\" x=\"" + std::to_string(o.width - 70) + "\" y=\"18\" style=\"cursor:pointer\">Search</text>\n";
    s += "<text class=\"flame-matched\" x=\"" + std::to_string(o.width - 10) + "\" y=\"" + std::to_string(height - 8) +
         "\" text-anchor=\"end\"></text>\n";
    s += "<text class=\"flame-details\" x=\"10\" y=\"" + std::to_string(height - 8) + "\"> </text>\n";
    if (layout.frames.empty()) {
        s += "<text x=\"10\" y=\"" + std::to_string(top + 14) + "\">no samples</text>\n</svg>\n";
        return s;
    }
    for (const auto& f : layout.frames) {
        double x = pad + f.x * usable, w = f.width * usable;
        int y = top + (layout.depth - f.depth) * frameH;
        std::string tip = f.name + " (" + formatNumber("%.3g", f.value) + " " + o.unit;
        if (o.samplesPerValue > 0) tip += ", " + formatNumber("%.0f", f.value * o.samplesPerValue) + " samples";
        tip += ", " + formatNumber("%.2f", 100.0 * f.value / layout.total) + "%";
        if (f.delta) tip += "; " + formatSigned(*f.delta, 3) + " against A";
        tip += ")";
        s += "<g class=\"fr\" data-x=\"" + formatNumber("%.6f", f.x) + "\" data-w=\"" + formatNumber("%.6f", f.width) +
             "\" data-d=\"" + std::to_string(f.depth) + "\" data-n=\"" + svgText(f.name) + "\"><title>" + svgText(tip) +
             "</title><rect x=\"" + formatNumber("%.1f", x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
             formatNumber("%.1f", std::max(0.0, w - 0.5)) + "\" height=\"" + std::to_string(frameH - 1) + "\" fill=\"" +
             flameColour(f, layout) + "\" rx=\"2\"/>";
        // About 7 px a character at 12 px: what fits, cut with "..".
        size_t fits = w > 20 ? static_cast<size_t>((w - 6) / 7) : 0;
        std::string label = f.name.size() <= fits ? f.name : fits > 2 ? f.name.substr(0, fits - 2) + ".." : "";
        s += "<text x=\"" + formatNumber("%.1f", x + 3) + "\" y=\"" + std::to_string(y + frameH - 4) + "\">" +
             svgText(label) + "</text></g>\n";
    }
    // Click a frame to zoom to it (its callers stay, full width), Reset zoom to go back; Search
    // paints the frames whose name matches and says their share. One handler for every graph
    // of a page (an HTML report holds several).
    s += R"JS(<script type="text/ecmascript"><![CDATA[
if (!window.scalelabFlame) {
  window.scalelabFlame = true;
  var W = function (svg) { return svg.viewBox.baseVal.width; };
  var draw = function (svg, x0, w0, d0) {
    var pad = 10, usable = W(svg) - 2 * pad;
    svg.querySelectorAll('g.fr').forEach(function (g) {
      var x = +g.dataset.x, w = +g.dataset.w, d = +g.dataset.d, r = g.querySelector('rect'), t = g.querySelector('text');
      var inside = x >= x0 - 1e-9 && x + w <= x0 + w0 + 1e-9, below = d < d0 && x <= x0 + 1e-9 && x + w >= x0 + w0 - 1e-9;
      if (!inside && !below) { g.style.display = 'none'; return; }
      g.style.display = '';
      var px = below ? pad : pad + (x - x0) / w0 * usable, pw = below ? usable : w / w0 * usable;
      r.setAttribute('x', px); r.setAttribute('width', Math.max(0, pw - 0.5));
      t.setAttribute('x', px + 3);
      var n = g.dataset.n, fits = pw > 20 ? Math.floor((pw - 6) / 7) : 0;
      t.textContent = n.length <= fits ? n : fits > 2 ? n.substring(0, fits - 2) + '..' : '';
    });
    svg.querySelector('.flame-reset').setAttribute('visibility', w0 < 1 ? 'visible' : 'hidden');
  };
  document.addEventListener('click', function (e) {
    var svg = e.target.closest && e.target.closest('svg.flame');
    if (!svg) return;
    var g = e.target.closest('g.fr');
    if (g) { draw(svg, +g.dataset.x, +g.dataset.w, +g.dataset.d); return; }
    if (e.target.classList.contains('flame-reset')) { draw(svg, 0, 1, 0); return; }
    if (!e.target.classList.contains('flame-search')) return;
    var term = window.prompt('Search frames (a regular expression)', '');
    var matched = svg.querySelector('.flame-matched');
    var re = null;
    try { re = term ? new RegExp(term) : null; } catch (err) { matched.textContent = 'not a regular expression'; return; }
    var spans = [];
    svg.querySelectorAll('g.fr').forEach(function (g) {
      var r = g.querySelector('rect');
      if (!r.dataset.fill) r.dataset.fill = r.getAttribute('fill');
      var hit = re && re.test(g.dataset.n);
      r.setAttribute('fill', hit ? 'rgb(230,0,230)' : r.dataset.fill);
      if (hit) spans.push([+g.dataset.x, +g.dataset.x + +g.dataset.w]);
    });
    spans.sort(function (a, b) { return a[0] - b[0]; });
    var share = 0, end = -1;
    spans.forEach(function (s) { if (s[0] >= end) { share += s[1] - s[0]; end = s[1]; } else if (s[1] > end) { share += s[1] - end; end = s[1]; } });
    matched.textContent = re ? 'Matched: ' + (100 * share).toFixed(1) + '%' : '';
  });
  document.addEventListener('mouseover', function (e) {
    var g = e.target.closest && e.target.closest('g.fr');
    if (!g) return;
    var svg = g.closest('svg.flame');
    svg.querySelector('.flame-details').textContent = g.querySelector('title').textContent;
  });
}
]]></script>
)JS";
    s += "</svg>\n";
    return s;
}

} // namespace scalelab
