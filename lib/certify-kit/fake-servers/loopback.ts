/** What every fake model server shares: reading a request body, and listening on loopback only. */
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a free port the system picks; nothing beyond this machine can reach it. */
export function listenOnLoopback(server: Server): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => {
          // Keep-alive sockets from a killed client would otherwise hold close() open.
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}
