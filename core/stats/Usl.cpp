#include "stats/Usl.h"

#include "stats/Summary.h"
#include "util/Error.h"

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>

#include <algorithm>
#include <cmath>

namespace scalelab {
namespace {

// Residuals and Jacobian for Eigen's LevenbergMarquardt, over 3 (USL) or 2 (Amdahl) parameters.
struct UslFunctor {
    const std::vector<ScalingPoint>& points;
    bool weighted;
    bool withKappa;
    int inputs() const { return withKappa ? 3 : 2; }
    int values() const { return static_cast<int>(points.size()); }

    double weight(const ScalingPoint& p) const { return weighted ? 1.0 / p.sd : 1.0; }

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

UslFit fit(const std::vector<ScalingPoint>& points, bool weighted, bool withKappa) {
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
    Eigen::VectorXd x(params);
    x[0] = lambda0;
    x[1] = std::max(lin[0], 0.0);
    if (withKappa) x[2] = std::max(lin[1], 1e-9);

    UslFunctor f{points, weighted, withKappa};
    Eigen::LevenbergMarquardt<UslFunctor> lm(f);
    lm.parameters.xtol = 1e-14;
    lm.parameters.ftol = 1e-14;
    lm.parameters.maxfev = 2000;
    lm.minimize(x);

    UslFit out;
    out.model = withKappa ? "USL" : "Amdahl";
    out.points = static_cast<int>(points.size());
    out.weighted = weighted;
    out.lambda = x[0];
    out.sigma = x[1];
    out.kappa = withKappa ? x[2] : 0;

    Eigen::VectorXd r(points.size());
    f(x, r);
    Eigen::MatrixXd J(static_cast<Eigen::Index>(points.size()), params);
    f.df(x, J);
    int dof = static_cast<int>(points.size()) - params;
    if (dof > 0) {
        double s2 = r.squaredNorm() / dof;
        Eigen::MatrixXd cov = (J.transpose() * J).inverse() * s2;
        out.lambdaSe = std::sqrt(std::max(0.0, cov(0, 0)));
        out.sigmaSe = std::sqrt(std::max(0.0, cov(1, 1)));
        if (withKappa) out.kappaSe = std::sqrt(std::max(0.0, cov(2, 2)));
    }
    double mean = 0;
    for (const auto& p : points) mean += p.mean;
    mean /= static_cast<double>(points.size());
    double ssRes = 0, ssTot = 0;
    for (const auto& p : points) {
        ssRes += (p.mean - out.predict(p.clients)) * (p.mean - out.predict(p.clients));
        ssTot += (p.mean - mean) * (p.mean - mean);
    }
    out.rSquared = ssTot > 0 ? 1 - ssRes / ssTot : 1;
    return out;
}

} // namespace

double UslFit::predict(double n) const { return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)); }

UslFit fitUsl(const std::vector<ScalingPoint>& points, bool weighted) {
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
    UslFit usl = fit(points, weighted, true);
    int dof = usl.points - 3;
    bool kappaAboveZero = dof > 0 && usl.kappa - studentTQuantile(0.975, dof) * usl.kappaSe > 0;
    if (dof == 0) kappaAboveZero = usl.kappa > 0;  // exactly determined: no standard errors to test with
    if (!kappaAboveZero) {
        UslFit amdahl = fit(points, weighted, false);
        amdahl.note = "kappa (" + std::to_string(usl.kappa) + ") is not significantly above 0: Amdahl's law, "
                      "throughput levels off towards lambda/sigma and has no peak";
        return amdahl;
    }
    if (dof == 0) usl.note = "as many client counts as parameters: the curve passes through every point, with no standard errors";
    if (usl.sigma < 0)
        usl.note += std::string(usl.note.empty() ? "" : "; ") + "sigma < 0: these points scale better than linearly, "
                    "which the law does not describe (cache effects, too few points?)";
    if (usl.sigma < 1) {
        usl.peakClients = std::sqrt((1 - usl.sigma) / usl.kappa);
        usl.peakThroughput = usl.predict(*usl.peakClients);
    } else {
        usl.note = "sigma >= 1: throughput falls from the first client on";
    }
    return usl;
}

} // namespace scalelab
