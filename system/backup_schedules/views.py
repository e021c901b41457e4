"""The backup schedule's page: its form with the current values, and how the last run went."""

from __future__ import annotations

from django.forms.models import model_to_dict
from django.http import HttpRequest, HttpResponse

from nasui.pages import form_page
from system.backup_schedules import selectors, services
from system.backup_schedules.forms import ScheduleForm

FIELDS = ("enabled", "dataset", "keep", "minutes", "hours", "days_of_week")


def schedule_page(request: HttpRequest) -> HttpResponse:
    """GET: the form as the schedule is; POST: save it, or show the form's errors."""
    row = selectors.schedule_get()
    form = ScheduleForm(request.POST or None, initial=model_to_dict(row, fields=FIELDS))
    return form_page(
        request,
        form,
        save=lambda data: services.schedule_update(**data),
        template="system/backup_schedule.html",
        context={"row": row, "next_runs": selectors.upcoming(row)},
        done=lambda saved: (
            "Scheduled backups are on." if saved.enabled else "Scheduled backups are off."
        ),
        then="system:backup-schedule",
    )
