/**
 * The rows of a long list that fit on screen: `height` of them, the cursor kept in the middle while it can be
 * (not past either end), so the picker's list and the transcript scroll alike.
 */
export function centeredWindow<T>(
  items: readonly T[],
  cursor: number,
  height: number,
): { top: number; visible: T[] } {
  return anchoredWindow(items, cursor, height, undefined);
}

/**
 * The same window, but with the cursor's row kept on `line` (where it was last drawn) when given: rows
 * inserted above or below it (a slower store answering) leave it where the user is looking.
 */
export function anchoredWindow<T>(
  items: readonly T[],
  cursor: number,
  height: number,
  line: number | undefined,
): { top: number; visible: T[] } {
  const top = Math.max(0, Math.min(cursor - (line ?? Math.floor(height / 2)), items.length - height));
  return { top, visible: items.slice(top, top + height) };
}
