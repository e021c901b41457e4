"""Pages of the sharing section."""

from django.urls import path

from sharing.accounts import views as files
from sharing.iscsi import views as pages

app_name = "sharing"
urlpatterns = [
    path("", pages.index, name="index"),
    path("wizard/", pages.wizard_page, name="wizard"),
    path("settings/", pages.settings_page, name="settings"),
    path("service/<str:action>/", pages.service_control, name="service"),
    path("portals/add/", pages.portal_form, name="portal-add"),
    path("portals/<int:pk>/", pages.portal_form, name="portal-edit"),
    path("initiator-groups/add/", pages.initiator_group_form, name="initiator-group-add"),
    path("initiator-groups/<int:pk>/", pages.initiator_group_form, name="initiator-group-edit"),
    path("auth-groups/add/", pages.auth_group_form, name="auth-group-add"),
    path("auth-groups/<int:pk>/", pages.auth_group_form, name="auth-group-edit"),
    path("targets/add/", pages.target_form, name="target-add"),
    path("targets/<int:pk>/", pages.target_form, name="target-edit"),
    path("extents/add/", pages.extent_form, name="extent-add"),
    path("extents/<int:pk>/", pages.extent_form, name="extent-edit"),
    path("luns/add/", pages.association_form, name="lun-add"),
    path("luns/<int:pk>/delete/", pages.association_delete, name="lun-delete"),
    path("files/", files.files_index, name="files"),
    path("files/service/<str:action>/", files.smb_service_control, name="smb-service"),
    path("files/settings/", files.smb_settings_page, name="smb-settings"),
    path("files/wizard/", files.share_wizard, name="files-wizard"),
    path("files/permissions/<path:dataset>/", files.permissions_page, name="permissions"),
    path("files/users/add/", files.user_form, name="user-add"),
    path("files/users/<int:pk>/", files.user_form, name="user-edit"),
    path("files/groups/add/", files.group_form, name="group-add"),
    path("files/groups/<int:pk>/", files.group_form, name="group-edit"),
    path("files/nfs/add/", files.nfs_share_form, name="nfs-share-add"),
    path("files/nfs/<int:pk>/", files.nfs_share_form, name="nfs-share-edit"),
    path("files/nfs/settings/", files.nfs_settings_page, name="nfs-settings"),
    path("files/shares/add/", files.share_form, name="smb-share-add"),
    path("files/shares/<int:pk>/", files.share_form, name="smb-share-edit"),
    path("files/<str:kind>/<int:pk>/delete/", files.files_delete, name="files-delete"),
    path("<str:kind>/<int:pk>/delete/", pages.delete, name="delete"),
]
