#!/usr/bin/python3
"""Reference values for core/stats/Power (tests/unit/PowerTest.cpp) from independent tools:
statsmodels 0.13 (Debian 12's python3-statsmodels) TTestIndPower and TTestPower, on SciPy 1.10.
SciPy's noncentral t is Boost's, as ScaleLab's is; so each power is checked here against a
second computation that shares nothing with Boost: mpmath's quadrature of the noncentral t as
(Z + ncp) / sqrt(V / df), Z normal and V chi-square.
Regenerate: /usr/bin/python3 tests/data/power_reference.py > tests/data/power_reference.csv"""
import math
from statsmodels.stats.power import TTestIndPower, TTestPower

import mpmath
from scipy import stats

mpmath.mp.dps = 30

def nct_sf_mpmath(c, df, ncp):
    """P((Z + ncp) / sqrt(V / df) > c) = integral over v of chi2(df) density * P(Z > c sqrt(v/df) - ncp)."""
    df, c, ncp = mpmath.mpf(df), mpmath.mpf(c), mpmath.mpf(ncp)
    dens = lambda v: mpmath.exp((df / 2 - 1) * mpmath.log(v) - v / 2 - (df / 2) * mpmath.log(2) - mpmath.loggamma(df / 2))
    tail = lambda v: mpmath.ncdf(-(c * mpmath.sqrt(v / df) - ncp))
    return mpmath.quad(lambda v: dens(v) * tail(v), [0, df, 4 * df + 50, mpmath.inf])

def power_mpmath(effect, n, alpha, kind):
    df = 2 * n - 2 if kind == "two" else n - 1
    ncp = effect * math.sqrt(n / 2) if kind == "two" else effect * math.sqrt(n)
    crit = stats.t.ppf(1 - alpha / 2, df)
    return float(nct_sf_mpmath(crit, df, ncp) + (1 - nct_sf_mpmath(-crit, df, ncp)))

two, paired = TTestIndPower(), TTestPower()
print("kind,effect,alpha,n,power,target,n_solved")
for kind, model in (("two", two), ("paired", paired)):
    for effect in (0.2, 0.5, 0.8, 1.0, 1.5, 2.5):
        for alpha in (0.05, 0.01, 0.05 / 8):
            for n in (2, 3, 5, 10, 30):
                p = model.power(effect_size=effect, nobs1=n, alpha=alpha, alternative="two-sided") \
                    if kind == "two" else model.power(effect_size=effect, nobs=n, alpha=alpha, alternative="two-sided")
                check = power_mpmath(effect, n, alpha, kind)
                assert abs(check - p) < 1e-8, (kind, effect, alpha, n, p, check)
                print(f"{kind},{effect!r},{alpha!r},{n},{p!r},,")
            for target in (0.8, 0.9):
                if kind == "two":
                    n = two.solve_power(effect_size=effect, alpha=alpha, power=target, alternative="two-sided")
                else:
                    n = paired.solve_power(effect_size=effect, alpha=alpha, power=target, alternative="two-sided")
                print(f"{kind},{effect!r},{alpha!r},,,{target!r},{float(n)!r}")
