#pragma once
// A chart to a file: PNG at 1x or 2x (for high-density screens and print), or SVG. Works
// without a display (QT_QPA_PLATFORM=offscreen): the chart is rendered through its own scene.
#include <QByteArray>
#include <QFont>
#include <QList>
#include <QPair>
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

// The export fonts for as long as it lives, then the chart's own again: the window exports the
// chart it shows with the same text as `scalelab export` (issue 61.3: its SVG had every label at
// 9 and a plain title, the CLI's 14 and a bold 16).
class ExportFontsScope {
public:
    explicit ExportFontsScope(QChart* chart, int pixelSize = 14);
    ~ExportFontsScope();
    ExportFontsScope(const ExportFontsScope&) = delete;
    ExportFontsScope& operator=(const ExportFontsScope&) = delete;

private:
    QChart* chart_;
    QFont title_, legend_;
    QList<QPair<QFont, QFont>> axes_;  // labels, title: of chart->axes() in order
};
// Each font-family of an SVG with a generic fallback a browser knows: Qt writes the family it
// resolved ("Sans Serif", fontconfig's alias), which a browser takes for an unknown font and
// draws in its default serif.
QByteArray withGenericFontFamilies(const QByteArray& svg);
// Without the groups that draw nothing: QSvgGenerator opens one at each change of painter state,
// and nine in ten of a chart's are empty (a 110 KB chart was 100 KB of them; the HTML report
// inlines each chart twice).
QByteArray withoutEmptyGroups(const QByteArray& svg);

} // namespace scalelab::ui
