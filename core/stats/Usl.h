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
    double sd = 0;   // of the runs at this point; with n, the weight 1/se^2; 0 when unknown
    int n = 1;       // runs behind the mean
};

// Amdahl's law (kappa = 0), shown beside the USL when kappa is not significantly above 0;
// never in its place.
struct AmdahlFit {
    double lambda = 0, sigma = 0;
    double lambdaSe = 0, sigmaSe = 0;  // NaN when they cannot be computed
    double rSquared = 0;
    bool converged = true;             // as UslFit's; without it the estimates are not shown as a fit
};

struct UslFit {
    std::string model = "USL";          // always the full USL
    double lambda = 0, sigma = 0, kappa = 0;
    // From s^2 (J^T J)^-1. NaN, never 0, when they cannot be computed: as many client counts as
    // parameters, or a fit that did not converge (singular or non-finite covariance).
    double lambdaSe = 0, sigmaSe = 0, kappaSe = 0;
    double rSquared = 0;                // on the point means
    int points = 0;
    bool weighted = false;
    bool converged = true;              // Levenberg-Marquardt ended on a tolerance, with finite estimates
    bool kappaAboveZero = false;        // kappa's 95% interval lies above 0
    std::optional<double> peakClients;  // N* = sqrt((1 - sigma) / kappa), when the fit converged, kappa > 0 and sigma < 1
    std::optional<double> peakThroughput;  // X(N*)
    std::optional<double> peakClientsSe, peakThroughputSe;  // delta method; none without standard errors
    std::optional<AmdahlFit> amdahl;    // the second model, when kappa is not significantly above 0
    std::string note;                   // e.g. why there is no peak, or why the peak is uncertain
    double predict(double clients) const;
};

// Non-linear least squares (Eigen's Levenberg-Marquardt) from a start found by linearizing the
// law. weighted: residuals divided by each point's standard error of the mean, sd / sqrt(n)
// (points with sd 0 then refuse weighting). Standard errors from s^2 (J^T J)^-1,
// s^2 = residual sum of squares / (points - parameters). The USL is always reported; when
// kappa's 95% interval reaches 0 that is said (kappaAboveZero false) and Amdahl's law is fitted
// as a second model. Throws Error with fewer points than parameters.
// maxEvaluations: Levenberg-Marquardt's budget of function evaluations (a fit that runs out of
// it has not converged: no standard errors, no peak, said in the note).
UslFit fitUsl(const std::vector<ScalingPoint>& points, bool weighted = false, int maxEvaluations = 2000);

// The fewest client counts from which a fit reports a peak (N*, X(N*)); below it the note
// says why there is none.
constexpr int kMinPointsForPeak = 5;

} // namespace scalelab
