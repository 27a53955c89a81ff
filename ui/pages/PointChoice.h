#pragma once
// The row of choices above the Waits and CPU profile tabs: a series, another to compare it with
// (or none), the x (client count, offered rate, scale) and whether to pair by round. It keeps
// what the user chose while a sweep adds points, and shows the highest x until one is picked.
#include "stats/PointAxis.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace scalelab::ui {

class PointChoice : public QWidget {
    Q_OBJECT
public:
    explicit PointChoice(const QString& seriesTip, const QString& againstTip, QWidget* parent = nullptr);

    // The series (in the experiment's order) and the x values the points have.
    void offer(const QStringList& series, std::vector<int> xs, PointAxis axis);
    // The same from points (a type with `series` and `clients`): the series of `order` that have
    // points, and the points' x values.
    template <class Point>
    void offerPoints(const std::vector<Point>& points, const std::vector<std::string>& order, PointAxis axis) {
        QStringList series;
        for (const auto& s : order)
            for (const auto& p : points)
                if (p.series == s) {
                    series << QString::fromStdString(s);
                    break;
                }
        std::vector<int> xs;
        for (const auto& p : points) xs.push_back(p.clients);
        offer(series, std::move(xs), axis);
    }

    std::string series() const;
    std::string against() const;  // "" for none
    int x() const;
    bool paired() const;
    PointAxis axis() const { return axis_; }

    QComboBox* seriesCombo() const { return series_; }
    QComboBox* againstCombo() const { return against_; }  // item 0: none
    QComboBox* xCombo() const { return x_; }
    QCheckBox* pairedBox() const { return paired_; }

signals:
    void changed();

private:
    void fill(QComboBox* box, const QStringList& items, int firstFixed);
    void offerOthers();

    QComboBox *series_, *against_, *x_;
    QLabel* xLabel_;
    QCheckBox* paired_;
    QStringList seriesNames_;
    bool xChosen_ = false;
    PointAxis axis_ = PointAxis::Clients;
};

} // namespace scalelab::ui
