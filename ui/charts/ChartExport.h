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

// Text a reader can read where an exported chart is seen (issue 32.4: in a browser the report's
// charts had tiny serif text): a family every Debian desktop has, at `pixelSize` (titles a
// little larger). Call after the chart has its axes.
void useExportFonts(QChart* chart, int pixelSize = 14);
// Each font-family of an SVG with a generic fallback a browser knows: Qt writes the family it
// resolved ("Sans Serif", fontconfig's alias), which a browser takes for an unknown font and
// draws in its default serif.
QByteArray withGenericFontFamilies(const QByteArray& svg);

} // namespace scalelab::ui
