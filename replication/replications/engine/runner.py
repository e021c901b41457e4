"""One replication run: resume what was interrupted, plan from the chain, send, protect the base.

1. An interrupted receive on the target (its `receive_resume_token`) is finished first with
   `zfs send -t`, from where it stopped; a token whose snapshot is gone is discarded.
2. The plan (chain.py) from both sides' snapshots: nothing, full, or increments from the
   newest snapshot in common, or a refusal the user must answer.
3. Each step is one `zfs send | zfs receive -s` (pump.py: counted, limited, watched).
   Received datasets stay unmounted (-u) and read-only, so nothing is mounted over the
   target's data and nothing writes to a copy behind the next run's back.
4. After each step the newest common snapshot is held on both sides under the task's tag and
   the previous one released: pruning on either side never removes the base of the next run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace

from replication.replications.engine import chain
from replication.replications.engine.pump import Counted, Limits, Progress, TransferFailed, transfer
from replication.replications.engine.sides import Side, SideError

GONE_SNAPSHOT = "no longer exists"  # `zfs send -t` when the token's snapshot was destroyed


@dataclass(frozen=True)
class Job:
    """What one task replicates, how, and the user's answer to an earlier refusal (`choice`)."""

    source: str
    target: str
    eligible: chain.Eligible
    tag: str  # the hold tag that protects this task's base on both sides
    choice: str | None = None
    raw: bool = False  # encrypted datasets go as they are stored: the target needs no key
    # A copy stays unmounted and read-only and its base is held; a restore is mounted and
    # writable, as the original was, and holds nothing.
    restore: bool = False
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class Moved:
    """Progress of a run: bytes so far of the estimated total, the rate, the step under way."""

    sent: int
    total: int
    rate: float
    step: str


@dataclass(frozen=True)
class Outcome:
    """What a run did: its plan's kind, the bytes it moved, whether it resumed, what arrived."""

    kind: str
    sent: int
    resumed: bool
    arrived: tuple[str, ...]
    base: str | None  # the newest snapshot in common after the run


Report = Callable[[Moved], None]


def replicate(source: Side, target: Side, job: Job, report: Report | None = None) -> Outcome:
    """Run `job` once; SideError / TransferFailed / ReplicationRefused say why it did not."""
    tell = report or (lambda _: None)
    job = raw_if_encrypted(source, job)
    state = target.target_state(job.target)
    resumed = _resume(source, target, job, tell, state.resume_token)
    if state.resume_token:  # finished (a snapshot arrived) or discarded: it changed
        state = target.target_state(job.target)
    stamps = source.snapshots(job.source)
    if stamps is None:
        raise SideError(f"{job.source} does not exist on {source.where}.")
    plan = chain.plan(
        stamps, state.snapshots, job.eligible, target_written=state.written, choice=job.choice
    )
    if plan.force and state.snapshots:
        _release_all(target, job, state.snapshots)  # our holds would stop the forced receive
    if plan.kind == "full" and plan.discards:
        # OpenZFS receives a full stream over a dataset only once its snapshots are gone: the
        # user chose to replace it, knowing these (plan.discards) are destroyed.
        target.destroy_snapshots(job.target, plan.discards)
    sent = _run_steps(source, target, job, plan, tell)
    if resumed and not plan.steps and plan.base is not None:
        _move_protection(source, target, job, None, plan.base)  # the resumed stream's base
    return Outcome(plan.kind, resumed + sent, resumed > 0, plan.arrives, chain.base_after(plan))


def _resume(source: Side, target: Side, job: Job, tell: Report, token: str) -> int:
    """Finish an interrupted receive from its token; the bytes it took (0: none to finish)."""
    if not token:
        return 0
    send = ["zfs", "send", "-t", token]
    try:
        total = estimate(source, send)
    except SideError as error:
        if GONE_SNAPSHOT not in str(error):
            raise
        target.abort_resume(job.target)  # its snapshot is gone: start over from the chain
        return 0
    argvs = (send, receive_argv(job, force=False))
    return _stream((source, target), job, argvs, _meter(tell, 0, _known(total), "resume"))


def _run_steps(source: Side, target: Side, job: Job, plan: chain.Plan, tell: Report) -> int:
    """Send every step of the plan, moving the protected base forward after each one.

    The streams' sizes (for progress) are estimated beside the first transfer, not before it:
    each estimate is a `zfs` command that would otherwise delay the bytes."""
    sends = [send_argv(job, step) for step in plan.steps]
    base = plan.base
    sent = 0
    with ThreadPoolExecutor(max_workers=1) as pool:
        total = pool.submit(lambda: sum(estimate(source, send) for send in sends))
        for index, (step, send) in enumerate(zip(plan.steps, sends, strict=True)):
            label = f"{index + 1} of {len(sends)}: {step.snapshot}"
            receive = receive_argv(job, force=plan.force and index == 0)
            meter = _meter(tell, sent, total, label)
            sent += _stream((source, target), job, (send, receive), meter)
            _move_protection(source, target, job, base, step.snapshot)
            base = chain.Base(step.snapshot, step.snapshot)
    return sent


def _stream(
    sides: tuple[Side, Side],
    job: Job,
    argvs: tuple[Sequence[str], Sequence[str]],
    progress: Callable[[Progress], None],
) -> int:
    """One stream through the pump, from the source side's send to the target side's receive."""
    (source, target), (send, receive) = sides, argvs
    counted: Counted = "sender" if source.here else "receiver"  # the end that is not ssh
    return transfer(source.argv(send), target.argv(receive), job.limits, progress, counted)


def raw_if_encrypted(source: Side, job: Job) -> Job:
    """An encrypted dataset is always sent raw (-w): as it is stored, so the target keeps it
    encrypted and never needs, or sees, its key. A plain send would decrypt it on the way."""
    if job.raw:
        return job
    try:
        cipher = source.properties(job.source, ("encryption",)).get("encryption", "off")
    except SideError:
        return job  # no such dataset: the run's own read says so, in its words
    return replace(job, raw=True) if cipher not in ("off", "-", "") else job


def send_argv(job: Job, step: chain.Step) -> list[str]:
    """`zfs send`: large blocks, embedded data and compressed blocks as stored (or raw)."""
    flags = ["-w"] if job.raw else ["-L", "-e", "-c"]
    if step.base is not None:
        flags += ["-I" if step.intermediates else "-i", f"@{step.base}"]
    return ["zfs", "send", *flags, f"{job.source}@{step.snapshot}"]


def receive_argv(job: Job, *, force: bool) -> list[str]:
    """`zfs receive -s`: resumable; a copy unmounted (-u) and read-only; -F only on the plan's
    forced step."""
    forced = ["-F"] if force else []
    kept = [] if job.restore else ["-u", "-o", "readonly=on"]
    return ["zfs", "receive", "-s", *kept, *forced, job.target]


def estimate(side: Side, send: Sequence[str]) -> int:
    """The stream's size by `zfs send -n -P` (0 when OpenZFS does not say)."""
    out = side.run([*send[:2], "-n", "-P", *send[2:]])
    for line in out.splitlines():
        key, _, value = line.partition("\t")
        if key == "size" and value.strip().isdigit():
            return int(value)
    return 0


def _move_protection(
    source: Side, target: Side, job: Job, old: chain.Base | None, new: str | chain.Base
) -> None:
    """Hold `new` on both sides, then release the old base there (never the other way round).

    A restore is no chain that a later run continues: it holds nothing."""
    if job.restore:
        return
    base = new if isinstance(new, chain.Base) else chain.Base(new, new)
    # Each side's command at once (one of them is often over ssh): holds first, then releases.
    _both(lambda: source.hold(f"{job.source}@{base.source}", job.tag),
          lambda: target.hold(f"{job.target}@{base.target}", job.tag))  # fmt: skip
    if old is not None and old.source != base.source:
        _both(lambda: source.release(f"{job.source}@{old.source}", job.tag),
              lambda: target.release(f"{job.target}@{old.target}", job.tag))  # fmt: skip


def _both(first: Callable[[], None], second: Callable[[], None]) -> None:
    """Run two sides' commands at the same time; the first error, once both have ended."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        other = pool.submit(second)
        try:
            first()
        finally:
            wait([other])
        other.result()


def _release_all(target: Side, job: Job, snapshots: Sequence[chain.SnapStamp]) -> None:
    """Release this task's holds on the target before a forced receive destroys those snapshots."""
    for snap in snapshots:
        target.release(f"{job.target}@{snap.name}", job.tag)


def _known(value: int) -> Future[int]:
    """A size already estimated, as _meter takes it."""
    done: Future[int] = Future()
    done.set_result(value)
    return done


def _meter(tell: Report, before: int, total: Future[int], label: str) -> Callable[[Progress], None]:
    """The pump's per-stream progress as the run's: bytes of earlier steps added, of the total
    once its estimate is in (0 until then: no percentage yet)."""

    def progress(p: Progress) -> None:
        known = total.result() if total.done() and not total.exception() else 0
        tell(Moved(before + p.sent, known, p.rate, label))

    return progress


__all__ = ["Job", "Moved", "Outcome", "TransferFailed", "replicate"]
