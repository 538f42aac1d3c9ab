/**
 * Codex's codec, pure: rollout records in, IR out (decode.ts); IR in, rollout lines and the `threads` row out
 * (write.ts, copy.ts, row.ts), for the Codex version and configuration the store detected (target.ts) and
 * passes in. No file, database, environment or clock is read here: the store (store.ts) reads the rollout and
 * the index, and writes them.
 */
export { decodeCodex, decodeCodexStreamed, type RolloutLines, type RolloutSource } from "./decode.ts";
export { isCopy, renderRollout } from "./write.ts";
export { copyRollout } from "./copy.ts";
export { adjustedMeta, describeCopy } from "./describe.ts";
export { fitRow, rowValues } from "./row.ts";
