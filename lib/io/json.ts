/** Narrowing helpers for JSON read from harness files and rows, where any field may be missing or odd. */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A string field, or "" when it is absent or not a string. */
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A non-empty string field, or undefined. */
export const optStr = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);
