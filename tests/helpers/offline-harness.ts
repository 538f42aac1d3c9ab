/**
 * A registered harness's pinned binary opened through its certify driver, offline (full mode: the kit's fake
 * model server on 127.0.0.1, private homes none of the user's home variables reach), with a project folder
 * warmed up as a returning user's: what the live tests hand sessions into and resume.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { installHarness } from "../../acceptance/install-harness.ts";
import type { HarnessUnderTest } from "../../lib/certify-kit/driver.ts";
import type { FakeWindow } from "../../lib/certify-kit/fake-servers/window.ts";
import { builtinRegistry, findHarness } from "../../lib/harnesses/registry.ts";

export async function openOffline(
  harness: string,
  version: string,
  work: string,
  window?: FakeWindow,
): Promise<{ under: HarnessUnderTest; cwd: string }> {
  const driver = await findHarness(builtinRegistry, harness).integrations.certify!.driver();
  const under = await driver.open({
    work,
    bin: await installHarness(harness, version),
    version,
    mode: "full",
    env: process.env,
    homeVariables: builtinRegistry.harnesses.map((h) => h.home.env),
    ...(window ? { window } : {}),
  });
  mkdirSync(join(work, "project"), { recursive: true });
  const cwd = realpathSync(join(work, "project"));
  try {
    await under.warmUp(cwd);
  } catch (error) {
    await under.close();
    throw error;
  }
  return { under, cwd };
}
