"""A ratio of sums from a sample, with a 95% interval by the delta method (running sums only)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

Z95 = 1.959964  # two-sided 95% quantile of the normal distribution


@dataclass
class RatioSums:
    """Sums of y, x, y², x², xy over sampled units: enough for R = Σy / Σx and its spread."""

    n: int = 0
    y: float = 0.0
    x: float = 0.0
    yy: float = 0.0
    xx: float = 0.0
    xy: float = 0.0

    def add(self, y: float, x: float) -> None:
        """Count one sampled unit."""
        self.n += 1
        self.y += y
        self.x += x
        self.yy += y * y
        self.xx += x * x
        self.xy += x * y

    def ratio(self, empty: float = 1.0) -> float:
        """Σy / Σx, or `empty` when Σx is zero."""
        return self.y / self.x if self.x > 0 else empty

    def interval(self, population: int | None = None, empty: float = 1.0) -> tuple[float, float]:
        """95% interval of the ratio; `population` (units in all) applies the finite correction."""
        ratio = self.ratio(empty)
        if self.n < 2 or self.x <= 0:
            return ratio, ratio
        # Var(R) ~ (1 - f) * s_d^2 / (n * mean_x^2) with d = y - R x, whose sum is zero at R.
        spread = (self.yy - 2 * ratio * self.xy + ratio * ratio * self.xx) / (self.n - 1)
        share = min(1.0, self.n / population) if population else 0.0
        mean_x = self.x / self.n
        half = Z95 * math.sqrt(max(spread, 0.0) * (1 - share) / self.n) / mean_x
        return max(0.0, ratio - half), ratio + half


def spread_interval(points: list[tuple[int, float, float]], population: int) -> tuple[float, float]:
    """95% interval of Σy / Σx from (position, y, x) units spread over the input.

    The sample is stratified (sampling.py), so the plain formula above, which ignores where
    the units came from, overstates the spread of data made of homogeneous parts, such as
    files of different kinds. Successive differences of the residuals taken in input order
    (the usual estimator for systematic samples) leave out the differences between the parts
    and keep those within them; on data without order they give the plain formula's answer.
    """
    n = len(points)
    sum_y = sum(y for _, y, _ in points)
    sum_x = sum(x for _, _, x in points)
    if n < 2 or sum_x <= 0:
        ratio = sum_y / sum_x if sum_x > 0 else 1.0
        return ratio, ratio
    ratio = sum_y / sum_x
    residuals = [y - ratio * x for _, y, x in sorted(points)]
    spread = sum((b - a) ** 2 for a, b in itertools.pairwise(residuals)) / (2 * (n - 1))
    share = min(1.0, n / population) if population else 0.0
    half = t95(n - 1) * math.sqrt(spread * (1 - share) / n) / (sum_x / n)
    return max(0.0, ratio - half), ratio + half


def t95(df: int) -> float:
    """Student's t two-sided 95% quantile for `df` degrees of freedom (within 1% from 5 on).

    Small samples of mixed data are skewed: the normal quantile alone covers less than 95%.
    """
    return Z95 + (Z95**3 + Z95) / (4 * df) + (5 * Z95**5 + 16 * Z95**3 + 3 * Z95) / (96 * df**2)
