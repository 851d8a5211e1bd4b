// Clock display: a reading, which side runs, and the page's own monotonic
// time since the reading (so a phone with a wrong clock still ticks right).

import type { ClockView } from './types';

/** h:mm:ss from one hour up, m:ss below, never negative. */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A clock reading anchored at the page time it arrived. */
export class Ticker {
  private anchor = 0;
  constructor(private reading: ClockView | null) {
    this.anchor = performance.now();
  }

  update(reading: ClockView | null): void {
    this.reading = reading;
    this.anchor = performance.now();
  }

  get running(): 'white' | 'black' | 'none' {
    return this.reading?.running ?? 'none';
  }

  /** The milliseconds each side has now; null without a clock. */
  now(): { white: number; black: number } | null {
    const r = this.reading;
    if (!r) return null;
    const el = r.age_ms + (performance.now() - this.anchor);
    return {
      white: r.running === 'white' ? r.white_ms - el : r.white_ms,
      black: r.running === 'black' ? r.black_ms - el : r.black_ms,
    };
  }
}
