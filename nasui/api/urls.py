"""The core API router (mounted at /api/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from nasui.api.events import EventsView
from nasui.api.tokens import TokenCreateView
from nasui.api.views import JobViewSet, NasuiApiRoot


class Router(DefaultRouter):
    """DefaultRouter whose root view also links to the schema and the docs."""

    APIRootView = NasuiApiRoot


router = Router()
router.register("jobs", JobViewSet, basename="job")
urlpatterns = [
    path("tokens/", TokenCreateView.as_view(), name="api-token"),
    path("events/", EventsView.as_view(), name="api-events"),
    *router.urls,
]
