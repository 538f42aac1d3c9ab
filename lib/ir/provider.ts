/**
 * A model provider's id, as reasoning blocks and capability sets name it (`anthropic`, `openai`, `google`): a
 * lower-case word, never an enumeration, so a harness of a new provider needs no edit here. Apart from
 * schema.ts so that the registry checks descriptors without loading zod (start-up, `--help`).
 */
export const PROVIDER_ID = /^[a-z][a-z0-9-]{0,63}$/;
