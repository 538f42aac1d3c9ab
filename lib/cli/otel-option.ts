/**
 * `--otel URL` of the commands that emit events (`events`, `run`). The SDK loads only when spans are asked for:
 * by --otel, or by the standard endpoint variables (the usual opt-in of OpenTelemetry tooling). Spans that never
 * reach the collector fail the command (exit 1, said once): the exporter handed to the bus keeps the failure for
 * the command instead of letting the bus warn about it.
 */
import type { Env } from "./command.ts";
import { InputError, messageOf, RefusedError } from "../errors.ts";
import type { ExportedEvent, Exporter } from "../observe/session.ts";

export interface OtelOption {
  /** The exporter to hand the bus, when spans were asked for. */
  exporter?: Exporter;
  /** After the bus has closed: throws the collector's failure, if the spans did not reach it. */
  check(): void;
}

export async function otelOption(
  url: string | undefined,
  env: Env,
  timeOf?: (event: ExportedEvent) => number | undefined,
): Promise<OtelOption> {
  const fromEnv = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!url && !fromEnv) return { check: () => {} };
  if (url && !URL.canParse(url)) throw new InputError(`--otel: not a URL: ${url}`);
  const { otelExporter } = await import("../observe/otel.ts");
  const otel = otelExporter({ ...(url ? { url } : {}), ...(timeOf ? { timeOf } : {}) });
  let failure: unknown;
  return {
    exporter: { ...otel, close: () => otel.close().catch((error: unknown) => void (failure = error)) },
    check: () => {
      if (failure !== undefined) throw new RefusedError(messageOf(failure));
    },
  };
}
