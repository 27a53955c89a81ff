#!/usr/bin/python3
"""Reference values for tests/unit/StatsTest.cpp, from an independent tool: SciPy
(Debian 12's python3-scipy 1.10). Run it to regenerate: /usr/bin/python3 tests/data/stats_reference.py"""
import numpy as np
from scipy import stats, optimize

def tq(p, df):
    """Student's t quantile solved on the CDF to full precision: scipy's t.ppf (cephes) is off
    by about 1e-9 relative at fractional degrees of freedom."""
    return optimize.brentq(lambda q: stats.t.cdf(q, df) - p, -50, 50, xtol=1e-15, rtol=8.9e-16)

def show(name, **kw):
    print(name, " ".join(f"{k}={v!r}" for k, v in kw.items()))

a = [2310.5, 2254.1, 2401.7, 2298.3, 2350.0]
b = [2420.2, 2390.8, 2466.1, 2405.5]
s = stats.describe(a)
se = np.sqrt(s.variance / s.nobs)
h = tq(0.975, s.nobs - 1) * se
show("summary_a", mean=s.mean, sd=np.sqrt(s.variance), se=se, ci_low=s.mean - h, ci_high=s.mean + h, median=float(np.median(a)))
h90 = tq(0.95, s.nobs - 1) * se
show("summary_a_90", ci_low=s.mean - h90, ci_high=s.mean + h90)
show("big", sd=float(np.std([1e8 + 1, 1e8 + 2, 1e8 + 3], ddof=1)))

w = stats.ttest_ind(b, a, equal_var=False)
va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
q = tq(0.975, df)
d = np.mean(b) - np.mean(a)
show("welch", t=w.statistic, p=w.pvalue, df=df, diff_low=d - q * np.sqrt(va + vb), diff_high=d + q * np.sqrt(va + vb))

pa, pb = [100.0, 102.0, 98.0, 101.0], [104.0, 103.0, 101.0, 106.0]
r = stats.ttest_rel(pb, pa)
dd = np.array(pb) - np.array(pa)
hq = tq(0.975, len(dd) - 1) * np.std(dd, ddof=1) / np.sqrt(len(dd))
show("paired", t=r.statistic, p=r.pvalue, diff_low=dd.mean() - hq, diff_high=dd.mean() + hq)

def usl(n, lam, sig, kap):
    return lam * n / (1 + sig * (n - 1) + kap * n * (n - 1))
n = np.array([1, 2, 4, 8, 16, 32, 48, 64], dtype=float)
noise = np.array([1.01, 0.98, 1.02, 0.99, 1.015, 0.985, 1.0, 1.01])
x = usl(n, 1000, 0.05, 0.001) * noise
def usl_jac(n, lam, sig, kap):  # analytic, so the covariance does not carry finite-difference error
    d = 1 + sig * (n - 1) + kap * n * (n - 1)
    return np.stack([n / d, -lam * n * (n - 1) / d**2, -lam * n * n * (n - 1) / d**2], axis=1)
popt, pcov = optimize.curve_fit(usl, n, x, p0=[1000, 0.05, 0.001], jac=usl_jac,
                               ftol=1e-15, xtol=1e-15, gtol=1e-15)
perr = np.sqrt(np.diag(pcov))
show("usl_noisy", x=list(x), lam=popt[0], sig=popt[1], kap=popt[2], lam_se=perr[0], sig_se=perr[1], kap_se=perr[2])
