"""Drive a hook's real entry function (`core.engine.main`) over many payloads in one process.

usage: fuzz_runner.py HOOK < payload-file   (payloads separated by a line `\\x1e`)
Prints one JSON line per payload: {"code", "stdout", "stderr", "ms"}.
"""

import io
import json
import os
import sys
import time

HOOKS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "hooks"
)
sys.path.insert(0, HOOKS)
sys.argv = [sys.argv[0], sys.argv[1]]


def main():
    from core import engine

    hook = sys.argv[1]
    blobs = sys.stdin.buffer.read().split(b"\n\x1e\n")
    real_out, real_err, real_in = sys.stdout, sys.stderr, sys.stdin
    results = []
    sys.argv = [hook + ".py"]
    for blob in blobs:
        out, err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = out, err
        sys.stdin = io.TextIOWrapper(io.BytesIO(blob), encoding="utf-8", errors="replace")
        t = time.perf_counter()
        try:
            code = engine.main(hook)
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:  # a crash escaping main() is exactly what the fuzz looks for
            code = "crash:%s:%s" % (exc.__class__.__name__, exc)
        ms = (time.perf_counter() - t) * 1000
        sys.stdout, sys.stderr, sys.stdin = real_out, real_err, real_in
        results.append(
            {
                "code": code,
                "stdout": out.getvalue()[:4000],
                "stderr": err.getvalue()[:4000],
                "ms": ms,
            }
        )
    for r in results:
        print(json.dumps(r))


if __name__ == "__main__":
    main()
