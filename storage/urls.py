"""Pages of the storage section."""

from django.urls import path

from storage import views

app_name = "storage"
urlpatterns = [path("", views.index, name="index")]
