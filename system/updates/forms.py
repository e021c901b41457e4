"""The update page's form: the update file on a dataset, and the time its panel gets."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm
from system.updates.services import DEFAULT_HEALTH_SECONDS, HEALTH_SECONDS


class UpdateForm(StyledForm):
    """Which file, and how long the new release has to answer."""

    path = forms.CharField(
        label="Update file", max_length=4096,
        help_text="Its full path on a dataset: copy nasui-update.tar onto a share first "
        "(e.g. /mnt/tank/share/nasui-update.tar).",
    )  # fmt: skip
    health_seconds = forms.IntegerField(
        label="Seconds for the new release to answer", initial=DEFAULT_HEALTH_SECONDS,
        min_value=HEALTH_SECONDS[0], max_value=HEALTH_SECONDS[1],
        help_text="If its panel does not answer this long after it starts, the box goes back "
        "to the release it runs now, by itself.",
    )  # fmt: skip
