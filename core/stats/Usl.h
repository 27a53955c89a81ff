#pragma once
// Universal Scalability Law fit of one series' throughput curve:
//   X(N) = lambda * N / (1 + sigma * (N - 1) + kappa * N * (N - 1))
// lambda: throughput of one client without contention; sigma: contention (the serial
// share, Amdahl's); kappa: coherency (crosstalk), which makes the curve turn down.
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct ScalingPoint {
    double clients = 0;
    double mean = 0;
    double sd = 0;   // for the 1/variance weights; 0 when unknown
};

struct UslFit {
    std::string model;                  // "USL", or "Amdahl" when kappa is not significantly above 0
    double lambda = 0, sigma = 0, kappa = 0;
    double lambdaSe = 0, sigmaSe = 0, kappaSe = 0;
    double rSquared = 0;                // on the point means
    int points = 0;
    bool weighted = false;
    std::optional<double> peakClients;  // N* = sqrt((1 - sigma) / kappa)
    std::optional<double> peakThroughput;  // X(N*)
    std::string note;                   // e.g. why there is no peak
    double predict(double clients) const;
};

// Non-linear least squares (Eigen's Levenberg-Marquardt) from a start found by linearizing the
// law. weighted: residuals divided by each point's sd (points with sd 0 then refuse weighting).
// Standard errors from s^2 (J^T J)^-1, s^2 = residual sum of squares / (points - parameters).
// kappa is kept when its confidence interval (95%) lies above 0; otherwise Amdahl's law
// (kappa = 0) is fitted instead. Throws Error with fewer points than parameters.
UslFit fitUsl(const std::vector<ScalingPoint>& points, bool weighted = false);

} // namespace scalelab
