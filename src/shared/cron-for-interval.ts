/**
 * The cron expression (6 fields, seconds first) for a poll interval. Only intervals a clock face divides evenly are
 * allowed (5, 10, 15, 20, 30 s; 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60 min), so polls land on
 * the same seconds every minute.
 */
export function cronForInterval(seconds: number): string | null {
  if (!Number.isInteger(seconds) || seconds < 1) return null;
  if (seconds < 60) return 60 % seconds === 0 ? `*/${seconds} * * * * *` : null;
  if (seconds % 60 !== 0) return null;
  const minutes = seconds / 60;
  if (minutes === 1) return "0 * * * * *";
  if (minutes < 60) return 60 % minutes === 0 ? `0 */${minutes} * * * *` : null;
  return minutes === 60 ? "0 0 * * * *" : null;
}
