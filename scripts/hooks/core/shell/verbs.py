"""The destroying verbs: one rule for the subcommands and task names of remote, service,
database and framework CLIs (kubectl delete, rails db:drop, mix ecto.reset, rabbitmqctl
delete_user, vault auth disable). A verb word destroys when one of its parts, split on
`:` `-` `_` `.`, is a verb that deletes, destroys, replaces, stops or revokes state."""

from __future__ import annotations

# verbs that delete, destroy, replace, stop or revoke state, whatever the CLI
DESTROYS = frozenset(
    (
        "delete",
        "destroy",
        "drop",
        "apply",
        "uninstall",
        "prune",
        "purge",
        "rm",
        "rmi",
        "rb",
        "rmdir",
        "remove",
        "terminate",
        "truncate",
        "wipe",
        "flush",
        "flushall",
        "flushdb",
        "del",
        "unlink",
        "force-unlock",
        "replace",
        "drain",
        "down",
        "kill",
        "stop",
        "shutdown",
        "reset",
        "fresh",
        "rollback",
        "undo",
        "downgrade",
        "revoke",
        "disable",
        "unregister",
        "undefine",
        "deregister",
        "unsubscribe",
        "forget",
        "yank",
        "unpublish",
        "bootout",
        "unload",
        "erase",
        "taint",
        "poweroff",
        "reboot",
        "halt",
        "kexec",
        "detach",
        "disassociate",
        "failover",
        "evict",
    )
)
# a part that starts with one of these destroys too (deletefile, dropdb, removeall)
# and the nouns made from them (schedule-key-deletion, removal, termination)
PREFIXES = (
    "delet",
    "destr",
    "purg",
    "remov",
    "eras",
    "wipe",
    "terminat",
    "truncat",
    "revok",
    "revoc",
    "uninstal",
    "deprovision",
    "decommission",
)
# a dotted word (ecto.reset) is a task name, not a file, only when its last part is a verb of
# four letters or more: `video.rm` and `delete.txt` stay files
_DOT_MIN = 4


def parts(word: str) -> list[str]:
    """The parts of a verb word: lower case, split on `:` `-` `_` `.` and where a lower-case
    letter meets an upper-case one (dropAll, deleteCluster)."""
    camel = []
    for i, ch in enumerate(word):
        if ch.isupper() and i and word[i - 1].islower():
            camel.append("-")
        camel.append(ch)
    out = ["".join(camel).lower()]
    for sep in (":", "-", "_", "."):
        out = [x for w in out for x in w.split(sep)]
    return [x for x in out if x]


def destroying(word: str, extra: frozenset[str] = frozenset()) -> bool:
    """True when a subcommand or task word names a destroying verb (or one of `extra`, the
    program's own destroying verbs)."""
    if not word or word[:1] == "-" or not all(ch.isalnum() or ch in ":-_." for ch in word):
        return False  # an option, a path, an assignment, code: not a verb
    low = word.lower()
    if low in DESTROYS or low in extra:
        return True
    if "." in low:  # a task name (ecto.reset) has its verb last; a file has its extension
        word = word.rsplit(".", 1)[1]
        if len(word) < _DOT_MIN:
            return False
    for x in parts(word):
        if x in DESTROYS or x in extra or x.startswith(PREFIXES):
            return True
    return False
