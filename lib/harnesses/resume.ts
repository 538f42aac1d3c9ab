/** Resume commands as every harness prints them: one shape, so only the argv is a harness's own. */
import { commandLine } from "../io/shell.ts";
import { homeEnvironment } from "./homes.ts";
import type { HomeSpec, ResumeRequest } from "./types.ts";

/**
 * `cd <cwd> && <argv>`, with the harness's home variable set when the home is not its default one (a fresh
 * terminal may not have it set), and any variable the harness's command must also set (`variables`).
 */
export function resumeLine(
  home: HomeSpec,
  request: ResumeRequest,
  argv: string[],
  variables: Record<string, string> = {},
): string {
  return commandLine(
    request.cwd,
    { ...homeEnvironment(home, request.home, request.env), ...variables },
    argv,
  );
}
