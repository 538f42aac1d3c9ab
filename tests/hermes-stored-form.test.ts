/**
 * Messages in column form for an INSERT (storedForm): the columns the database has, in the message's order,
 * worked out once per shape of message and shared by the messages of that shape; a message of another shape
 * (a copy's row of an older generation, then a stub or handshake row made whole) gets its own.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { blankMessage, type ExportedMessage, storedForm } from "../lib/harnesses/hermes/rows.ts";

const columns = new Set(["session_id", "role", "content", "tool_calls", "timestamp", "active"]);

test("messages of one shape share their column names; another shape gets its own, each value in column form", () => {
  const stored = storedForm(columns);
  const text = blankMessage({ session_id: "s", role: "user", timestamp: 1.5, content: "hi" });
  const call = blankMessage({
    session_id: "s",
    role: "assistant",
    timestamp: 2,
    content: [{ type: "text", text: "é" }],
    tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }],
  });
  // A stored row of an older generation: fewer columns, another order.
  const older = {
    role: "tool",
    session_id: "s",
    timestamp: 3,
    content: "done",
  } as unknown as ExportedMessage;
  const [a, b, c, d] = [text, call, older, text].map(stored);
  // In the message's own order (blankMessage's columns, then the fields it was given), without the id.
  assert.deepEqual(a!.names, ["content", "tool_calls", "active", "session_id", "role", "timestamp"]);
  assert.deepEqual(a!.values, ["hi", null, 1, "s", "user", 1.5]);
  assert.equal(b!.names, a!.names, "one shape, one names array");
  assert.deepEqual(b!.values, [
    '\u0000json:[{"type": "text", "text": "\\u00e9"}]',
    '[{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]',
    1,
    "s",
    "assistant",
    2,
  ]);
  assert.deepEqual(c!.names, ["role", "session_id", "timestamp", "content"]);
  assert.deepEqual(c!.values, ["tool", "s", 3, "done"]);
  assert.deepEqual(d!.names, a!.names);
  assert.deepEqual(d!.values, a!.values);
});
