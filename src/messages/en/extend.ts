/** `/gpu extend` and *Extend 4 h*. */
export const extend = {
  "extend.extended": "{parts}{cap}.",
  "extend.part": "{what} is yours until {until}",
  "extend.capped": ": capped at {max} from now, the longest claim",
  "extend.none": "You hold no claim on {what}: {example} takes it.",
  "extend.refused": "{holders} Only the holder can extend a claim.",
} as const satisfies Record<string, string>;
