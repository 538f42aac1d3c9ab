/**
 * What the last listing of each store found, kept in session-bridge's own folder part by part (a Claude Code
 * transcript; a Hermes store's databases together), each by a stamp of the files it reads
 * (lib/io/file-stamp.ts: size, times and inode of each): a part whose stamp is unchanged is not read again.
 * Cold (the first listing after a reboot), reading a Hermes `state.db` of a few hundred sessions is thousands
 * of page reads scattered over the file (each sessions row spills its system prompt into overflow pages), most
 * of a listing's time; the cache is one small file. A running Claude Code writes its one transcript, so only
 * that one is read again. A store changes its files when it changes (SQLite writes the database or its WAL),
 * so a changed part is always read again. The cache is only ever a shortcut: a missing, unreadable or foreign
 * file, or one another release wrote (it may list differently), is an empty cache, and failing to save it
 * fails nothing. Listings use it (`list`, the TUI, completion); a conversion resolving its reference reads the
 * stores, and writes nothing of its own there.
 */
import { closeSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import type { SessionSummary } from "./types.ts";
import { VERSION } from "../version.ts";
import { LinkRefusedError, makeOwnFolder, openOwnFile, refuseLinksBelow } from "../io/links.ts";
import type { Feedback } from "../io/progress.ts";

/** 3: sessions dated by their last message (lib/harnesses/updated.ts), no longer a transcript's file time. */
const FORMAT = 3;
const FILE = "listing.json";

interface Part {
  stamp: string;
  sessions: SessionSummary[];
}

/** A store's parts by key. */
type Parts = Record<string, Part>;

interface CacheFile {
  format: number;
  /** The release that wrote it. */
  version: string;
  stores: Record<string, Parts>;
}

export class ListingCache {
  private changed = false;
  /** A link was found in the way: this process does not try (nor say so) again. */
  private refused = false;
  /** The parts each store listed in this process has now: a part gone from its store is gone from the cache. */
  private readonly listed: Record<string, Parts> = {};

  private constructor(
    private readonly home: string,
    private readonly dir: string,
    private readonly stores: Record<string, Parts>,
    private readonly feedback: Feedback,
  ) {}

  /** The cache in `bridgeHome` (empty when there is none, or it cannot be read); `feedback` hears a refusal. */
  static load(bridgeHome: string, feedback: Feedback = {}): ListingCache {
    const dir = join(bridgeHome, "cache");
    try {
      const file = JSON.parse(readFileSync(join(dir, FILE), "utf8")) as Partial<CacheFile>;
      const ours = file.format === FORMAT && file.version === VERSION;
      const stores = ours && typeof file.stores === "object" && file.stores !== null ? file.stores : {};
      return new ListingCache(bridgeHome, dir, stores, feedback);
    } catch {
      return new ListingCache(bridgeHome, dir, {}, feedback);
    }
  }

  /** The sessions part `key` of `store` listed last time, if its stamp is still `stamp`. */
  get(store: string, key: string, stamp: string): SessionSummary[] | undefined {
    const parts = this.stores[store];
    const part = typeof parts === "object" && parts !== null && Object.hasOwn(parts, key)
      ? parts[key]
      : undefined;
    if (part?.stamp !== digest(stamp) || !Array.isArray(part.sessions)) return undefined;
    this.partsOf(store)[key] = part;
    return part.sessions;
  }

  /**
   * What part `key` of `store` lists now, with the stamp taken before it was read (a change made meanwhile
   * shows next time).
   */
  set(store: string, key: string, stamp: string, sessions: SessionSummary[]): void {
    this.partsOf(store)[key] = { stamp: digest(stamp), sessions };
    this.changed = true;
  }

  /** Written only when something changed, whole or not at all (temp then rename), readable by its owner. */
  save(): void {
    for (const [store, parts] of Object.entries(this.listed)) {
      // Every part listed was kept or set: the same count as before means no part has gone.
      const before = this.stores[store];
      if (typeof before !== "object" || before === null) this.changed = true;
      else if (Object.keys(before).length !== Object.keys(parts).length) this.changed = true;
      this.stores[store] = parts;
    }
    if (!this.changed || this.refused) return;
    try {
      const path = join(this.dir, FILE);
      // Never through a link (lib/io/links.ts); the cache file itself too, which the rename would replace.
      refuseLinksBelow(this.home, path);
      makeOwnFolder(this.home, this.dir);
      removeAbandoned(this.dir);
      const temp = join(this.dir, `${FILE}.${process.pid}.tmp`);
      const file: CacheFile = { format: FORMAT, version: VERSION, stores: this.stores };
      const fd = openOwnFile(this.home, temp, "replace");
      try {
        writeFileSync(fd, JSON.stringify(file));
      } finally {
        closeSync(fd);
      }
      renameSync(temp, path);
      this.changed = false;
    } catch (error) {
      // A cache that cannot be written (a read-only home, a full disk) only means the next listing reads again;
      // a link in the way is said once, the listing served all the same (the cache is only a shortcut).
      if (error instanceof LinkRefusedError) {
        this.refused = true;
        this.feedback.notice?.(error.message);
      }
    }
  }

  private partsOf(store: string): Parts {
    return this.listed[store] ??= {};
  }
}

/**
 * A stamp as kept: a transcript's own stamp is short and kept as it is; a store's (a Hermes home of many
 * profiles and legacy files) is kept as its SHA-256, 64 hex digits, which no stamp is (each holds a colon or
 * is "-"), so the two never meet.
 */
const digest = (stamp: string): string =>
  stamp.length <= 64 ? stamp : createHash("sha256").update(stamp).digest("hex");

/** Temp files of saves whose process died before renaming them (a kill mid-save). */
function removeAbandoned(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(/^listing\.json\.(\d+)\.tmp$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(dir, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
