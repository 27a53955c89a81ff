#pragma once
// What SetupPage.cpp (widgets, validation) and SetupPagePlan.cpp (the form as plan JSON and back)
// share: the series table's columns and the "name=value, ..." fields.
#include <nlohmann/json.hpp>

#include <QString>

namespace scalelab::ui::setupform {

enum SeriesColumn { Label, Placement, Separate, Settings, Pus, SeriesColumns };

// "name=value, name=value" -> {"name": "value"}; an item without '=' maps to null, which the
// plan parser names.
nlohmann::json settingsJson(const QString& text);

} // namespace scalelab::ui::setupform
