/** The built-in harnesses with Claude Code's reader replaced by one that never returns (a loop that never yields). */
import { builtinRegistry, type Registry } from "../../../lib/mod.ts";

export const registry: Registry = {
  harnesses: builtinRegistry.harnesses.map((h) =>
    h.name === "claude-code"
      ? {
        ...h,
        store: {
          ...h.store,
          read: () => {
            for (let spins = 0; spins >= 0; spins = (spins + 1) % 1000);
            throw new Error("unreachable");
          },
        },
      }
      : h
  ),
};
