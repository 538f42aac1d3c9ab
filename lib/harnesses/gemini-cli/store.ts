/** Gemini CLI's store access: being written (h-gread). */
import type { StoreAccess } from "../types.ts";

const notYet = (what: string) => (): never => {
  throw new Error(`gemini-cli: ${what} not yet built`);
};

export const access: StoreAccess = {
  read: notYet("read"),
  render: notYet("render"),
  plan: notYet("plan"),
  configuredModel: () => undefined,
};
