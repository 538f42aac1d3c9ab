/** Quotes a word for a POSIX shell, so printed commands work when pasted even with spaces or quotes in paths. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
