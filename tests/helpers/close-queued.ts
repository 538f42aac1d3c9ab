// A host process that closes a batched Session with events still queued, without flushing first, as a user's
// program ending would: it must exit 0 with every event delivered (printed as JSON: what the exporter saw and
// what the log held just before it was released).
import process from "node:process";
import { Session } from "../../lib/observe/session.ts";

const seen: number[] = [];
let logged = -1;
const bus = new Session({
  sessionId: "host",
  db: ":memory:",
  exporters: [{
    name: "list",
    export: (event) => {
      seen.push(Number(event.step));
      logged = bus.events?.query({ eventType: "loop_step" }).length ?? -1;
    },
  }],
  batched: true,
  batchSize: 100,
  interval: 60_000,
});
for (let i = 0; i < 7; i++) await bus.emit("loop_step", { step: i }, "r1");
// Not awaited: closing is where a program's end usually leaves it.
void bus.close();
process.on("exit", () => process.stdout.write(`${JSON.stringify({ seen, logged })}\n`));
