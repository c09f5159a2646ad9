"""The sane-hooks version: the one place it is written (CHANGELOG.md names each release).

`install` records it in the project (scripts/hooks/VERSION) so `doctor` can tell when a
project's installed hooks are older than the copy it runs from."""

VERSION = "0.2.0"


def parse(text: str) -> tuple:
    """'0.2.0' -> (0, 2, 0); anything unreadable -> () (older than every release)."""
    parts = []
    for p in (text or "").strip().split("."):
        if not p.isdigit():
            return ()
        parts.append(int(p))
    return tuple(parts)
