// Time as data: domain rules take `now` as an ISO string or epoch ms; only ports read the real clock.
// Kept tiny on purpose so every rule stays testable with plain values.

export type Instant = string; // ISO-8601, UTC

export function addMinutes(at: Instant, minutes: number): Instant {
  return new Date(Date.parse(at) + minutes * 60_000).toISOString();
}

/** Parses `90s`, `15m`, `2h`, `7d` (or a bare number of minutes) into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d|w)?\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
    (m[2] ?? "m") as "s" | "m" | "h" | "d" | "w"
  ];
  return n * unit;
}

/** `3m`, `2h`, `5d` — a compact age for tables. */
export function formatAge(fromIso: Instant, nowMs: number): string {
  const ms = Math.max(0, nowMs - Date.parse(fromIso));
  if (ms < 60_000) return `${Math.floor(ms / 1000)}s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m`;
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)}h`;
  return `${Math.floor(ms / 86_400_000)}d`;
}
