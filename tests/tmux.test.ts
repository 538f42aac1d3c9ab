import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { startTmux } from "../lib/certify-kit/tmux.ts";

test("a program in a private tmux pane gets typed words, keys and exactly the given environment", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tmux-test-"));
  const out = join(dir, "out.txt");
  const pane = startTmux({
    command: "sh",
    args: ["-c", `echo "ready $ONLY_THIS \${HOME:-nohome}"; cat > "$1"`, "sh", out],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ONLY_THIS: "given" },
  });
  try {
    await pane.waitForScreen(/ready given nohome/, "the program's banner", 20_000);
    pane.type("typed words; not a key: Enter");
    pane.press("Enter", "C-d");
    await pane.waitForExit(20_000);
    assert.equal(readFileSync(out, "utf8"), "typed words; not a key: Enter\n");
    assert.equal(pane.exited(), true);
  } finally {
    pane.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
