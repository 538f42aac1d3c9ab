import type { HomeSpec } from "../types.ts";

/** Hermes's home (a profile root or one profile): `$HERMES_HOME`, else `~/.hermes`. */
export const HERMES_HOME: HomeSpec = {
  flag: "hermes-home",
  env: "HERMES_HOME",
  folder: ".hermes",
  describe: "Hermes home",
};
