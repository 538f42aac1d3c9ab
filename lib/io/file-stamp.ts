/** What a file is now, in one string: any write to it, or another file in its place, gives another. */
import { statSync } from "node:fs";

/** Size, modification and change times to the nanosecond, inode; "-" for no file. */
export function fileStamp(path: string): string {
  const s = statSync(path, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}` : "-";
}
