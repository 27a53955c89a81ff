#include "pages/PuStrip.h"

#include <QPainter>

namespace scalelab::ui {

PuStrip::PuStrip(const TopologyInfo& machine, QWidget* parent) : QWidget(parent), machine_(machine) {
    setMinimumHeight(48);
    setToolTip(tr("Busy % of each PU in the last interval; the PUs of one core sit together"));
}

void PuStrip::setBusy(const std::vector<std::pair<int, double>>& busyByPu) {
    busy_.clear();
    for (const auto& [pu, b] : busyByPu) busy_[pu] = b;
    update();
}

QSize PuStrip::sizeHint() const { return {400, 56}; }

void PuStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    int cells = machine_.puCount(), gaps = static_cast<int>(machine_.cores.size()) - 1;
    if (cells == 0) return;
    const double gap = 6;
    double w = std::max(4.0, (width() - gap * gaps) / cells);
    double x = 0;
    QFont f = font();
    f.setPointSizeF(std::max(6.0, std::min(9.0, w / 4)));
    p.setFont(f);
    for (const auto& core : machine_.cores) {
        for (int pu : core.pus) {
            auto it = busy_.find(pu);
            double busy = it == busy_.end() ? -1 : it->second;
            QColor c = busy < 0 ? QColor(220, 220, 220) : QColor::fromHsvF(0.33 * (1 - busy / 100), 0.75, 0.9);
            QRectF cell(x, 0, w - 1, height() - 1);
            p.fillRect(cell, c);
            p.setPen(Qt::black);
            if (w >= 24)
                p.drawText(cell, Qt::AlignCenter,
                           QStringLiteral("%1\n%2").arg(pu).arg(busy < 0 ? QStringLiteral("-") : QString::number(busy, 'f', 0) + QStringLiteral("%")));
            x += w;
        }
        x += gap;
    }
}

void PuStrip::setMachine(const TopologyInfo& machine) {
    machine_ = machine;
    busy_.clear();
    updateGeometry();
    update();
}

} // namespace scalelab::ui
