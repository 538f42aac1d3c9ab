"""Drives the real LazyBridge SessionRegistry for the compatibility tests.

stdin: {"path": FILE, "now": ISO or null, "ops": [[op, ...args], ...]}
stdout: {"results": [...], "warnings": [...]} (JSON). An op that raises records {"error": TYPE, "message": STR}.
Ops: resolve kind scope name | bind kind scope name id model effort | rename kind scope old new |
     forget kind scope name | entries kind scope | bind-many kind scope prefix count id
"""
import json
import sys
import warnings

from lazybridge.engines import sessions

request = json.load(sys.stdin)
if request.get("now"):
    sessions._now = lambda: request["now"]
registry = sessions.SessionRegistry(request["path"])
results = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for op, *args in request["ops"]:
        try:
            if op == "resolve":
                results.append(registry.resolve(*args))
            elif op == "bind":
                kind, scope, name, native_id, model, effort = args
                results.append(registry.bind(kind, scope, name, native_id, model=model, effort=effort))
            elif op == "rename":
                results.append(registry.rename(*args))
            elif op == "forget":
                results.append(registry.forget(*args))
            elif op == "entries":
                results.append(registry.entries(*args))
            elif op == "bind-many":
                kind, scope, prefix, count, native_id = args
                for i in range(count):
                    registry.bind(kind, scope, f"{prefix}{i}", f"{native_id}-{i}")
                results.append(count)
            else:
                raise SystemExit(f"unknown op {op}")
        except (KeyError, ValueError, TimeoutError) as exc:
            results.append({"error": type(exc).__name__, "message": str(exc)})
json.dump({"results": results, "warnings": [str(w.message) for w in caught]}, sys.stdout)
