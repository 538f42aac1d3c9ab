/**
 * Pi's ids: a session is a UUID v7 (its `newSession` uses `uuidv7()`), which names its file; an entry is 8 hex
 * digits (`randomUUID().slice(0, 8)`), unique in its file.
 */
import { assertUuid, newUuidV7 } from "../../ids.ts";

export const newPiSessionId = (now: Date): string => newUuidV7(now);

/** Refuses an id Pi could not have made, before any store is read (a session's id is a path component). */
export const checkPiSessionId = (id: string): string => assertUuid(id);
