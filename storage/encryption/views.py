"""The encryption page of a root: its state, what its key opens, lock, unlock, change the key."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from nasui.forms import add_service_errors
from storage.encryption import selectors, services
from storage.encryption.forms import (
    ChangeKeyForm,
    ExportForm,
    ImportForm,
    LockForm,
    UnlockForm,
)
from storage.engine import get_engine
from storage.errors import engine_call
from storage.zfs import errors as zfs

ACTIONS: dict[str, Any] = {
    "unlock": UnlockForm,
    "lock": LockForm,
    "change-key": ChangeKeyForm,
    "export": ExportForm,
    "import": ImportForm,
}
KEYS = {action: action.replace("-", "_") for action in ACTIONS}  # the template's names


def encryption_page(request: HttpRequest, name: str) -> HttpResponse:
    """GET shows the root; a POST with ?action=unlock, lock or change-key acts on it."""
    try:
        dataset = engine_call(lambda: get_engine().get_dataset(name))
    except ValidationError as exc:
        raise Http404(f"No dataset or zvol named {name}.") from exc
    if not dataset.is_encryption_root:
        if dataset.encrypted:
            return redirect("storage:encryption", name=dataset.encryption_root)
        raise Http404(f"{name} is not encrypted.")
    action = request.GET.get("action", "")
    forms: dict[str, Any] = {KEYS[key]: _form(key) for key in ACTIONS}
    if request.method == "POST" and action in ACTIONS:
        form = forms[KEYS[action]] = _form(action, request.POST, request.FILES)
        if form.is_valid():
            try:
                answer = _act(action, name, form.cleaned_data)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                if isinstance(answer, HttpResponse):
                    return answer
                messages.success(request, answer)
                return redirect(reverse("storage:encryption", kwargs={"name": name}))
    context = {
        "root": selectors.key_root(dataset),
        "opens": _opens(name),
        "forms": forms,
        "failed": action if any(f.errors for f in forms.values()) else "",
    }
    status = 400 if context["failed"] else 200
    return render(request, "storage/encryption.html", context, status=status)


def _form(action: str, *data: Any) -> Any:
    """The action's form; its ids name the action (five forms share one page, and field names
    such as "passphrase": ids must stay unique for the labels to name their own box)."""
    return ACTIONS[action](*data, auto_id=f"id_{KEYS[action]}_%s")


def _act(action: str, name: str, data: dict[str, Any]) -> str | HttpResponse:
    """Do `action` on the root `name`: what to say, or the key file to download."""
    if action == "unlock":
        services.unlock(name=name, passphrase=data["passphrase"])
        return f"{name} is unlocked: its shares and LUNs are served again."
    if action == "lock":
        services.lock(name=name)
        return f"{name} is locked: nothing under it is mounted, shared or served."
    if action == "change-key":
        services.change_key(name, **data)
        return f"{name} has a new key; the old one opens nothing now."
    if action == "export":
        made = services.keys_export(**data)
        response = HttpResponse(made.content, content_type="application/octet-stream")
        response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
        return response
    content = services.key_file_bytes(data["file"])
    done = services.keys_import(content=content, passphrase=data["passphrase"])
    said = [f"Keys taken for {', '.join(done.imported) or 'no root'}."]
    said += [f"{root}: {why}" for root, why in done.refused.items()]
    if done.absent:
        said.append(f"Not on this box: {', '.join(done.absent)}.")
    return " ".join(said)


def _opens(name: str) -> list[str]:
    """The datasets and zvols whose data the root's key opens (itself first)."""
    try:
        found = get_engine().list_datasets(name)
    except zfs.ZfsError:
        return [name]
    return [d.name for d in found if d.encryption_root == name]
