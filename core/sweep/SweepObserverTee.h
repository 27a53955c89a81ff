#pragma once
// One sweep, two observers: the console or the window, and the metrics endpoint's publisher.
#include "sweep/SweepRunner.h"

#include <vector>

namespace scalelab {

class SweepObserverTee : public SweepObserver {
public:
    // Null entries are skipped: an observer that is not there (no --metrics-listen).
    explicit SweepObserverTee(std::vector<SweepObserver*> observers) : observers_(std::move(observers)) {}
    void onProgress(const SweepProgress& p) override {
        for (auto* o : observers_)
            if (o) o->onProgress(p);
    }
    void onSample(const SweepProgress& p, const LoadSample& s) override {
        for (auto* o : observers_)
            if (o) o->onSample(p, s);
    }
    void onRunFinished(const RunRecord& r) override {
        for (auto* o : observers_)
            if (o) o->onRunFinished(r);
    }
    void onNote(const std::string& s) override {
        for (auto* o : observers_)
            if (o) o->onNote(s);
    }
    void onServerLog(const std::vector<std::string>& lines) override {
        for (auto* o : observers_)
            if (o) o->onServerLog(lines);
    }

private:
    std::vector<SweepObserver*> observers_;
};

} // namespace scalelab
