"""The dedup estimate page: what dedup would cost in RAM for some data, and what was measured."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from storage import validation as v
from storage.datasets import selectors as dataset_selectors
from storage.dedup import selectors
from storage.zfs import errors as zfs


def dedup_estimate(request: HttpRequest) -> HttpResponse:
    """The dedup RAM estimate as a fragment, shown when a form's dedup choice is on: measured
    on the data when the advisor has looked at it, else for the data there is room for."""
    dedup = request.GET.get("dedup", "off")
    context: dict[str, Any] = {"show": dedup in ("on", "verify")}
    if context["show"]:
        name = request.GET.get("name", "")
        place = request.GET.get("parent", "") or name
        pool = place.split("/", 1)[0] or None
        block = _int_or_zero(request.GET.get("volblocksize") or request.GET.get("recordsize"))
        block = block or v.DEFAULT_RECORDSIZE
        measured = selectors.measured_dedup(place) if place else None
        data_bytes, basis = _dedup_data_size(request.GET.get("size", ""), name, pool)
        # one RAM figure on the page: without a size given, the measured blocks' table
        sized_on = measured if not request.GET.get("size") else None
        if sized_on is not None:
            data_bytes = sized_on.unique_blocks * block
            basis = f"the unique blocks measured in {place}"
        context["estimate"] = selectors.dedup_estimate(
            pool=pool, data_bytes=data_bytes, block_size=block, measured=sized_on
        )
        context["basis"] = basis
        context["measured"] = measured
        context["place"] = place
        # An existing zvol's form sends its volblocksize: the advisor reads it as a zvol.
        zvol = bool(name and request.GET.get("volblocksize"))
        context["place_kind"] = "zvol" if zvol else "dataset"
    return render(request, "storage/dedup_estimate.html", context)


def _int_or_zero(text: str | None) -> int:
    """A block size from the form, 0 when absent or not a number."""
    return int(text) if text and text.isdigit() else 0


def _dedup_data_size(size: str, name: str, pool: str | None) -> tuple[int, str]:
    """How much data to size the dedup table for, and a few words saying why that much."""
    try:
        if size:
            return v.parse_size(size), "the size given"
        if name:
            logical = dataset_selectors.dataset_get(name).logicalused
            return max(1, logical), f"the data in {name} now"
        if pool:
            free = selectors.pool_free(pool)
            return free, f"the free space of {pool}, all unique blocks"
    except (ValidationError, zfs.ZfsError):
        pass
    return 1024**4, "1 TiB of unique data (no pool chosen yet)"
