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
from urllib.parse import urljoin, urlsplit

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from access.users.engine import roles

FORM = re.compile(r"<form\b([^>]*)>.*?</form\s*>", re.S | re.I)
HTMX = re.compile(
    r"<(button|a)\b([^>]*\bhx-(?:post|put|patch|delete)=[^>]*)>.*?</\1\s*>", re.S | re.I
)
BUTTON_LINK = re.compile(r"<a\b([^>]*\bclass=\"[^\"]*\bbtn\b[^>]*)>.*?</a\s*>", re.S | re.I)
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

    def refused(target: str) -> bool:
        return not roles.may(role, "POST", target).allowed

    def form(match: re.Match[str]) -> str:
        attrs = attributes(match.group(1))
        if attrs.get("method", "get").lower() != "post":
            return match.group(0)
        return "" if refused(target_path(here, attrs.get("action", ""))) else match.group(0)

    def htmx(match: re.Match[str]) -> str:
        attrs = attributes(match.group(2))
        urls = [v for k, v in attrs.items() if k in ("hx-post", "hx-put", "hx-patch", "hx-delete")]
        return "" if any(refused(target_path(here, url)) for url in urls) else match.group(0)

    def link(match: re.Match[str]) -> str:
        path = target_path(here, attributes(match.group(1)).get("href", ""))
        return "" if is_change_page(path) and refused(path) else match.group(0)

    return BUTTON_LINK.sub(link, HTMX.sub(htmx, FORM.sub(form, page)))


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
