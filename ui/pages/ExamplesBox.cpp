#include "pages/ExamplesBox.h"

#include "server/EmbeddedServer.h"
#include "sweep/ExamplePlans.h"
#include "util/Error.h"
#include "util/JsonParse.h"

#include <QFile>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>

void scalelabInitResources();  // ui/Resources.cpp: the plans are compiled into the library

namespace scalelab::ui {

ExamplesBox::ExamplesBox(const TopologyInfo& machine, QWidget* parent) : QGroupBox(tr("A first sweep, sized to this machine"), parent) {
    scalelabInitResources();
    auto* grid = new QGridLayout(this);
    grid->setColumnStretch(1, 1);
    std::filesystem::path dataDir;  // none without HOME: the two-build example says so
    try {
        dataDir = defaultDataDir();
    } catch (const Error&) {
    }
    int row = 0;
    for (const char* name : {"smt-on-off", "cores-half", "head-vs-patched"}) {
        QFile file(QStringLiteral(":/scalelab/plans/%1.json").arg(QLatin1String(name)));
        if (!file.open(QIODevice::ReadOnly)) continue;  // not compiled in: nothing to offer
        ExamplePlan e;
        try {
            e = sizedExample(name, parseJson(file.readAll().toStdString()), machine, dataDir);
        } catch (const std::exception& error) {
            e.title = name;
            e.unusable = error.what();
        }
        auto* button = new QPushButton(QString::fromStdString(e.title));
        button->setObjectName(QLatin1String(name));
        auto* text = new QLabel(QString::fromStdString(e.unusable.empty() ? e.sentence : "Not here: " + e.unusable + "."));
        text->setTextFormat(Qt::PlainText);
        text->setWordWrap(true);
        button->setEnabled(e.unusable.empty());
        button->setToolTip(tr("Puts this plan in the form below; Start runs it (the shipped plan: %1)")
                               .arg(QStringLiteral("resources/plans/%1.json").arg(QLatin1String(name))));
        connect(button, &QPushButton::clicked, this, [this, plan = e.plan] { emit chosen(plan); });
        grid->addWidget(button, row, 0, Qt::AlignTop);
        grid->addWidget(text, row, 1);
        buttons_.append(button);
        ++row;
    }
}

} // namespace scalelab::ui
