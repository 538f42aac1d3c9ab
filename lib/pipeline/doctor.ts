/**
 * `session-bridge doctor`: what this machine has, and what needs attention, each problem with what to do
 * about it. For every registered harness: its binary on PATH and the version it reports (asked in a throwaway
 * home), its home, whether its store can be read, and drift (the drift command's own scan). For session-bridge's
 * own home: the undo ledger, the backups and their size, and handoffs a crash interrupted. Read-only: nothing
 * is repaired here, every fix is a command or step the person runs.
 */
import { accessSync, constants, existsSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Harness, Homes } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import { homeOf } from "../harnesses/homes.ts";
import { type BrokenStore, readStore } from "../harnesses/stores.ts";
import { scanDrift } from "./drift.ts";
import { findOnPath, reportedVersion } from "../certify-kit/binaries.ts";
import { LinkLoopError, messageOf, PermissionError } from "../errors.ts";
import { shellQuote } from "../io/shell.ts";
import { ledgerPath, pendingOperations } from "../store/ledger.ts";
import { type BackupCopy, DEFAULT_KEEP, planPrune } from "../store/prune.ts";
import { isRowsBackup } from "../store/row-backup.ts";
import { intentSubject, listIntents, stillRunning } from "../store/intent.ts";
import { type SkillLocation, skillStatus } from "./skill.ts";
import { isLink } from "../io/links.ts";
import { isSqliteFile } from "../store/sqlite.ts";

/** ok: nothing to do; note: worth knowing, nothing is wrong; problem: needs attention (exit 1). */
export type CheckStatus = "ok" | "note" | "problem";

export interface DoctorCheck {
  /** A harness name, or "session-bridge" for its own home. */
  subject: string;
  /** What was checked: binary, home, store, drift, ledger, backups, interrupted, writable. */
  check: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it: a command to run or a step to take (set for every note and problem). */
  fix?: string;
}

export interface HarnessFacts {
  name: string;
  title: string;
  /** The executable found on PATH, and the version it reports. */
  binary?: string;
  version?: string;
  home: string;
  homeExists: boolean;
  /** The store root (the folder or database listing reads). */
  store: string;
  /** Sessions its store lists; absent when it cannot be read. */
  sessions?: number;
  /** Where the harness looks for the session-handoff skill and what is there (harnesses that load skills). */
  skill?: { path: string; state: SkillLocation["state"] };
}

export interface BridgeHomeFacts {
  path: string;
  ledger: string;
  /** Handoffs in the ledger not undone yet: what `undo` can take back. */
  undoable: number;
  backups: { copies: number; bytes: number; prunableBytes: number };
  /** Handoffs a crash cut short, by operation id (`recover` finishes or rolls them back). */
  interrupted: string[];
}

export interface DoctorReport {
  harnesses: HarnessFacts[];
  bridgeHome: BridgeHomeFacts;
  checks: DoctorCheck[];
  /** How many checks are problems: non-zero is exit 1. */
  problems: number;
}

export interface DoctorRequest {
  registry: Registry;
  homes: Homes;
  bridgeHome: string;
  /** The environment read at the edge (PATH, to find the binaries). */
  env: NodeJS.ProcessEnv;
  now: Date;
}

export async function doctor(request: DoctorRequest): Promise<DoctorReport> {
  const { registry, homes, bridgeHome } = request;
  const checks: DoctorCheck[] = [];
  const backups = planPrune(bridgeHome, DEFAULT_KEEP, request.now);
  const copies = [...backups.keep, ...backups.remove];
  const skills = skillStatus({ registry, homes, bridgeHome, env: request.env });
  const harnesses: HarnessFacts[] = [];
  for (const h of registry.harnesses) {
    const skill = skills.find((s) => s.harness === h.name);
    harnesses.push(await checkHarness(h, homeOf(homes, h), request, copies, checks, skill));
  }
  const facts = checkBridgeHome(bridgeHome, copies, {
    prunable: backups.bytes,
    prunableAll: planPrune(bridgeHome, 0, request.now).bytes,
  }, checks);
  return {
    harnesses,
    bridgeHome: facts,
    checks,
    problems: checks.filter((c) => c.status === "problem").length,
  };
}

async function checkHarness(
  h: Harness,
  home: string,
  request: DoctorRequest,
  copies: BackupCopy[],
  checks: DoctorCheck[],
  skill: SkillLocation | undefined,
): Promise<HarnessFacts> {
  const add = (check: string, status: CheckStatus, detail: string, fix?: string) =>
    checks.push({ subject: h.name, check, status, detail, ...(fix ? { fix } : {}) });
  const facts: HarnessFacts = {
    name: h.name,
    title: h.title,
    home,
    homeExists: existsSync(home),
    store: h.store.locate(home),
  };

  if (h.integrations.certify) {
    const binary = findOnPath(h.integrations.certify.command, request.env.PATH);
    if (!binary) {
      add(
        "binary",
        facts.homeExists ? "note" : "ok",
        `${h.integrations.certify.command} is not on PATH`,
        facts.homeExists
          ? `install ${h.title}, or put \`${h.integrations.certify.command}\` on PATH: the resume commands handoffs print run it`
          : undefined,
      );
    } else {
      facts.binary = binary;
      try {
        facts.version = await reportedVersion(
          binary,
          request.env,
          request.registry.harnesses.map((x) => x.home),
        );
        add("binary", "ok", `${binary} ${facts.version}`);
      } catch (error) {
        add(
          "binary",
          "problem",
          `${binary} does not run: ${messageOf(error)}`,
          `reinstall ${h.title}, or remove the broken \`${h.integrations.certify.command}\` from PATH`,
        );
      }
    }
  }

  if (skill) {
    facts.skill = { path: skill.path, state: skill.state };
    checkSkill(h, skill, add);
  }

  if (!facts.homeExists) {
    add("home", "ok", `${home} does not exist: ${h.title} has not been used here (nothing to check)`);
    return facts;
  }
  add("home", "ok", home);
  checkLinks(h, home, add);

  const listing = await readStore(h, { [h.name]: home });
  if ("broken" in listing) {
    const { broken, cause } = listing;
    add(
      "store",
      "problem",
      `${broken.store} cannot be read: ${broken.error}`,
      storeFix(h, broken, cause, copies),
    );
    return facts;
  }
  facts.sessions = listing.sessions.length;
  add("store", "ok", `${facts.sessions} session${facts.sessions === 1 ? "" : "s"} readable`);

  const scan = await scanDrift([h], { [h.name]: home });
  if (scan.drift.length) {
    const versions = [...new Set(scan.drift.map((d) => d.version))].join(", ");
    add(
      "drift",
      "problem",
      `${scan.drift.length} record shape${scan.drift.length === 1 ? "" : "s"} the embedded schemas do not ` +
        `describe (${h.title} ${versions})`,
      `\`session-bridge drift --from ${h.name}\` names each one; until session-bridge knows them, a handoff ` +
        `reports what it could not carry`,
    );
  } else add("drift", "ok", "no unknown record shapes");
  for (const u of scan.unreadable) {
    add(
      "session",
      "problem",
      `session ${u.id} cannot be read: ${u.error}`,
      `\`session-bridge inspect ${u.id} --from ${h.name}\` shows where; the harness may still be writing it`,
    );
  }
  return facts;
}

/** The session-handoff skill where the harness looks for it: missing is worth a note, a dangling link a problem. */
function checkSkill(
  h: Harness,
  skill: SkillLocation,
  add: (check: string, status: CheckStatus, detail: string, fix?: string) => void,
): void {
  const install = `session-bridge install-skill --harness ${h.name}`;
  switch (skill.state) {
    case "linked":
      if (existsSync(skill.path)) add("skill", "ok", `linked at ${skill.path}`);
      else {
        add(
          "skill",
          "problem",
          `${skill.path} links to a skill folder that is gone`,
          `\`${install}\` writes the skill's files again`,
        );
      }
      return;
    case "copied":
      add("skill", "ok", `copied to ${skill.path}`);
      return;
    case "stale copy":
      add(
        "skill",
        "note",
        `${skill.path} is a copy of another version of the skill`,
        `\`${install} --copy\` updates it`,
      );
      return;
    case "different":
      add(
        "skill",
        "note",
        `${skill.path} holds a session-handoff skill session-bridge did not install`,
        `keep it, or \`${install} --force\` (moves it aside)`,
      );
      return;
    case "absent":
      if (skill.present) {
        add(
          "skill",
          "note",
          `not installed: ${h.title}'s agent cannot hand its own session off`,
          `\`${install}\``,
        );
      }
      return;
  }
}

/** What to do about a store that cannot be read, by what failed on the way to it. */
function storeFix(h: Harness, broken: BrokenStore, cause: unknown, copies: BackupCopy[]): string {
  if (cause instanceof LinkLoopError) return linkLoopFix(cause);
  if (cause instanceof PermissionError) return permissionFix(cause);
  return damagedStoreFix(h, broken, copies);
}

/** A symbolic link that loops where the store's files are: it leads nowhere, so it goes or is pointed again. */
function linkLoopFix(loop: LinkLoopError): string {
  return `remove the link ${loop.path} (or the one on the way to it that loops) or point it at a real folder ` +
    `or file (\`ls -l ${shellQuote(loop.path)}\` shows where it leads), then run doctor again`;
}

/** A folder or file this user may not read: who owns it and its mode, and the command for its owner. */
function permissionFix(denied: PermissionError): string {
  const stats = statSync(denied.path, { throwIfNoEntry: false });
  if (!stats) return `make ${denied.path} readable by you again (its owner and permissions)`;
  const mode = (stats.mode & 0o777).toString(8).padStart(3, "0");
  const owner = stats.uid === process.getuid?.() ? "you" : `uid ${stats.uid}`;
  const command = `chmod u+rwX ${shellQuote(denied.path)}`;
  return `make ${denied.path} readable by you again (mode ${mode}, owned by ${owner}): ` +
    (owner === "you" ? `\`${command}\`` : `its owner runs \`${command}\`, or gives it to you with chown`);
}

/**
 * Links in a harness's home (lib/io/links.ts): a linked folder (`projects` on a bigger disk) is followed as the
 * harness follows it, said as information; a linked state database is worth a note, since handoffs into the
 * harness refuse to write it through the link. The home itself, its entries and its store are looked at.
 */
function checkLinks(
  h: Harness,
  home: string,
  add: (check: string, status: CheckStatus, detail: string, fix?: string) => void,
): void {
  let names: string[];
  try {
    names = readdirSync(home);
  } catch {
    return;
  }
  const paths = new Set([
    home,
    ...names.map((n) => join(home, n)),
    ...followable(() => [h.store.locate(home)]),
  ]);
  for (const path of paths) {
    const link = followable(() => isLink(path) ? [statSync(path, { throwIfNoEntry: false })] : []);
    if (!link.length) continue;
    const [stats] = link;
    const target = resolve(dirname(path), readlinkSync(path));
    if (stats?.isDirectory()) {
      add("linked folder", "ok", `${path} links to ${target}: followed, as ${h.title} follows it`);
    } else if (stats?.isFile() && isSqliteFile(path)) {
      add(
        "linked file",
        "note",
        `${path} links to ${target}: handoffs into ${h.title} do not write a database through a link`,
        `with ${h.title} closed, put the database itself in its place: mv ${shellQuote(target)} ${
          shellQuote(path)
        }`,
      );
    }
  }
}

/**
 * What `look` finds, or nothing when a link on the way loops or cannot be entered: the store check names that
 * path with its fix, so the look at links passes over it instead of ending doctor.
 */
function followable<T>(look: () => T[]): T[] {
  try {
    return look();
  } catch {
    return [];
  }
}

/**
 * What to do about a store whose files are there but cannot be read as a store: restore session-bridge's newest
 * whole copy of the damaged file when it has one (a copy whose original the error names, or the store itself), else
 * set the file aside so the harness starts a fresh one, which loses the sessions only it indexed.
 */
function damagedStoreFix(h: Harness, broken: BrokenStore, copies: BackupCopy[]): string {
  // A rows backup holds a few rows of the store (lib/store/row-backup.ts): put in its place, it loses the rest.
  const named = copies
    .filter((c) =>
      !isRowsBackup(c.path) && (c.original === broken.store || broken.error.includes(c.original))
    )
    .sort((a, b) => b.at.localeCompare(a.at))[0];
  if (named) {
    return `restore session-bridge's copy from ${named.at} (what was written after it is lost), with ` +
      `${h.title} closed: cp ${shellQuote(named.path)} ${shellQuote(named.original)}`;
  }
  // A path in the message, from the first slash of a word only (a later slash in it reaches the same ends).
  const file = /(?<![^\s:])[^\s:/]*(\/[^\s:]+\.(?:db|sqlite|sqlite3))\b/.exec(broken.error)?.[1] ??
    (statSync(broken.store, { throwIfNoEntry: false })?.isFile() ? broken.store : undefined);
  return file
    ? `with ${h.title} closed, check it (sqlite3 ${
      shellQuote(file)
    } 'PRAGMA integrity_check') and restore it ` +
      `from your own backup, or move it aside (mv ${shellQuote(file)} ${shellQuote(`${file}.broken`)}) so ` +
      `${h.title} starts a fresh one`
    : `make ${broken.store} readable by you again (its owner and permissions), then run doctor again`;
}

/**
 * Backups this large are a note even when the retention rule keeps them all: two whole copies of a large store
 * (taken before backups held only the rows an operation changes) fill a disk unnoticed.
 */
const LARGE_BACKUPS_BYTES = 512 * 1024 * 1024;

function checkBridgeHome(
  bridgeHome: string,
  copies: BackupCopy[],
  freed: { prunable: number; prunableAll: number },
  checks: DoctorCheck[],
): BridgeHomeFacts {
  const prunableBytes = freed.prunable;
  const add = (check: string, status: CheckStatus, detail: string, fix?: string) =>
    checks.push({ subject: "session-bridge", check, status, detail, ...(fix ? { fix } : {}) });
  const undoable = pendingOperations(bridgeHome).length;
  const bytes = copies.reduce((sum, c) => sum + c.bytes, 0);
  const intents = listIntents(bridgeHome);
  const interrupted = intents.filter((i) => !stillRunning(i));
  const facts: BridgeHomeFacts = {
    path: bridgeHome,
    ledger: ledgerPath(bridgeHome),
    undoable,
    backups: { copies: copies.length, bytes, prunableBytes },
    interrupted: interrupted.map((i) => i.op),
  };

  // Where the next handoff writes its backups and ledger: the home itself, or the folder that will hold it.
  const writable = existsSync(bridgeHome) ? bridgeHome : nearestExisting(bridgeHome);
  try {
    accessSync(writable, constants.W_OK);
    add("home", "ok", existsSync(bridgeHome) ? bridgeHome : `${bridgeHome} (made by the first handoff)`);
  } catch {
    add(
      "home",
      "problem",
      `${writable} is not writable: handoffs cannot back up or record what they write`,
      `make it writable, or set SESSION_BRIDGE_HOME to a folder you own`,
    );
  }
  add(
    "ledger",
    "ok",
    `${undoable} handoff${undoable === 1 ? "" : "s"} can be undone` +
      (undoable ? " (session-bridge undo --list)" : ""),
  );
  add("backups", ...backupsCheck(copies.length, bytes, freed));
  for (const i of interrupted) {
    const { command, source, target } = intentSubject(i);
    add(
      "interrupted",
      "problem",
      `${
        command === "undo" ? "undo of handoff" : command
      } ${i.op} of ${source.harness} ${source.id} into ${target.harness} was cut short at ${i.at}`,
      "`session-bridge recover` finishes it or rolls it back (any command that touches a store does it first)",
    );
  }
  const running = intents.length - interrupted.length;
  if (running) {
    add("interrupted", "ok", `${running} operation${running === 1 ? "" : "s"} under way in another process`);
  }
  checkOwnFolderLinks(bridgeHome, add);
  return facts;
}

/** The backups check's status, detail and fix: `prune` named whenever it frees something worth freeing. */
function backupsCheck(
  count: number,
  bytes: number,
  freed: { prunable: number; prunableAll: number },
): [CheckStatus, string, string | undefined] {
  const large = bytes >= LARGE_BACKUPS_BYTES;
  const detail = `${count} cop${count === 1 ? "y" : "ies"}, ${megabytes(bytes)}${large ? ": large" : ""}`;
  if (freed.prunable) {
    return [
      "note",
      detail,
      `\`session-bridge prune\` frees ${
        megabytes(freed.prunable)
      } (keeps the newest ${DEFAULT_KEEP} of each)`,
    ];
  }
  if (large && freed.prunableAll) {
    return [
      "note",
      detail,
      `\`session-bridge prune --keep 0\` frees ${
        megabytes(freed.prunableAll)
      } (every copy no pending undo restores from)`,
    ];
  }
  return [large ? "note" : "ok", detail, undefined];
}

/** A link in session-bridge's own folder makes every write there refuse (lib/io/links.ts): a problem. */
function checkOwnFolderLinks(
  bridgeHome: string,
  add: (check: string, status: CheckStatus, detail: string, fix?: string) => void,
): void {
  let names: string[];
  try {
    names = readdirSync(bridgeHome);
  } catch {
    return;
  }
  for (const path of names.map((n) => join(bridgeHome, n)).filter(isLink)) {
    add(
      "link",
      "problem",
      `${path} is a symbolic link: session-bridge does not write through links in its own folder, so handoffs ` +
        `and undo refuse`,
      `put what it links to (${
        resolve(bridgeHome, readlinkSync(path))
      }) in its place, or remove the link: rm ${shellQuote(path)}`,
    );
  }
}

function nearestExisting(path: string): string {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
