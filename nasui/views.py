"""Core pages: dashboard, jobs, settings (tokens, password) and the health check."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from access.sessions import selectors as session_selectors
from access.sessions import services as session_services
from access.twofactor.selectors import enrolled
from access.users.engine import roles
from access.users.selectors import role_of
from monitoring.exporter import selectors as exporter_selectors
from monitoring.metrics import selectors as monitoring_selectors
from nasui import selectors, services
from nasui.forms import ApiTokenForm, OwnPasswordForm, SelfTestForm
from nasui.health import check_health
from nasui.htmx import JOB_FINISHED, STOP_POLLING, is_partial, template_for
from nasui.pages import current_user, job_started
from nasui.system import host_summary
from storage.pools import selectors as pool_selectors
from storage.zfs.errors import ZfsError

# The summary tiles (uptime, load, memory, swap, health, jobs) ask for fresh figures this often.
TILES_SECONDS = 5


def dashboard(request: HttpRequest) -> HttpResponse:
    """The landing page: host, pools, health, live graphs, alerts and the latest jobs.

    An htmx request gets only the summary tiles, which refresh themselves.
    """
    context: dict[str, object] = {
        "host": host_summary(),
        "health": check_health(),
        "recent_jobs": selectors.job_recent(),
        "pool_cards": _pool_cards(),
        "tiles_seconds": TILES_SECONDS,
    }
    if not is_partial(request):
        context["monitoring"] = monitoring_selectors.page_charts("10m", dashboard=True)
        context["alerts"] = monitoring_selectors.alert_list(settings.NASUI_DDT_ALERT_SHARE)
        context["sample_ms"] = int(settings.NASUI_SAMPLE_SECONDS * 1000)
    return render(request, template_for(request, "dashboard.html", "tiles"), context)


def _pool_cards() -> list[pool_selectors.PoolCard] | None:
    """The pools' tiles; None when ZFS cannot be read (the dashboard still shows the rest)."""
    try:
        return pool_selectors.pool_cards()
    except ZfsError:
        return None


def job_list(request: HttpRequest) -> HttpResponse:
    """Every job, with live rows for those still running."""
    context = {"jobs": selectors.job_list()[:100], "form": SelfTestForm()}
    return render(request, template_for(request, "jobs/list.html", "table"), context)


def job_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One job's table row; polling stops once the job has finished."""
    job = get_object_or_404(selectors.job_list(), pk=pk)
    response = render(request, "jobs/list.html#row", {"job": job})
    if job.is_finished:
        response.status_code = STOP_POLLING
        response["HX-Trigger"] = JOB_FINISHED  # the page reads again what the job changed
    return response


@require_POST
def job_self_test(request: HttpRequest) -> HttpResponse:
    """Start the self-test job from the Jobs page."""
    form = SelfTestForm(request.POST)
    if form.is_valid():
        services.job_start(
            kind="self_test",
            title="Self-test",
            task="nasui.self_test",
            user=current_user(request),
            cancellable=True,
            steps=form.cleaned_data["steps"],
        )
        job_started(request, "Self-test job started.")
    else:
        messages.error(request, f"Steps: {' '.join(str(e) for e in form.errors.get('steps', []))}")
    return redirect("jobs")


def settings_page(request: HttpRequest) -> HttpResponse:
    """Account settings: API tokens and the password."""
    return _render_settings(request, ApiTokenForm())


def _render_settings(
    request: HttpRequest, form: ApiTokenForm, new_key: str = "", status: int = 200
) -> HttpResponse:
    context = {
        "tokens": selectors.api_token_list(user=current_user(request)),
        "form": form,
        "new_key": new_key,
        "role_label": roles.LABELS.get(role_of(request.user) or "", ""),
        "two_factor": enrolled(request.user),
        "sessions": session_selectors.sessions_of(request.user),
        "this_session": request.session.session_key,
        "exporter": exporter_selectors.card(
            request.get_host(), "https" if request.is_secure() else "http"
        ),
    }
    return render(request, "settings/index.html", context, status=status)


@require_POST
@never_cache
def api_token_create(request: HttpRequest) -> HttpResponse:
    """Create a token and show its secret this once."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _render_settings(request, form, status=400)
    try:
        token, key = services.api_token_create(
            user=current_user(request),
            name=form.cleaned_data["name"],
            read_only=form.cleaned_data["read_only"],
        )
    except ValidationError as exc:
        for field, errors in exc.message_dict.items():
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
        return _render_settings(request, form, status=400)
    messages.success(request, f"Token “{token.name}” created. Copy it now: it is not shown again.")
    return _render_settings(request, ApiTokenForm(), new_key=key)


@require_POST
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's tokens."""
    try:
        token = services.api_token_revoke(user=current_user(request), token_id=pk)
    except ValidationError:
        messages.error(request, "No such token.")
    else:
        messages.success(request, f"Token “{token.name}” revoked.")
    return redirect("settings")


@login_not_required
@require_GET
@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """Database, Redis and worker state, for supervisors; 503 when something is down."""
    report = check_health()
    return JsonResponse(report.as_dict(), status=200 if report.ok else 503)


@require_POST
def job_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask a job to stop; htmx gets the job's row back, a plain form the page it came from."""
    job = get_object_or_404(selectors.job_list(), pk=pk)
    try:
        job = services.job_cancel(job=job)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Asked “{job.title}” to stop.")
    if is_partial(request):
        return render(request, "jobs/list.html#row", {"job": job})
    return redirect(_next_or_jobs(request))


def _next_or_jobs(request: HttpRequest) -> str:
    """The page a form came from (its `next` field, on this site only), else the jobs page."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return reverse("jobs")


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change one's password; the first one, chosen by the machine, must be changed first."""

    form_class = OwnPasswordForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["first_password"] = selectors.password_change_due(self.request.user)
        context["next"] = self._next()
        return context

    def form_valid(self, form: OwnPasswordForm) -> HttpResponse:
        was_due = selectors.password_change_due(self.request.user)
        # The other sessions are signed out (Django's session hash would at their next
        # request); the list on Settings says so at once. This one goes on under a new key.
        before = self.request.session.session_key or ""
        session_services.sessions_end(user=form.user, keep=before)
        response = super().form_valid(form)
        session_services.session_renamed(old=before, new=self.request.session.session_key or "")
        services.password_changed(user=form.user)
        if not was_due:
            return response
        saved = "Your password is saved: the one on the console no longer works."
        messages.success(self.request, saved)
        return redirect(self._next() or "dashboard")

    def get_success_url(self) -> str:
        return reverse("password_change_done")

    def _next(self) -> str:
        """Where the user was going when the panel asked for their password (this site only)."""
        wanted = self.request.POST.get("next") or self.request.GET.get("next", "")
        safe = url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={self.request.get_host()}, require_https=self.request.is_secure()
        )
        return wanted if safe else ""
