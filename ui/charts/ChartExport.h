#pragma once
// A chart to a file: PNG at 1x or 2x (for high-density screens and print), or SVG. Works
// without a display (QT_QPA_PLATFORM=offscreen): the chart is rendered through its own scene.
#include <QByteArray>
#include <QSize>
#include <QString>

class QChart;

namespace scalelab::ui {

// Throws scalelab::Error naming the file when it cannot be written.
void exportChartPng(QChart* chart, const QString& path, QSize size, qreal scale = 1.0);
void exportChartSvg(QChart* chart, const QString& path, QSize size, const QString& title);
// The SVG document itself (for a report that inlines it).
QByteArray chartSvg(QChart* chart, QSize size, const QString& title);

} // namespace scalelab::ui
