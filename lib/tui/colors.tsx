/**
 * Whether the screen is drawn in colour: off under NO_COLOR (https://no-color.org), which the CLI reads once
 * at its entry and passes to runTui. Ink takes no colour option, so the screens draw their text with this
 * Text, which leaves a colour out when colours are off (bold, dim and inverse are no colour, and stay).
 */
import { createContext, useContext } from "react";
import { Text as InkText, type TextProps } from "ink";

export const ColorsOn = createContext(true);

export function Text(props: TextProps) {
  const colors = useContext(ColorsOn);
  return <InkText {...props} {...(colors ? {} : { color: undefined, backgroundColor: undefined })} />;
}
