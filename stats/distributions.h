// The distributions the tests need: Student's t and the standard normal.
//
// Computed here rather than taken from a library: the continued fraction of the regularized incomplete
// beta function (Numerical Recipes, 6.4) gives the t distribution to about 1e-12, far below what a gate
// needs; quantiles are found by bisection. Degrees of freedom may be fractional (a trimmed mean's
// (1 - 2 gamma) n - 1).
#pragma once

namespace dbxb {

/// Student's t distribution function P(T <= t) with `df` degrees of freedom. REQUIRES: df > 0.
double StudentTCdf(double t, double df);

/// The two-sided tail P(|T| >= |t|): 1 for NaN, 0 for an infinite t. REQUIRES: df > 0.
double StudentTTwoSidedP(double t, double df);

/// The p-quantile of Student's t with `df` degrees of freedom, within [-1e12, 1e12] (a quantile beyond
/// that, of a tiny df, is returned as the bound). REQUIRES: 0 < p < 1, df > 0.
double StudentTQuantile(double p, double df);

/// The standard normal distribution function.
double NormalCdf(double z);

/// The p-quantile of the standard normal distribution. REQUIRES: 0 < p < 1.
double NormalQuantile(double p);

}  // namespace dbxb
