"""SQL text read the way each dialect reads its quotes and comments, so statement
boundaries a string or comment hides in one dialect show in the plain form."""

from __future__ import annotations


def strip_comments(sql, dialect=0):
    """The SQL without comments, each string literal and quoted identifier rewritten to a
    plain form ('text' / "text", no quote or backslash inside) so the splitters after it
    see every statement boundary. The dialects read quotes and comments differently, and a
    text may be sent to any of them: 0 PostgreSQL (E'..' escapes, $tag$..$tag$, nested
    /* */), 1 ANSI/SQLite (no escapes, flat comments), 2 MySQL (backslash escapes in every
    string, `#` comments, flat comments)."""
    out = []
    i = 0
    n = len(sql)
    depth = 0  # open /* */ comments
    while i < n:
        ch = sql[i]
        if depth:
            if sql.startswith("*/", i):
                depth -= 1
                i += 2
                if not depth:
                    out.append(" ")
            elif dialect == 0 and sql.startswith("/*", i):
                depth += 1
                i += 2
            else:
                i += 1
        elif ch in ("'", '"') or ch == "`" and dialect == 2:
            prev = sql[i - 1 : i].lower()
            escapes = dialect == 2 or ch == "'" and prev == "e" and not sql[i - 2 : i - 1].isalnum()
            i = _literal(sql, i, ch, escapes, out)
        elif ch == "$" and dialect == 0 and _dollar_tag(sql, i):
            tag = _dollar_tag(sql, i)
            j = sql.find(tag, i + len(tag))
            end = n if j < 0 else j + len(tag)
            out.append("'%s'" % _plain(sql[i + len(tag) : end - len(tag) if j >= 0 else n]))
            i = end
        elif sql.startswith(("/*!", "/*+", "/*M!"), i):
            # MySQL runs the text of /*! ... */ (versioned code) and hints: keep it
            j = i + 3
            while j < n and (sql[j].isdigit() or sql[j] == "!"):
                j += 1
            out.append(" ")
            i = j
        elif sql.startswith("*/", i):
            out.append(" ")
            i += 2
        elif sql.startswith("/*", i):
            depth = 1
            i += 2
        elif sql.startswith("--", i) or ch == "#" and dialect == 2:
            j = sql.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _literal(sql, i, quote, escapes, out):
    """Copy the literal that opens at sql[i] in plain form; the index after it."""
    n = len(sql)
    j = i + 1
    text = []
    while j < n:
        ch = sql[j]
        if ch == "\\" and escapes:
            j += 2
            continue
        if ch == quote:
            if sql[j + 1 : j + 2] == quote:  # '' inside: one quote
                j += 2
                continue
            break
        text.append(ch)
        j += 1
    out.append("%s%s%s" % (quote, _plain("".join(text)), quote))
    return j + 1


def _plain(text):
    return text.replace("'", " ").replace('"', " ").replace("`", " ").replace("\\", " ")


def _dollar_tag(sql, i):
    """The $tag$ that opens a dollar-quoted string at sql[i], or ""."""
    if i and (sql[i - 1].isalnum() or sql[i - 1] == "_"):
        return ""  # part of an identifier (a$b)
    j = i + 1
    while j < len(sql) and (sql[j].isalnum() or sql[j] == "_"):
        j += 1
    if j < len(sql) and sql[j] == "$" and not sql[i + 1 : i + 2].isdigit():
        return sql[i : j + 1]
    return ""
