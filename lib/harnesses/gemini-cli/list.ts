/** Listing Gemini CLI sessions: being written (h-gread); empty until then. */
import type { StoreListing } from "../types.ts";

export const listing: StoreListing = { list: () => [] };
