"""A ratio of sums from a sample, with a 95% interval by the delta method (running sums only)."""

from __future__ import annotations

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
