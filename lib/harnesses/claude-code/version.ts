import { embeddedVersions } from "../../schemas/versions.ts";

/** The Claude Code format we write: the newest one whose schemas are embedded. */
export const CLAUDE_WRITER_VERSION: string = embeddedVersions("claude-code").at(-1) ?? "0.0.0";
