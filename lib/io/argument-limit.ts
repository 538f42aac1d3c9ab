/**
 * How much text one command-line argument carries. Linux refuses to start a process any of whose arguments is
 * longer than MAX_ARG_STRLEN (32 pages: 131,072 bytes, its closing NUL included) with E2BIG, whatever room the
 * whole command line has; a harness that takes its prompt as an argument can be given no longer one.
 */
import { Buffer } from "node:buffer";

const MAX_ARG_STRLEN = 131_072;

/** The most bytes of text an argument holds after `flag` (`--prompt=`; "" for an argument of its own). */
export function argumentRoom(flag = ""): number {
  return MAX_ARG_STRLEN - 1 - Buffer.byteLength(flag);
}
