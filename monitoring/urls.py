"""Pages of the monitoring section."""

from django.urls import path

from monitoring import views

app_name = "monitoring"
urlpatterns = [path("", views.index, name="index")]
