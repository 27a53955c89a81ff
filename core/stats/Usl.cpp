#include "stats/Usl.h"

#include "stats/Summary.h"
#include "util/Error.h"

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalelab {
namespace {

// Residuals and Jacobian for Eigen's LevenbergMarquardt, over 3 (USL) or 2 (Amdahl) parameters.
struct UslFunctor {
    const std::vector<ScalingPoint>& points;
    bool weighted;
    bool withKappa;
    int inputs() const { return withKappa ? 3 : 2; }
    int values() const { return static_cast<int>(points.size()); }

    // The standard error of the point's mean: a mean of many runs is known better than one of few.
    double weight(const ScalingPoint& p) const { return weighted ? std::sqrt(std::max(1, p.n)) / p.sd : 1.0; }

    int operator()(const Eigen::VectorXd& x, Eigen::VectorXd& fvec) const {
        double kappa = withKappa ? x[2] : 0;
        for (size_t i = 0; i < points.size(); ++i) {
            const auto& p = points[i];
            double d = 1 + x[1] * (p.clients - 1) + kappa * p.clients * (p.clients - 1);
            fvec[static_cast<Eigen::Index>(i)] = weight(p) * (x[0] * p.clients / d - p.mean);
        }
        return 0;
    }
    int df(const Eigen::VectorXd& x, Eigen::MatrixXd& jac) const {
        double kappa = withKappa ? x[2] : 0;
        for (size_t i = 0; i < points.size(); ++i) {
            const auto& p = points[i];
            double n = p.clients, d = 1 + x[1] * (n - 1) + kappa * n * (n - 1), w = weight(p);
            auto r = static_cast<Eigen::Index>(i);
            jac(r, 0) = w * n / d;
            jac(r, 1) = -w * x[0] * n * (n - 1) / (d * d);
            if (withKappa) jac(r, 2) = -w * x[0] * n * n * (n - 1) / (d * d);
        }
        return 0;
    }
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One fit of the USL (withKappa) or of Amdahl's law, with the parameters' covariance.
struct RawFit {
    Eigen::VectorXd x;
    Eigen::MatrixXd cov;   // empty when it cannot be computed
    bool converged = true;
    double rSquared = 0;
};

double predictWith(const Eigen::VectorXd& x, bool withKappa, double n) {
    double kappa = withKappa ? x[2] : 0;
    return x[0] * n / (1 + x[1] * (n - 1) + kappa * n * (n - 1));
}

RawFit fit(const std::vector<ScalingPoint>& points, bool weighted, bool withKappa, int maxEvaluations) {
    int params = withKappa ? 3 : 2;
    // Start: lambda from the smallest client count; then the law is linear in sigma and kappa:
    //   lambda N / X - 1 = sigma (N - 1) + kappa N (N - 1).
    auto first = std::min_element(points.begin(), points.end(),
                                  [](const ScalingPoint& a, const ScalingPoint& b) { return a.clients < b.clients; });
    double lambda0 = first->mean / first->clients;
    Eigen::MatrixXd A(static_cast<Eigen::Index>(points.size()), params - 1);
    Eigen::VectorXd y(static_cast<Eigen::Index>(points.size()));
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        auto r = static_cast<Eigen::Index>(i);
        A(r, 0) = p.clients - 1;
        if (withKappa) A(r, 1) = p.clients * (p.clients - 1);
        y[r] = p.mean > 0 ? lambda0 * p.clients / p.mean - 1 : 0;
    }
    Eigen::VectorXd lin = A.colPivHouseholderQr().solve(y);
    RawFit out;
    out.x = Eigen::VectorXd(params);
    out.x[0] = lambda0;
    out.x[1] = std::max(lin[0], 0.0);
    if (withKappa) out.x[2] = std::max(lin[1], 1e-9);

    UslFunctor f{points, weighted, withKappa};
    Eigen::LevenbergMarquardt<UslFunctor> lm(f);
    lm.parameters.xtol = 1e-14;
    lm.parameters.ftol = 1e-14;
    lm.parameters.maxfev = maxEvaluations;
    auto status = lm.minimize(out.x);
    // Ending on a tolerance (even one too small to improve on) is convergence; running out of
    // evaluations, bad input or non-finite estimates is not.
    out.converged = status != Eigen::LevenbergMarquardtSpace::ImproperInputParameters &&
                    status != Eigen::LevenbergMarquardtSpace::TooManyFunctionEvaluation && out.x.allFinite();

    Eigen::VectorXd r(points.size());
    f(out.x, r);
    Eigen::MatrixXd J(static_cast<Eigen::Index>(points.size()), params);
    f.df(out.x, J);
    int dof = static_cast<int>(points.size()) - params;
    if (out.converged && dof > 0) {
        double s2 = r.squaredNorm() / dof;
        Eigen::FullPivLU<Eigen::MatrixXd> lu(J.transpose() * J);
        if (lu.isInvertible()) {
            Eigen::MatrixXd cov = lu.inverse() * s2;
            bool usable = cov.allFinite();
            for (int i = 0; i < params; ++i) usable = usable && cov(i, i) >= 0;
            if (usable) out.cov = cov;
        }
    }
    double mean = 0;
    for (const auto& p : points) mean += p.mean;
    mean /= static_cast<double>(points.size());
    double ssRes = 0, ssTot = 0;
    for (const auto& p : points) {
        double e = p.mean - predictWith(out.x, withKappa, p.clients);
        ssRes += e * e;
        ssTot += (p.mean - mean) * (p.mean - mean);
    }
    out.rSquared = ssTot > 0 ? 1 - ssRes / ssTot : 1;
    return out;
}

double seOf(const RawFit& f, int i) { return f.cov.size() ? std::sqrt(f.cov(i, i)) : kNaN; }

} // namespace

double UslFit::predict(double n) const { return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)); }

UslFit fitUsl(const std::vector<ScalingPoint>& points, bool weighted, int maxEvaluations) {
    for (const auto& p : points) {
        if (!std::isfinite(p.clients) || !std::isfinite(p.mean) || !std::isfinite(p.sd))
            throw Error("USL fit: a point is not a number (clients " + std::to_string(p.clients) + ")");
        if (p.clients < 1) throw Error("USL fit: client counts must be at least 1 (got " + std::to_string(p.clients) + ")");
        if (weighted && !(p.sd > 0))
            throw Error("USL fit weighted by 1/variance needs a standard deviation above 0 at every point (clients " +
                        std::to_string(static_cast<long>(p.clients)) + " has none: one run, or identical runs)");
    }
    if (points.size() < 3)
        throw Error("the USL has 3 parameters and needs at least 3 client counts; this series has " +
                    std::to_string(points.size()));
    RawFit raw = fit(points, weighted, true, maxEvaluations);
    UslFit usl;
    usl.points = static_cast<int>(points.size());
    usl.weighted = weighted;
    usl.lambda = raw.x[0], usl.sigma = raw.x[1], usl.kappa = raw.x[2];
    usl.lambdaSe = seOf(raw, 0), usl.sigmaSe = seOf(raw, 1), usl.kappaSe = seOf(raw, 2);
    usl.rSquared = raw.rSquared;
    usl.converged = raw.converged;
    auto addNote = [&](const std::string& n) { usl.note += (usl.note.empty() ? "" : "; ") + n; };
    int dof = usl.points - 3;
    if (!usl.converged) addNote("the fit did not converge: the estimates are not to be trusted and have no standard errors");
    else if (dof == 0) addNote("as many client counts as parameters: the curve passes through every point, with no standard errors");
    else if (std::isnan(usl.kappaSe)) addNote("the parameters' covariance cannot be computed: no standard errors");

    if (!std::isnan(usl.kappaSe)) usl.kappaAboveZero = usl.kappa - studentTQuantile(0.975, dof) * usl.kappaSe > 0;
    if (!usl.kappaAboveZero) {
        RawFit a = fit(points, weighted, false, maxEvaluations);
        usl.amdahl = AmdahlFit{a.x[0], a.x[1], seOf(a, 0), seOf(a, 1), a.rSquared, a.converged};
        if (!a.converged) addNote("Amdahl's law did not converge either: its estimates are not to be trusted");
        if (usl.converged && !std::isnan(usl.kappaSe))
            addNote("kappa is not significantly above 0 (its 95% interval reaches 0): the data do not show a "
                    "coherency cost for certain, and Amdahl's law (no peak) fits too");
    }
    if (usl.sigma < 0)
        addNote("sigma < 0: these points scale better than linearly, which the law does not describe (cache effects, "
                "too few points?)");
    if (!usl.converged) {
        // No peak from a fit that did not converge: N* and X(N*) would look like findings.
    } else if (usl.points < kMinPointsForPeak) {
        // Three parameters on three or four points: the curve bends where the points make it,
        // and "N* 2.5, R² 1.000" read as a finding (issue 32.6).
        addNote("no N*: a peak needs at least " + std::to_string(kMinPointsForPeak) + " client counts, this series has " +
                std::to_string(usl.points) + " (three parameters on so few points say little about where throughput peaks)");
    } else if (usl.sigma >= 1) {
        addNote("sigma >= 1: throughput falls from the first client on");
    } else if (usl.kappa > 0) {
        double nStar = std::sqrt((1 - usl.sigma) / usl.kappa);
        usl.peakClients = nStar;
        usl.peakThroughput = usl.predict(nStar);
        if (raw.cov.size()) {
            // Delta method. N* depends on sigma and kappa; at the peak dX/dN = 0, so X(N*)
            // moves with the parameters as X at a fixed N = N* does.
            Eigen::Vector3d gN(0, -1 / (2 * usl.kappa * nStar), -nStar / (2 * usl.kappa));
            double d = 1 + usl.sigma * (nStar - 1) + usl.kappa * nStar * (nStar - 1);
            Eigen::Vector3d gX(nStar / d, -usl.lambda * nStar * (nStar - 1) / (d * d),
                               -usl.lambda * nStar * nStar * (nStar - 1) / (d * d));
            usl.peakClientsSe = std::sqrt(std::max(0.0, gN.dot(raw.cov * gN)));
            usl.peakThroughputSe = std::sqrt(std::max(0.0, gX.dot(raw.cov * gX)));
        }
    } else if (usl.kappa < 0) {
        addNote("kappa < 0: the curve bends upwards, which the law does not describe (no coherency cost; no peak)");
    } else {
        addNote("kappa = 0: no peak; throughput levels off towards lambda/sigma");
    }
    return usl;
}

} // namespace scalelab
