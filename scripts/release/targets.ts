/**
 * The platforms a release ships a binary for: the one list the release build, the npm packages, install.sh's
 * test and the Homebrew formula derive their names from. Names use npm's `os`/`cpu` words (what
 * `process.platform`/`process.arch` say), so a platform package's name is also its npm install condition.
 */
export interface Target {
  /** npm's `os` word and the first half of every asset name. */
  os: "linux" | "darwin";
  /** npm's `cpu` word. */
  cpu: "x64" | "arm64";
  /** What `bun build --compile --target` calls it. */
  bun: string;
}

export const TARGETS: readonly Target[] = [
  { os: "linux", cpu: "x64", bun: "bun-linux-x64" },
  { os: "linux", cpu: "arm64", bun: "bun-linux-arm64" },
  { os: "darwin", cpu: "x64", bun: "bun-darwin-x64" },
  { os: "darwin", cpu: "arm64", bun: "bun-darwin-arm64" },
];

/** `linux-x64`: the suffix of a release asset and of a platform package's name. */
export const platformOf = (t: Target): string => `${t.os}-${t.cpu}`;

/** The release asset holding the binary for `t` (what install.sh and the formula download). */
export const assetName = (t: Target): string => `session-bridge-${platformOf(t)}`;

/** The npm package carrying the binary for `t`. */
export const packageName = (t: Target): string => `session-bridge-${platformOf(t)}`;

/** The file listing every asset's SHA-256, in `sha256sum` format. */
export const CHECKSUMS = "SHA256SUMS";

/** The target this machine is, if a release ships one for it. */
export function hostTarget(
  platform: string = process.platform,
  arch: string = process.arch,
): Target | undefined {
  return TARGETS.find((t) => t.os === platform && t.cpu === arch);
}
