"""iSCSI URLs: the overview, the wizard, settings and each object; the iSCSI API."""

from __future__ import annotations

from django.urls import URLPattern, path

from nasui.api.routes import Route
from sharing.iscsi import api, views

urlpatterns = [
    path("", views.index, name="index"),
    path("wizard/", views.wizard_page, name="wizard"),
    path("settings/", views.settings_page, name="settings"),
    path("service/<str:action>/", views.service_control, name="service"),
    path("portals/add/", views.portal_form, name="portal-add"),
    path("portals/<int:pk>/", views.portal_form, name="portal-edit"),
    path("initiator-groups/add/", views.initiator_group_form, name="initiator-group-add"),
    path("initiator-groups/<int:pk>/", views.initiator_group_form, name="initiator-group-edit"),
    path("auth-groups/add/", views.auth_group_form, name="auth-group-add"),
    path("auth-groups/<int:pk>/", views.auth_group_form, name="auth-group-edit"),
    path("targets/add/", views.target_form, name="target-add"),
    path("targets/<int:pk>/", views.target_form, name="target-edit"),
    path("extents/add/", views.extent_form, name="extent-add"),
    path("extents/<int:pk>/", views.extent_form, name="extent-edit"),
    path("luns/add/", views.association_form, name="lun-add"),
    path("luns/<int:pk>/delete/", views.association_delete, name="lun-delete"),
    path("<str:kind>/<int:pk>/delete/", views.delete, name="delete"),
]
api_routes: list[Route] = [
    ("portals", api.PortalViewSet, "portal"),
    ("initiator-groups", api.InitiatorGroupViewSet, "initiator-group"),
    ("auth-groups", api.AuthGroupViewSet, "auth-group"),
    ("targets", api.TargetViewSet, "target"),
    ("extents", api.ExtentViewSet, "extent"),
    ("associations", api.AssociationViewSet, "association"),
]
api_urlpatterns: list[URLPattern] = [
    path("settings/", api.SettingsView.as_view(), name="settings"),
    path("wizard/", api.WizardView.as_view(), name="wizard"),
    path("service/", api.ServiceView.as_view(), name="service"),
]
