"""Take out of a page the controls its reader's role may not use.

The server refuses such changes anyway (nasui.access, nasui.api.permissions): this is so that
a read-only user or a sharing administrator is not shown buttons that could only answer 403.
A control is a POST form, an element that posts through htmx, or a button-styled link to a
page whose only purpose is a change (a create, edit or delete form). Forms cannot nest in
HTML, so a form runs from its opening tag to the first closing one.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urljoin, urlsplit

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from access.users import selectors
from access.users.engine import roles

FORM = re.compile(r"<form\b([^>]*)>.*?</form\s*>", re.S | re.I)
HTMX = re.compile(
    r"<(button|a)\b([^>]*\bhx-(?:post|put|patch|delete)=[^>]*)>.*?</\1\s*>", re.S | re.I
)
BUTTON_LINK = re.compile(r"<a\b([^>]*\bclass=\"[^\"]*\bbtn\b[^>]*)>.*?</a\s*>", re.S | re.I)
DATASET_INPUT = re.compile(r"<input\b[^>]*\bname=\"dataset\"[^>]*>", re.I)
DATASET_SELECT = re.compile(r"<select\b[^>]*\bname=\"dataset\"[^>]*>(.*?)</select\s*>", re.S | re.I)
SELECTED = re.compile(r"<option\b[^>]*\bselected\b[^>]*>", re.I)
ATTRIBUTE = re.compile(r"([\w:-]+)\s*=\s*\"([^\"]*)\"")
# The last word of the URL names of pages that are a form for a change, not a view of a thing.
CHANGE_PAGES = re.compile(
    r"(^|[-_])(add|create|new|edit|delete|destroy|import|export|grow|rollback|clone|restore|"
    r"pair|action|wizard|settings|permissions|schedule|revoke|repin|consent|replace)$"
)


def strip_refused(request: HttpRequest, response: HttpResponse, role: str) -> None:
    """Remove from an HTML response every control `role` may not use (in place)."""
    if response.streaming or "text/html" not in response.get("Content-Type", ""):
        return
    page = response.content.decode(response.charset or "utf-8")
    stripped = strip(page, request.path, role)
    if stripped != page:
        response.content = stripped.encode(response.charset or "utf-8")
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))


def strip(page: str, here: str, role: str) -> str:
    """`page` without the controls `role` may not use; `here` is the page's own path."""

    def refused(url: str, inside: str = "") -> bool:
        path = target_path(here, url)
        if roles.may(role, "POST", path).allowed:
            return False
        if not roles.about_a_dataset(role, "POST", path):
            return True
        dataset = dataset_named(path, url, inside)
        return not (dataset and selectors.is_shared(dataset))

    def form(match: re.Match[str]) -> str:
        attrs = attributes(match.group(1))
        if attrs.get("method", "get").lower() != "post":
            return match.group(0)
        return "" if refused(attrs.get("action", "") or here, match.group(0)) else match.group(0)

    def htmx(match: re.Match[str]) -> str:
        attrs = attributes(match.group(2))
        urls = [v for k, v in attrs.items() if k in ("hx-post", "hx-put", "hx-patch", "hx-delete")]
        return "" if any(refused(url) for url in urls) else match.group(0)

    def link(match: re.Match[str]) -> str:
        url = attributes(match.group(1)).get("href", "")
        path = target_path(here, url)
        return "" if is_change_page(path) and refused(url) else match.group(0)

    return BUTTON_LINK.sub(link, HTMX.sub(htmx, FORM.sub(form, page)))


def dataset_named(path: str, url: str, form: str) -> str:
    """The dataset a control is about: its URL's snapshot name, its `dataset` query parameter,
    or its form's `dataset` field."""
    try:
        name = str(resolve(path).kwargs.get("name") or "")
    except Resolver404:
        name = ""
    if name:
        return name.partition("@")[0]
    query = parse_qs(urlsplit(url).query).get("dataset")
    if query:
        return query[0]
    field = DATASET_INPUT.search(form)
    if field:
        return attributes(field.group(0)).get("value", "")
    select = DATASET_SELECT.search(form)
    chosen = SELECTED.search(select.group(1)) if select else None
    return attributes(chosen.group(0)).get("value", "") if chosen else ""


def attributes(tag: str) -> dict[str, str]:
    """A tag's quoted attributes, their values unescaped."""
    return {name.lower(): html.unescape(value) for name, value in ATTRIBUTE.findall(tag)}


def target_path(here: str, url: str) -> str:
    """The path a form's action or a link's URL goes to (an empty action: the page itself)."""
    return urlsplit(urljoin(here, url or here)).path


def is_change_page(path: str) -> bool:
    """Whether the page at `path` is a form for a change (by its URL name)."""
    try:
        name = resolve(path).url_name or ""
    except Resolver404:
        return False
    return bool(CHANGE_PAGES.search(name))
