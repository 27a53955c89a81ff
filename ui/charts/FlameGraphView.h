#pragma once
// A flame graph in the window (issue 62): the layout core/report/FlameGraph computes, painted
// as flamegraph.pl draws it (the outermost frame at the bottom), with what its SVG does: click a
// frame to zoom to it (its callers stay, full width), click the root or press Escape to zoom
// out, a search that paints the matching frames and says their share, and a tooltip with each
// frame's value per 1,000 transactions, samples and share (differential: the change against A).
#include "report/FlameGraph.h"

#include <QRegularExpression>
#include <QWidget>

namespace scalelab::ui {

class FlameGraphView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kFrameHeight = 17;
    explicit FlameGraphView(QWidget* parent = nullptr);

    // `samplesPerValue` > 0: tooltips also give samples. Zoom and search are reset.
    void setLayout(FlameLayout layout, double samplesPerValue = 0);
    const FlameLayout& flameLayout() const { return layout_; }
    // Paints the frames whose name matches (an empty or invalid pattern: none); the share of the
    // whole they cover, 0..1.
    double setSearch(const QRegularExpression& pattern);
    void zoomTo(int frame);  // index into flameLayout().frames; 0 (the root) zooms out
    int zoomedFrame() const { return zoom_; }
    // The frame under a point of the widget, or -1.
    int frameAt(const QPoint& p) const;
    QRectF frameRect(int frame) const;  // empty when the frame is not drawn at this zoom
    QString tipOf(int frame) const;
    QSize sizeHint() const override;

signals:
    void zoomed(int frame);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool event(QEvent*) override;

private:
    FlameLayout layout_;
    double samplesPerValue_ = 0;
    int zoom_ = 0;
    QRegularExpression search_;
    std::vector<bool> matched_;
};

} // namespace scalelab::ui
