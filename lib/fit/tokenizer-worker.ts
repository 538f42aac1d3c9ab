/**
 * The tokenizer thread's own side (tokenizer-thread.ts): loads OpenAI's tables, says whether it could, then
 * counts each text posted to it, the count and the state in the shared words the main thread waits on.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openAiCount } from "./tokenizer.ts";
import { COUNTED, FAILED, type ThreadNews } from "./tokenizer-thread.ts";

const shared = (workerData as { shared: Int32Array }).shared;
const port = parentPort!;

try {
  const count = await openAiCount();
  port.on("message", (text: string) => {
    let state = COUNTED;
    try {
      shared[1] = count(text);
    } catch {
      state = FAILED;
    }
    Atomics.store(shared, 0, state);
    Atomics.notify(shared, 0);
  });
  port.postMessage({ ready: true } satisfies ThreadNews);
} catch (error) {
  port.postMessage({ ready: false, error: String(error) } satisfies ThreadNews);
}
