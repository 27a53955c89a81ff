#include "charts/ChartExport.h"

#include "util/Error.h"

#include <QAbstractAxis>
#include <QBuffer>
#include <QChart>
#include <QLegend>
#include <QRegularExpression>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace scalelab::ui {
namespace {

// Renders the chart at `size` onto `painter`, giving it back to its scene afterwards.
void render(QChart* chart, QPainter& painter, QSize size) {
    QGraphicsScene* owner = chart->scene();
    QSizeF oldSize = chart->size();
    QGraphicsScene scene;
    if (owner) owner->removeItem(chart);
    scene.addItem(chart);
    chart->resize(size);
    scene.setSceneRect(QRectF(QPointF(0, 0), size));
    scene.render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
    scene.removeItem(chart);
    if (owner) owner->addItem(chart);
    chart->resize(oldSize);
}

} // namespace

void exportChartPng(QChart* chart, const QString& path, QSize size, qreal scale) {
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        render(chart, painter, size);
    }
    // QSaveFile: written under a temporary name and renamed, so a failure leaves no partial file.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit())
        throw Error("cannot write the chart to " + path.toStdString() + ": " + file.errorString().toStdString());
}

namespace {
// Onto `svg`, whose output (file or buffer) is set; false when it cannot be written.
bool paintSvg(QSvgGenerator& svg, QChart* chart, QSize size, const QString& title) {
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("ScaleLab chart"));
    QPainter painter;
    if (!painter.begin(&svg)) return false;
    painter.setRenderHint(QPainter::Antialiasing);
    render(chart, painter, size);
    return painter.end();
}
} // namespace

void exportChartSvg(QChart* chart, const QString& path, QSize size, const QString& title) {
    QByteArray svg = chartSvg(chart, size, title);
    QSaveFile file(path);  // whole or not at all, as the PNG
    if (!file.open(QIODevice::WriteOnly) || file.write(svg) != svg.size() || !file.commit())
        throw Error("cannot write the chart to " + path.toStdString() + ": " + file.errorString().toStdString());
}

QByteArray chartSvg(QChart* chart, QSize size, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    if (!paintSvg(svg, chart, size, title)) throw Error("cannot draw the chart as SVG");
    return withoutEmptyGroups(withGenericFontFamilies(buffer.data()));
}

void useExportFonts(QChart* chart, int pixelSize) {
    QFont text;
    text.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Liberation Sans"), QStringLiteral("Arial")});
    text.setPixelSize(pixelSize);
    QFont title = text;
    title.setPixelSize(pixelSize + 2);
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(text);
        axis->setTitleFont(text);
    }
}

ExportFontsScope::ExportFontsScope(QChart* chart, int pixelSize)
    : chart_(chart), title_(chart->titleFont()), legend_(chart->legend()->font()) {
    for (QAbstractAxis* axis : chart->axes()) axes_.append({axis->labelsFont(), axis->titleFont()});
    useExportFonts(chart, pixelSize);
}

ExportFontsScope::~ExportFontsScope() {
    chart_->setTitleFont(title_);
    chart_->legend()->setFont(legend_);
    const auto axes = chart_->axes();
    for (qsizetype i = 0; i < axes.size() && i < axes_.size(); ++i) {
        axes[i]->setLabelsFont(axes_[i].first);
        axes[i]->setTitleFont(axes_[i].second);
    }
}

QByteArray withGenericFontFamilies(const QByteArray& svg) {
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    QString out;
    qsizetype from = 0;
    for (auto it = family.globalMatch(text); it.hasNext();) {
        QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(from, m.capturedStart() - from);
        QString name = m.captured(1).trimmed();
        bool generic = name.isEmpty() || name.compare(QStringLiteral("Sans Serif"), Qt::CaseInsensitive) == 0 ||
                       name.compare(QStringLiteral("sans-serif"), Qt::CaseInsensitive) == 0;
        // Quoted inside the attribute, as CSS wants a family with spaces.
        out += generic ? QStringLiteral("font-family=\"sans-serif\"")
                       : QStringLiteral("font-family=\"'%1', sans-serif\"").arg(name.remove(QLatin1Char('\'')));
        from = m.capturedEnd();
    }
    out += QStringView(text).mid(from);
    return out.toUtf8();
}

QByteArray withoutEmptyGroups(const QByteArray& svg) {
    // A group's attributes never hold '>' (QSvgGenerator writes styles and a matrix); one that
    // held only empty groups is empty once they are gone, hence the loop.
    static const QRegularExpression empty(QStringLiteral("<g\\b[^>]*>\\s*</g>\\s*"));
    QString text = QString::fromUtf8(svg);
    for (qsizetype before = -1; before != text.size();) {
        before = text.size();
        text.remove(empty);
    }
    return text.toUtf8();
}

} // namespace scalelab::ui
