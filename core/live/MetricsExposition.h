#pragma once
// LiveMetrics as Prometheus reads it: OpenMetrics 1.0 text when the scraper asks for it (its
// Accept header), else the Prometheus text format 0.0.4. A figure the run does not have is left
// out, never written as 0 (docs/metrics-endpoint.md lists every family).
#include "live/LiveMetrics.h"

#include <string>

namespace scalelab {

enum class ExpositionFormat { OpenMetrics, PrometheusText };

// OpenMetrics when `accept` names application/openmetrics-text (Prometheus does by default).
ExpositionFormat expositionFormatFor(const std::string& accept);
const char* expositionContentType(ExpositionFormat format);
std::string exposition(const LiveMetrics& metrics, ExpositionFormat format);

// A label value as both formats write it: backslash, double quote and newline escaped.
std::string escapeLabelValue(const std::string& value);

} // namespace scalelab
