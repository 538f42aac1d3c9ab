/**
 * Hermes's codec, pure: `state.db` rows (or an export line, snapshot or transcript, as the store loaded them)
 * in, IR out (decode.ts, to-ir.ts); IR in, `sessions` and `messages` rows out (target.ts, from-ir.ts, copy.ts,
 * rows.ts). No file, database, environment or clock is read here: the store (store.ts) loads the source, reads
 * the target's configuration and schema generation, and writes the rows.
 */
export { decodeHermes } from "./decode.ts";
export { providerFamily, toMessage } from "./to-ir.ts";
export { handshakeRow, OpenCallStubs, type TargetRows, targetRows, type TargetSettings } from "./target.ts";
export { foreignMessages } from "./from-ir.ts";
export { copiedMessages } from "./copy.ts";
export { blankMessage, hermesTitle, storedForm } from "./rows.ts";
export { decodeMessage } from "./message.ts";
