#include "charts/ChartExport.h"

#include "util/Error.h"

#include <QBuffer>
#include <QChart>
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
    QSaveFile file(path);  // whole or not at all, as the PNG
    QSvgGenerator svg;
    if (!file.open(QIODevice::WriteOnly)) throw Error("cannot write the chart to " + path.toStdString() + ": " + file.errorString().toStdString());
    svg.setOutputDevice(&file);
    if (!paintSvg(svg, chart, size, title) || !file.commit())
        throw Error("cannot write the chart to " + path.toStdString() + ": " + file.errorString().toStdString());
}

QByteArray chartSvg(QChart* chart, QSize size, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    if (!paintSvg(svg, chart, size, title)) throw Error("cannot draw the chart as SVG");
    return buffer.data();
}

} // namespace scalelab::ui
