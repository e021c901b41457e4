"""What each role of a panel user may change: one rule for the API and the pages alike.

Reading is everyone's: every role sees every page and every GET. A write is a request with
any other method; who may send it depends on where it goes. The rule is about places (URL
prefixes), not about views, so that a new page or endpoint is an administrator's alone
until a role is given its place.
"""

from __future__ import annotations

from dataclasses import dataclass

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

ADMIN, SHARING, READ_ONLY = "admin", "sharing", "readonly"
LABELS = {
    ADMIN: "Administrator",
    SHARING: "Sharing administrator",
    READ_ONLY: "Read-only",
}
DESCRIPTIONS = {
    ADMIN: "Everything: pools, disks, the system, users.",
    SHARING: "Shares, their users and groups, the sharing services, and the snapshots of shared "
    "datasets; no pools, disks or system settings.",
    READ_ONLY: "Sees every page; changes nothing.",
}
NOT_A_PANEL_USER = "Only the panel users of this NAS may use its panel and its API."
REFUSALS = {
    SHARING: "A sharing administrator may change shares, their users and groups, the sharing "
    "services and the snapshots of shared datasets only: ask an administrator for this change.",
    READ_ONLY: "Your account is read-only: it may look at everything but change nothing.",
}
# A user's own account, whatever their role: their password, their sign-out, their tokens (a
# token never carries more than its owner's role) and their two-factor sign-in.
OWN_ACCOUNT = (
    "/settings/password/",
    "/settings/tokens/",
    "/settings/sessions/",
    "/logout/",
    "/api/tokens/",
    "/access/two-factor/",
)
WRITES = {
    ADMIN: ("/",),
    SHARING: ("/sharing/", "/services/", "/api/sharing/", "/api/services/"),
    READ_ONLY: (),
}


# A sharing administrator also takes, destroys and rolls back the snapshots of a dataset that
# is shared (SMB or NFS): these places are theirs for such a dataset only. The caller says
# which dataset a request is about and whether it is shared (a clone makes a new dataset: no).
SHARED_SNAPSHOTS = ("/api/storage/snapshots/", "/storage/snapshots/")


@dataclass(frozen=True)
class Verdict:
    """Whether a request may go on, and the sentence that says why not."""

    allowed: bool
    reason: str = ""


def may(role: str | None, method: str, path: str, *, shared_dataset: bool = False) -> Verdict:
    """May a user with `role` (None: no panel user) send `method` to `path`? `shared_dataset`:
    the request is about a dataset that is shared (see `about_a_dataset`)."""
    if role not in WRITES:
        return Verdict(False, NOT_A_PANEL_USER)
    if method.upper() in SAFE_METHODS or path.startswith(OWN_ACCOUNT):
        return Verdict(True)
    if path.startswith(WRITES[role]):
        return Verdict(True)
    if shared_dataset and about_a_dataset(role, method, path):
        return Verdict(True)
    return Verdict(False, refusal(role))


def about_a_dataset(role: str | None, method: str, path: str) -> bool:
    """Whether the verdict on this write depends on which dataset it is about."""
    return (
        role == SHARING
        and method.upper() not in SAFE_METHODS
        and path.startswith(SHARED_SNAPSHOTS)
        and not path.rstrip("/").endswith("/clone")
    )


def refusal(role: str) -> str:
    """Why a user with `role` may not make a change here."""
    return REFUSALS[role]


def narrower(role: str, read_only: bool) -> str:
    """The role a token acts with: its owner's, or read-only if the token is."""
    return READ_ONLY if read_only else role
