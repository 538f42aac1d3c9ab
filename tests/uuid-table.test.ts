/**
 * The compact stores a streamed transcript's index is built of (lib/io/uuid-table.ts, string-pool.ts,
 * columns.ts, uuid-links.ts, string-set.ts, name-set.ts): each gives back exactly what it was given, however many entries
 * and whatever their form.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { UuidTable } from "../lib/io/uuid-table.ts";
import { StringPool } from "../lib/io/string-pool.ts";
import { float64Column, int32Column } from "../lib/io/columns.ts";
import { UuidLinks } from "../lib/io/uuid-links.ts";
import { StringSet } from "../lib/io/string-set.ts";
import { NameSet } from "../lib/io/name-set.ts";

test("a uuid table numbers each distinct uuid once and spells every one back as it was written", () => {
  const table = new UuidTable();
  // Enough for the hash table to grow many times, and version-7-like uuids sharing their leading bytes.
  const canonical = Array.from({ length: 150_000 }, () => randomUUID());
  const shared = Array.from(
    { length: 2_000 },
    (_, i) => `01890000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`,
  );
  // Not canonical: kept as they are, never confused with the canonical spelling of the same bytes.
  const others = [
    "u1",
    "",
    "E2D53764-B85C-4361-BB5F-A48D1395C345",
    "e2d53764-b85c-4361-bb5f-a48d1395c34g",
    "ünïcode",
  ];
  const all = [...canonical, ...shared, ...others, canonical[0]!.toUpperCase()];
  const ids = all.map((u) => table.intern(u));
  assert.equal(table.size, new Set(all).size);
  assert.deepEqual(all.map((u) => table.intern(u)), ids, "interned again: the same numbers");
  assert.deepEqual(ids.map((id) => table.uuidOf(id)), all);
  assert.notEqual(table.intern(canonical[0]!), table.intern(canonical[0]!.toUpperCase()));
});

test("finding a uuid in a uuid table adds nothing and tells one never interned apart", () => {
  const table = new UuidTable();
  const held = Array.from({ length: 5_000 }, () => randomUUID());
  const ids = held.map((u) => table.intern(u));
  const absent = [randomUUID(), held[0]!.toUpperCase(), "u1", "", held[1]!.slice(0, 35) + "x"];
  assert.deepEqual(held.map((u) => table.find(u)), ids);
  assert.deepEqual(absent.map((u) => table.find(u)), absent.map(() => -1));
  assert.equal(table.size, held.length, "nothing added by finding");
  // A uuid found absent, then interned, takes the next number as any new one does.
  assert.equal(table.intern(absent[0]!), held.length);
  assert.equal(table.find(absent[0]!), held.length);
  assert.equal(table.intern("u1"), held.length + 1);
  assert.equal(table.find("u1"), held.length + 1);
});

test("uuid links give back each link set (to a uuid, to nothing, the last one set) and none for the rest", () => {
  const links = new UuidLinks();
  const uuids = Array.from({ length: 100_000 }, () => randomUUID());
  const want = new Map<string, string | null>();
  for (const [i, u] of uuids.entries()) {
    const to = i % 7 === 0 ? null : uuids[(i * 31) % uuids.length]!;
    links.set(u, to);
    want.set(u, to);
  }
  // Set again: the last link wins; non-canonical ids on either end are kept as they are.
  links.set(uuids[3]!, null);
  want.set(uuids[3]!, null);
  links.set("msg-1", "E2D53764-B85C-4361-BB5F-A48D1395C345");
  want.set("msg-1", "E2D53764-B85C-4361-BB5F-A48D1395C345");
  for (const [from, to] of want) assert.equal(links.get(from), to, from);
  // A uuid only ever linked to has no entry of its own, nor has one never seen.
  assert.equal(links.get("E2D53764-B85C-4361-BB5F-A48D1395C345"), undefined);
  assert.equal(links.get(randomUUID()), undefined);
});

test("a string pool gives back every string it was given, one byte a character or not", () => {
  const pool = new StringPool();
  const strings = [
    ...Array.from({ length: 100_000 }, (_, i) => `toolu_${i.toString(36)}_${"x".repeat(i % 50)}`),
    "",
    "naïve café",
    "emoji 😀 and a lone surrogate \ud800",
    "x".repeat(1024 * 1024 + 1),
  ];
  const ids = strings.map((s) => pool.add(s));
  assert.equal(pool.size, strings.length);
  assert.ok(ids.every((id, i) => pool.get(id) === strings[i]));
});

test("a string set holds each string added once, of any form, and nothing else", () => {
  const set = new StringSet();
  const added = [
    ...Array.from({ length: 60_000 }, (_, i) => `toolu_${i.toString(36).padStart(24, "0")}`),
    "",
    "call_é",
    "call_\u{1F600}",
    "x".repeat(2 * 1024 * 1024),
  ];
  for (const s of added) set.add(s);
  for (const s of added) set.add(s);
  assert.equal(set.size, added.length, "added again: nothing new");
  assert.ok(added.every((s) => set.has(s)));
  // Near misses: a prefix, one more character, another case, the same bytes read as another encoding.
  const absent = [
    "toolu_",
    `toolu_${"0".repeat(23)}`,
    `TOOLU_${"0".repeat(24)}`,
    "call_e",
    "call_\u00e9x",
    "x",
  ];
  assert.deepEqual(absent.filter((s) => set.has(s)), []);
});

test("a name set holds each name added once, as a Set of strings would, however its numbers come", () => {
  const set = new NameSet("line-");
  const reference = new Set<string>();
  const add = (name: string) => {
    set.add(name);
    reference.add(name);
  };
  // A reader's own names, ascending with gaps, and between them names that look like them but are not kept as
  // numbers (a leading zero, a sign, past an int32, no digits), earlier numbers again, and any other name.
  for (let line = 1; line <= 120_000; line += 1 + (line % 3)) {
    add(`line-${line}`);
    if (line % 997 === 0) add(`line-${line - 500}`);
  }
  const odd = ["line-0", "line-07", "line--3", "line-", "line-2147483648", "line-99999999999", "line-1e3"];
  for (const name of [...odd, "msg_1", "", "Line-5", "line-5x", "ünï"]) add(name);
  add("line-200000");
  add("line-150000");
  add("line-150000");
  assert.equal(set.size, reference.size);
  assert.ok([...reference].every((name) => set.has(name)));
  const absent = ["line-2", "line-00", "line-1000000", "line-+1", "line-150001", "msg_2", "line-2147483647"];
  assert.deepEqual(absent.filter((name) => set.has(name)), []);
  assert.deepEqual(absent.filter((name) => reference.has(name)), [], "the absent names are absent");
});

test("a string pool tells whether an entry is a string without making it", () => {
  const pool = new StringPool();
  const ids = ["call_1", "", "ünï", "日本", "call_1"].map((s) => pool.add(s));
  assert.deepEqual(ids.map((id, i) => pool.equals(id, ["call_1", "", "ünï", "日本", "call_1"][i]!)), [
    true,
    true,
    true,
    true,
    true,
  ]);
  assert.equal(pool.equals(ids[0]!, "call_2"), false);
  assert.equal(pool.equals(ids[0]!, "call_10"), false);
  assert.equal(pool.equals(ids[2]!, "uni"), false);
  assert.equal(pool.equals(ids[3]!, "日"), false);
});

test("a column grows chunk by chunk and reads 0 where nothing was set", () => {
  const offsets = float64Column();
  const values = Array.from({ length: 200_000 }, (_, i) => i * 4096.5);
  for (const v of values) offsets.push(v);
  assert.equal(offsets.length, values.length);
  assert.ok(values.every((v, i) => offsets.get(i) === v));
  assert.equal(offsets.get(values.length + 5), 0);
  const sparse = int32Column();
  sparse.set(70_000, -7);
  assert.equal(sparse.length, 70_001);
  assert.equal(sparse.get(69_999), 0);
  assert.equal(sparse.get(70_000), -7);
});
