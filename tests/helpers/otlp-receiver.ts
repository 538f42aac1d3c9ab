/**
 * A collector's OTLP/HTTP traces endpoint on 127.0.0.1 for the tests, keeping every request as it arrived, and
 * the spans and attributes read back from what it received.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number };
}
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A collector's OTLP/HTTP traces endpoint, keeping every request as it arrived. */
export async function receiver(): Promise<{ url: string; received: Received[]; stop: () => Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function spansOf(received: Received[]): OtlpSpan[] {
  return received.flatMap((r) =>
    (JSON.parse(r.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans
      .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))
  );
}

export function attr(span: OtlpSpan | undefined, key: string): string | number | undefined {
  const v = span?.attributes.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  return v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.doubleValue);
}
