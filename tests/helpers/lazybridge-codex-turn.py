"""One turn through LazyBridge's own CodexEngine under a session alias (codex app-server from PATH).

argv: CWD ALIAS PROMPT. Prints the engine's thread id, then the answer; exit 1 when the turn failed.
"""
import sys

from lazybridge import Agent
from lazybridge.engines.codex import CodexEngine

cwd, alias, prompt = sys.argv[1:4]
engine = CodexEngine(session_alias=alias, cwd=cwd, request_timeout=40.0)
result = Agent(engine=engine)(prompt)
print(engine.thread_id)
print(result.text() if hasattr(result, "text") else result)
error = getattr(result, "error", None)
if error:
    print(f"turn failed: {error}", file=sys.stderr)
    sys.exit(1)
