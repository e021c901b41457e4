"""Pages of the monitoring section."""

from django.urls import path

from monitoring import views

app_name = "monitoring"
urlpatterns = [
    path("", views.index, name="index"),
    path("alerts/", views.alerts, name="alerts"),
    path("pools/<str:name>/graphs/", views.pool_graphs, name="pool-graphs"),
]
