/** The built-in harnesses with Claude Code's reader replaced by one that fails as a bug would (a TypeError). */
import { builtinRegistry, type Registry } from "../../../lib/mod.ts";

export const registry: Registry = {
  harnesses: builtinRegistry.harnesses.map((h) =>
    h.name === "claude-code"
      ? {
        ...h,
        store: {
          ...h.store,
          read: () => {
            throw new TypeError("planted reader failure");
          },
        },
      }
      : h
  ),
};
