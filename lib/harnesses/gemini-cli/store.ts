/** Gemini CLI's store access: being written (h-gread). */
import type { StoreAccess } from "../types.ts";
import { renderGemini } from "./render.ts";
import { planGemini } from "./register.ts";

const notYet = (what: string) => (): never => {
  throw new Error(`gemini-cli: ${what} not yet built`);
};

export const access: StoreAccess = {
  read: notYet("read"),
  render: renderGemini,
  plan: planGemini,
  configuredModel: () => undefined,
};
