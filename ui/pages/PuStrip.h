#pragma once
// Busy percent of every PU as a strip of cells, the PUs of one core side by side (SMT siblings
// together) and a gap between cores, so an idle sibling or a saturated core shows at a glance.
#include "topo/Topology.h"

#include <QWidget>

#include <map>

namespace scalelab::ui {

class PuStrip : public QWidget {
    Q_OBJECT
public:
    explicit PuStrip(const TopologyInfo& machine, QWidget* parent = nullptr);
    void setBusy(const std::vector<std::pair<int, double>>& busyByPu);
    // Another machine's PUs (a metrics host's, docs/hosts.md); the values shown are cleared.
    void setMachine(const TopologyInfo& machine);
    const TopologyInfo& machine() const { return machine_; }
    const std::map<int, double>& busy() const { return busy_; }  // empty: no figure (grey tiles)
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    TopologyInfo machine_;
    std::map<int, double> busy_;
};

} // namespace scalelab::ui
