/**
 * The toy as a harness module (tests/helpers/harness-material.ts): its descriptor and its test material side
 * by side, what the campaigns' `--harness-module` names to take one more harness.
 */
export { toy as harness } from "./index.ts";
export { material } from "./material.ts";
