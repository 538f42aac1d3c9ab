import type { StoreAccess } from "../types.ts";
import { RefusedError } from "../../errors.ts";
import { planOpenCode } from "./register.ts";

const notYet = (): never => {
  throw new RefusedError("OpenCode sessions cannot be read or written yet");
};

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts): read and write land here. */
export const access: StoreAccess = {
  read: notYet,
  render: notYet,
  plan: planOpenCode,
  configuredModel: () => undefined,
};
