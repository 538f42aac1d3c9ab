/**
 * Strings by UTF-16 code unit, the order Array.prototype.sort gives them by default: the same on every machine
 * and locale, and far cheaper than localeCompare's collation (sorting a listing of 2,000 sessions with it cost
 * some 20 ms). ISO times, ids and file names of ASCII sort as they read.
 */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
