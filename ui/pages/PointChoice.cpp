#include "pages/PointChoice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

#include <algorithm>

namespace scalelab::ui {

PointChoice::PointChoice(const QString& seriesTip, const QString& againstTip, QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    series_ = new QComboBox;
    series_->setToolTip(seriesTip);
    against_ = new QComboBox;
    against_->setToolTip(againstTip);
    against_->addItem(tr("(none)"));
    x_ = new QComboBox;
    paired_ = new QCheckBox(tr("Paired by round"));
    paired_->setToolTip(tr("Judge each change on the round-by-round differences (as report --paired)"));
    xLabel_ = new QLabel(tr("Clients"));
    row->addWidget(new QLabel(tr("Series")));
    row->addWidget(series_);
    row->addWidget(new QLabel(tr("against")));
    row->addWidget(against_);
    row->addWidget(xLabel_);
    row->addWidget(x_);
    row->addWidget(paired_);
    row->addStretch();
    connect(series_, &QComboBox::currentIndexChanged, this, [this] {
        offerOthers();
        emit changed();
    });
    connect(against_, &QComboBox::currentIndexChanged, this, [this] {
        paired_->setEnabled(against_->currentIndex() > 0);
        emit changed();
    });
    // fill() changes a list with its signals blocked: a change seen here is the user's choice.
    connect(x_, &QComboBox::currentIndexChanged, this, [this] {
        xChosen_ = true;
        emit changed();
    });
    connect(paired_, &QCheckBox::toggled, this, &PointChoice::changed);
    paired_->setEnabled(false);
}

void PointChoice::fill(QComboBox* box, const QStringList& items, int firstFixed) {
    QStringList current;
    for (int i = firstFixed; i < box->count(); ++i) current << box->itemText(i);
    if (current == items) return;
    QString chosen = box->currentText();
    QSignalBlocker block(box);
    while (box->count() > firstFixed) box->removeItem(box->count() - 1);
    box->addItems(items);
    int at = box->findText(chosen);
    if (box == x_ && !xChosen_) at = -1;  // the highest, until the user picks one
    box->setCurrentIndex(at >= 0 ? at : box == x_ && box->count() > 0 ? box->count() - 1 : 0);
}

void PointChoice::offerOthers() {
    QStringList others = seriesNames_;
    others.removeAll(series_->currentText());  // never a series against itself
    fill(against_, others, 1);
    paired_->setEnabled(against_->currentIndex() > 0);
}

void PointChoice::offer(const QStringList& series, std::vector<int> xs, PointAxis axis) {
    axis_ = axis;
    xLabel_->setText(axis == PointAxis::Rate ? tr("Offered tps") : axis == PointAxis::Scale ? tr("Scale") : tr("Clients"));
    x_->setToolTip(axis == PointAxis::Rate    ? tr("The offered rate (tps)")
                   : axis == PointAxis::Scale ? tr("The data scale")
                                              : tr("The client count"));
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    QStringList xTexts;
    for (int x : xs) xTexts << QString::number(x);
    seriesNames_ = series;
    fill(series_, series, 0);
    fill(x_, xTexts, 0);
    offerOthers();
}

std::string PointChoice::series() const { return series_->currentText().toStdString(); }
std::string PointChoice::against() const {
    return against_->currentIndex() > 0 ? against_->currentText().toStdString() : std::string();
}
int PointChoice::x() const { return x_->currentText().toInt(); }
bool PointChoice::paired() const { return paired_->isEnabled() && paired_->isChecked(); }

} // namespace scalelab::ui
