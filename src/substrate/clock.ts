// The clock port: the only place the engine reads wall time. Tests may pass a fixed clock.

export interface Clock {
  now(): string;
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date().toISOString(),
  nowMs: () => Date.now(),
};
