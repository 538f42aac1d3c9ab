/** The bottom line: the screen's own keys first, then the common ones, cut to the width. */
import { Text } from "./colors.tsx";
import { COMMON_KEYS, type KeyHelp } from "./keys.ts";
import { clip } from "./text.ts";

export function Footer({ keys, width }: { keys: KeyHelp[]; width: number }) {
  const text = [...keys, ...COMMON_KEYS].map((k) => `${k.keys} ${k.does}`).join(" · ");
  return <Text dimColor wrap="truncate-end">{clip(text, width)}</Text>;
}

export function HelpScreen({ keys, width }: { keys: KeyHelp[]; width: number }) {
  const all = [...keys, ...COMMON_KEYS];
  const pad = Math.max(...all.map((k) => k.keys.length));
  return (
    <>
      <Text bold>Keys (any key closes this)</Text>
      {all.map((k) => (
        <Text key={k.keys} wrap="truncate-end">{clip(`  ${k.keys.padEnd(pad)}  ${k.does}`, width)}</Text>
      ))}
    </>
  );
}
