const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `4h`, `2d`, `1h30m` → milliseconds; null when the text is not a duration. */
export function parseDurationMs(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d{1,4}[mhd])+$/.test(trimmed)) return null;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d{1,4})([mhd])/g)) {
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  }
  return total > 0 ? total : null;
}

/** 90 min → `1 h 30 min`; 2 d 3 h → `2 d 3 h`. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}
