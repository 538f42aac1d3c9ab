import { test } from "node:test";
import assert from "node:assert/strict";
import { relative } from "node:path";
import { staleGeneratedFiles } from "../scripts/generate.ts";

test("generated types, schema index and Hermes schema generations are up to date with schemas/ and fixtures/", async () => {
  const stale = (await staleGeneratedFiles()).map(([path]) => relative(process.cwd(), path));
  assert.deepEqual(stale, [], "run `npm run generate` and commit the result");
});
