/**
 * A process killed outright (SIGKILL, as `kill -9` would) while it holds the undo lock on an operation:
 * `die-holding-lock.ts <bridge home> <op>`. It never gets to release the lock.
 */
import { withOperationLock } from "../../lib/store/operation-lock.ts";

const [bridgeHome, op] = process.argv.slice(2);
await withOperationLock(bridgeHome!, op!, () => {
  process.kill(process.pid, "SIGKILL");
  return Promise.resolve();
});
