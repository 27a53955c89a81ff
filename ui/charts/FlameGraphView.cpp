#include "charts/FlameGraphView.h"

#include "util/Format.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>

namespace scalelab::ui {

namespace {
constexpr double kPad = 4;
}

FlameGraphView::FlameGraphView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void FlameGraphView::setLayout(FlameLayout layout, double samplesPerValue) {
    layout_ = std::move(layout);
    samplesPerValue_ = samplesPerValue;
    zoom_ = 0;
    search_ = QRegularExpression();
    matched_.assign(layout_.frames.size(), false);
    setFixedHeight(sizeHint().height());
    update();
}

QSize FlameGraphView::sizeHint() const { return QSize(600, static_cast<int>((layout_.depth + 1) * kFrameHeight + 2 * kPad)); }

double FlameGraphView::setSearch(const QRegularExpression& pattern) {
    search_ = pattern;
    matched_.assign(layout_.frames.size(), false);
    std::vector<std::pair<double, double>> spans;
    if (pattern.isValid() && !pattern.pattern().isEmpty())
        for (size_t i = 0; i < layout_.frames.size(); ++i)
            if (pattern.match(QString::fromStdString(layout_.frames[i].name)).hasMatch()) {
                matched_[i] = true;
                spans.emplace_back(layout_.frames[i].x, layout_.frames[i].x + layout_.frames[i].width);
            }
    std::sort(spans.begin(), spans.end());
    double share = 0, end = -1;
    for (const auto& [a, b] : spans) {  // a callee inside a matched caller counts once
        if (a >= end) share += b - a, end = b;
        else if (b > end) share += b - end, end = b;
    }
    update();
    return share;
}

void FlameGraphView::zoomTo(int frame) {
    if (frame < 0 || frame >= static_cast<int>(layout_.frames.size())) return;
    zoom_ = frame;
    update();
    emit zoomed(frame);
}

QRectF FlameGraphView::frameRect(int i) const {
    if (i < 0 || i >= static_cast<int>(layout_.frames.size())) return {};
    const FlameFrame& f = layout_.frames[static_cast<size_t>(i)];
    const FlameFrame& z = layout_.frames[static_cast<size_t>(zoom_)];
    const double usable = width() - 2 * kPad;
    const double eps = 1e-9;
    bool inside = f.x >= z.x - eps && f.x + f.width <= z.x + z.width + eps && f.depth >= z.depth;
    bool below = f.depth < z.depth && f.x <= z.x + eps && f.x + f.width >= z.x + z.width - eps;
    if (!inside && !below) return {};
    double x = below ? kPad : kPad + (f.x - z.x) / z.width * usable;
    double w = below ? usable : f.width / z.width * usable;
    double y = height() - kPad - (f.depth + 1) * kFrameHeight;
    return QRectF(x, y, w, kFrameHeight - 1);
}

int FlameGraphView::frameAt(const QPoint& p) const {
    for (int i = static_cast<int>(layout_.frames.size()) - 1; i >= 0; --i)
        if (frameRect(i).contains(p)) return i;
    return -1;
}

QString FlameGraphView::tipOf(int i) const {
    if (i < 0 || i >= static_cast<int>(layout_.frames.size())) return {};
    const FlameFrame& f = layout_.frames[static_cast<size_t>(i)];
    std::string tip = f.name + "\n" + formatNumber("%.3g", f.value) + " samples per 1,000 transactions";
    if (samplesPerValue_ > 0) tip += ", " + formatNumber("%.0f", f.value * samplesPerValue_) + " samples";
    tip += "\n" + formatNumber("%.2f", 100.0 * f.value / layout_.total) + "% of all";
    if (f.self > 0) tip += ", " + formatNumber("%.2f", 100.0 * f.self / layout_.total) + "% in itself";
    if (f.delta) tip += "\n" + formatSigned(*f.delta, 3) + " per 1,000 transactions against A";
    return QString::fromStdString(tip);
}

void FlameGraphView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(248, 248, 248));
    if (layout_.frames.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("no samples"));
        return;
    }
    QFont font = p.font();
    font.setPixelSize(11);
    p.setFont(font);
    const QFontMetrics fm(font);
    for (size_t i = 0; i < layout_.frames.size(); ++i) {
        QRectF r = frameRect(static_cast<int>(i));
        if (r.isEmpty() || r.width() < 0.5) continue;
        FlameRgb c = flameRgb(layout_.frames[i], layout_);
        p.fillRect(r.adjusted(0, 0, -0.5, 0), matched_[i] ? QColor(230, 0, 230) : QColor(c.r, c.g, c.b));
        if (r.width() < 20) continue;
        QString name = fm.elidedText(QString::fromStdString(layout_.frames[i].name), Qt::ElideRight, static_cast<int>(r.width() - 6));
        p.setPen(Qt::black);
        p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, name);
    }
}

void FlameGraphView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
    int i = frameAt(e->position().toPoint());
    // The frame zoomed to, or one below it, zooms out a step: to the root.
    if (i >= 0) zoomTo(i == zoom_ || layout_.frames[static_cast<size_t>(i)].depth < layout_.frames[static_cast<size_t>(zoom_)].depth ? 0 : i);
}

void FlameGraphView::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Escape && zoom_ != 0) return zoomTo(0);
    QWidget::keyPressEvent(e);
}

bool FlameGraphView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        int i = frameAt(help->pos());
        // Function names come from the server's binaries ("operator<(...)"): never Qt's rich-text
        // guess; a tip that looks like markup is shown as the plain text it is.
        QString tip = tipOf(i);
        if (Qt::mightBeRichText(tip)) tip = Qt::convertFromPlainText(tip, Qt::WhiteSpaceNormal);
        if (i >= 0) QToolTip::showText(help->globalPos(), tip, this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

} // namespace scalelab::ui
