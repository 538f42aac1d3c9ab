// One contention writer on our side: binds `count` aliases `<prefix><i>` to `<id>-<i>` in one registry file,
// one after another, through session-bridge's SessionRegistry (a separate process, as a user's would be).
// argv: FILE KIND SCOPE PREFIX COUNT ID
import process from "node:process";
import { type RegistryKind, SessionRegistry } from "../../lib/registry/registry.ts";

const [path, kind, scope, prefix, count, id] = process.argv.slice(2) as [
  string,
  RegistryKind,
  string,
  string,
  string,
  string,
];
const registry = new SessionRegistry({ path });
for (let i = 0; i < Number(count); i++) await registry.bind(kind, scope, `${prefix}${i}`, `${id}-${i}`);
