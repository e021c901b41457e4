"""URL configuration: pages, the health check and the REST API."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from access import urls as access
from access.sessions import views as session_views
from access.twofactor import views as twofactor_views
from advisor import urls as advisor
from monitoring import urls as monitoring
from nasui import views
from nasui.api import urls as api_urls
from nasui.api.schema import CachedSchemaView
from replication import urls as replication
from sharing import urls as sharing
from storage import urls as storage
from system import urls as system

# DRF marks its views login_not_required and authenticates them itself (token or session).
api_patterns: list[URLPattern | URLResolver] = [
    path("schema/", CachedSchemaView.as_view(), name="api-schema"),
    path("storage/", include((storage.api_urlpatterns, "storage-api"))),
    path("monitoring/", include((monitoring.metrics_api_urlpatterns, "monitoring-api"))),
    path("alerts/", include((monitoring.alerts_api_urlpatterns, "alerts-api"))),
    path("sharing/iscsi/", include((sharing.iscsi_api_urlpatterns, "sharing-api"))),
    path("sharing/", include((sharing.files_api_urlpatterns, "files-api"))),
    path("services/", include((sharing.services_api_urlpatterns, "services-api"))),
    path("advisor/", include((advisor.api_urlpatterns, "advisor-api"))),
    path("replication/", include((replication.api_urlpatterns, "replication-api"))),
    path("system/", include((system.api_urlpatterns, "system-api"))),
    path("access/", include((access.api_urlpatterns, "access-api"))),
    path("", include(api_urls.urlpatterns)),
]

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("login/", twofactor_views.SignInView.as_view(), name="login"),
    path("login/code/", twofactor_views.code_step, name="login-code"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("health/", views.health, name="health"),
    *monitoring.root_urlpatterns,
    path("jobs/", views.job_list, name="jobs"),
    path("jobs/self-test/", views.job_self_test, name="jobs-self-test"),
    path("jobs/<int:pk>/row/", views.job_row, name="jobs-row"),
    path("jobs/<int:pk>/cancel/", views.job_cancel, name="jobs-cancel"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/tokens/", views.api_token_create, name="api-token-create"),
    path("settings/tokens/<int:pk>/revoke/", views.api_token_revoke, name="api-token-revoke"),
    path("settings/sessions/<int:pk>/end/", session_views.own_end, name="session-end"),
    path(
        "settings/password/",
        views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "settings/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("storage/", include("storage.urls")),
    path("sharing/", include("sharing.urls")),
    path("services/", include("sharing.control.urls")),
    path("monitoring/", include("monitoring.urls")),
    path("alerts/", include((monitoring.alerts_urlpatterns, "alerts"))),
    path("advisor/", include("advisor.urls")),
    path("replication/", include("replication.urls")),
    path("system/", include("system.urls")),
    path("access/", include("access.urls")),
    # The docs page is HTML: an anonymous visitor is sent to the login page like any other page.
    path(
        "api/docs/",
        login_required(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path("api/", include(api_patterns)),
]

handler400 = "nasui.error_pages.bad_request"
handler404 = "nasui.error_pages.not_found"
handler500 = "nasui.error_pages.server_error"
