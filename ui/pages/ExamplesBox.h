#pragma once
// The Setup page's first-run offer (issue 65): the three example plans (resources/plans),
// sized to this machine (core/sweep/ExamplePlans.h), each a button and one sentence. A click
// puts that plan in the form; Start runs it. One this machine cannot run is disabled and says
// why. The window shows the box while the machine has no experiment yet.
#include "topo/Topology.h"

#include <nlohmann/json.hpp>

#include <QGroupBox>

class QPushButton;

namespace scalelab::ui {

class ExamplesBox : public QGroupBox {
    Q_OBJECT
public:
    explicit ExamplesBox(const TopologyInfo& machine, QWidget* parent = nullptr);
    // The buttons in file order (smt-on-off, cores-half, head-vs-patched): for tests.
    QList<QPushButton*> buttons() const { return buttons_; }

signals:
    void chosen(const nlohmann::json& plan);

private:
    QList<QPushButton*> buttons_;
};

} // namespace scalelab::ui
