/**
 * A screen drawn by ink-testing-library, waited on frame by frame: ink writes every frame it draws to the
 * test's stdout, which announces it ("frame"), so a test waits on the drawing itself, never on a clock.
 */
import type { ReactElement } from "react";
import { render } from "ink-testing-library";

/** `tree` drawn, its stdout announcing every frame ink writes. */
export function draw(tree: ReactElement) {
  const ui = render(tree);
  const write = ui.stdout.write;
  ui.stdout.write = (frame: string) => {
    write(frame);
    ui.stdout.emit("frame", frame);
  };
  return ui;
}

/**
 * The frame on screen once it satisfies `ok`: the one there now, else the first drawn after that does. A
 * screen that never shows it fails as a timed-out test.
 */
export function until(ui: ReturnType<typeof draw>, ok: (text: string) => boolean): Promise<string> {
  const now = ui.lastFrame() ?? "";
  if (ok(now)) return Promise.resolve(now);
  return new Promise<string>((resolve) => {
    const drawn = (frame: string) => {
      if (!ok(frame)) return;
      ui.stdout.off("frame", drawn);
      resolve(frame);
    };
    ui.stdout.on("frame", drawn);
  });
}
