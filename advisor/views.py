"""Pages of "Try it on my data": the forms and past runs, a run's results, and a comparison."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from advisor import selectors
from advisor.benchmarks import services as bench_services
from advisor.estimates import services
from advisor.forms import BenchmarkForm, EstimateForm, FioForm, SourceForm
from nasui.htmx import JOB_FINISHED, STOP_POLLING, is_partial, template_for
from nasui.models import Job
from nasui.pages import current_user, job_started
from storage.pools import selectors as pool_selectors
from storage.zfs import errors as zfs

FORMS: dict[str, type[SourceForm]] = {
    "estimate": EstimateForm,
    "benchmark": BenchmarkForm,
    "fio": FioForm,
}
STARTED = {
    "estimate": "Estimate started.",
    "benchmark": "Settings benchmark started.",
    "fio": "fio run started.",
}


def _choices() -> tuple[dict[str, list[str]], list[str]]:
    """Datasets and zvols by kind, and pool names; empty when ZFS does not answer."""
    try:
        return services.source_choices(), [pool.name for pool in pool_selectors.pool_list()]
    except zfs.ZfsError:
        return {"dataset": [], "zvol": []}, []


def _form(kind: str, data: Any = None) -> SourceForm:
    """The start form of `kind`, with its choices, bound to `data` when given."""
    sources, pools = _choices()
    extra: dict[str, Any] = {"pools": pools} if kind == "benchmark" else {}
    if kind == "fio":
        # fio's zvol test runs on a scratch zvol it makes on a pool.
        sources = {"dataset": sources["dataset"], "zvol": pools}
    return FORMS[kind](data, prefix=kind, choices=sources, **extra)


def _kind_filter(request: HttpRequest) -> str:
    """The ?kind= of the runs list, when it names a kind."""
    kind = request.GET.get("kind", "")
    return kind if kind in selectors.KINDS else ""


def index(request: HttpRequest, bound: SourceForm | None = None, status: int = 200) -> HttpResponse:
    """The explanation, the three start forms and the past runs (live while they run)."""
    kind = _kind_filter(request)
    context: dict[str, Any] = {
        "runs": selectors.run_list(kind or None)[:100],
        "kind": kind,
        "kinds": selectors.KIND_LABELS,
    }
    if not is_partial(request):
        forms = {name: _form(name) for name in FORMS}
        if bound is not None:
            forms[bound.prefix or ""] = bound
        context |= {"forms": forms, "active": bound.prefix if bound else "estimate"}
    return render(
        request, template_for(request, "advisor/index.html", "runs"), context, status=status
    )


def _start(request: HttpRequest, kind: str, start: Callable[..., Job]) -> HttpResponse:
    """Check the form, start the run through its service, and go to its page."""
    form = _form(kind, request.POST)
    if form.is_valid():
        try:
            job = start(user=current_user(request), **form.start_arguments())  # type: ignore[attr-defined]
        except ValidationError as exc:
            form.service_errors(exc)
        else:
            job_started(request, STARTED[kind])
            return redirect("advisor:run", pk=job.pk)
    return index(request, bound=form, status=400)


@require_POST
def estimate_start(request: HttpRequest) -> HttpResponse:
    """Start an estimate of compression and dedup."""
    return _start(request, "estimate", services.estimate_start)


@require_POST
def benchmark_start(request: HttpRequest) -> HttpResponse:
    """Start a benchmark of settings on a trial dataset."""
    return _start(request, "benchmark", bench_services.benchmark_start)


@require_POST
def fio_start(request: HttpRequest) -> HttpResponse:
    """Start fio profiles on a dataset or zvol."""
    return _start(request, "fio", bench_services.fio_start)


def _run_or_404(pk: int) -> Job:
    """The advisor run `pk`, or a 404 page."""
    try:
        return selectors.run_get(pk)
    except Job.DoesNotExist as exc:
        raise Http404(f"No advisor run #{pk}") from exc


def _polled(response: HttpResponse, job: Job) -> HttpResponse:
    """Stop the polling element once the run has finished, and tell the page it has."""
    if job.is_finished:
        response.status_code = STOP_POLLING
        response["HX-Trigger"] = JOB_FINISHED
    return response


@require_GET
def run_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One run's row of the list; polling stops once it has finished."""
    job = _run_or_404(pk)
    return _polled(render(request, "advisor/index.html#row", {"run": job}), job)


@require_GET
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A run's results, or its progress while it runs (htmx polls the #run part)."""
    job = _run_or_404(pk)
    context = {"run": job, "job_finished": job.is_finished, **selectors.run_view(job)}
    response = render(request, template_for(request, "advisor/run.html", "run"), context)
    return _polled(response, job) if is_partial(request) else response


@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    """Runs of one kind side by side: ?runs=1,2 (or runs=1&runs=2)."""
    context: dict[str, Any] = {"comparison": None, "error": ""}
    try:
        comparison = selectors.compare(selectors.parse_ids(request.GET.getlist("runs")))
    except ValidationError as exc:
        context["error"] = " ".join(exc.messages)
    else:
        context |= {"comparison": comparison, "charts": selectors.compare_charts(comparison)}
    status = 400 if context["error"] and request.GET.get("runs") else 200
    return render(request, "advisor/compare.html", context, status=status)
