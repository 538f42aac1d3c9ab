/**
 * Round-trip proof over every captured fixture of every harness: A to B to A and A to B to C to A keep the
 * conversation core (roles, text, reasoning text, tool calls with their exact native form, results and their
 * pairing, order). Each hop is a real conversion: rendered to a file, read back by the target's reader.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Session } from "../lib/ir/schema.ts";
import type { HarnessName } from "../lib/harnesses/registry.ts";
import { BUILTIN_HARNESSES, builtinRegistry } from "../lib/harnesses/registry.ts";
import { convertSession } from "../lib/pipeline/convert.ts";
import { restoreProvenance } from "../lib/tools/provenance.ts";
import { conversationCore } from "./helpers/ir-core.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const HARNESSES: HarnessName[] = ["claude-code", "codex", "hermes"];
const dir = tempDir();
const bridgeHome = join(dir, "bridge");
const homes: Record<HarnessName, string> = {
  "claude-code": join(dir, "claude"),
  codex: join(dir, "codex"),
  hermes: join(dir, "hermes"),
};

/** Every session a fixture folder holds, as a reference its harness's reader takes. */
async function sources(): Promise<{ harness: HarnessName; ref: string; label: string }[]> {
  const out: { harness: HarnessName; ref: string; label: string }[] = [];
  for (const h of ["claude-code", "codex"] as const) {
    for (const version of readdirSync(join(FIXTURES, h))) {
      for (const file of readdirSync(join(FIXTURES, h, version))) {
        if (file.endsWith(".jsonl") && !file.includes(".requests.") && !file.includes(".export.")) {
          out.push({ harness: h, ref: join(FIXTURES, h, version, file), label: `${h} ${version} ${file}` });
        }
      }
    }
  }
  for (const version of readdirSync(join(FIXTURES, "hermes"))) {
    for (
      const file of readdirSync(join(FIXTURES, "hermes", version)).filter((f) => f.endsWith(".state.db"))
    ) {
      const home = join(dir, "hermes-sources", version, file);
      mkdirSync(home, { recursive: true });
      copyFileSync(join(FIXTURES, "hermes", version, file), join(home, "state.db"));
      for (const row of await BUILTIN_HARNESSES["hermes"].store.list(home)) {
        out.push({ harness: "hermes", ref: row.path, label: `hermes ${version} ${file} ${row.id}` });
      }
    }
  }
  return out;
}

let hopNo = 0;
async function hop(session: Session, to: HarnessName): Promise<Session> {
  const target = BUILTIN_HARNESSES[to];
  const path = join(dir, `hop-${hopNo++}.${to}.jsonl`);
  await convertSession(session, target, {
    registry: builtinRegistry,
    handshake: true,
    stubOpenCalls: false,
    now: new Date(),
    home: homes[to],
    cwd: "/home/user/project",
  }, {
    path,
    replace: false,
  }, bridgeHome);
  return restoreProvenance(bridgeHome, await target.store.read(path));
}

/** Text made inert on the way (‹tag›) is the same words. */
const core = (s: Session) =>
  JSON.parse(JSON.stringify(conversationCore(s.messages)).replaceAll("‹", "<").replaceAll("›", ">"));

const paths = (a: HarnessName) => {
  const others = HARNESSES.filter((h) => h !== a);
  return [...others.map((b) => [b, a]), [others[0]!, others[1]!, a], [
    others[1]!,
    others[0]!,
    a,
  ]] as HarnessName[][];
};

for (const source of await sources()) {
  test(`round trips keep the conversation core: ${source.label}`, async () => {
    const original = restoreProvenance(
      bridgeHome,
      await BUILTIN_HARNESSES[source.harness].store.read(source.ref),
    );
    const expected = core(original);
    for (const route of paths(source.harness)) {
      let session = original;
      for (const to of route) session = await hop(session, to);
      assert.deepEqual(core(session), expected, `${source.harness} -> ${route.join(" -> ")}`);
    }
  });
}
