/** The harnesses certify can drive; a pair runs when both ends are here. */
import type { HarnessDriver, HarnessId } from "./types.ts";
import { claudeCodeDriver } from "./harnesses/claude-code/index.ts";
import { codexDriver } from "./harnesses/codex/index.ts";
import { hermesDriver } from "./harnesses/hermes/index.ts";

export const DRIVERS: HarnessDriver[] = [claudeCodeDriver, codexDriver, hermesDriver];

export function driverFor(id: HarnessId): HarnessDriver {
  const found = DRIVERS.find((d) => d.id === id);
  if (!found) throw new Error(`certify cannot drive ${id}`);
  return found;
}
