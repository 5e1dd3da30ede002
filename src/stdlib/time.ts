/**
 * The `time` namespace (Google's `time.format` and `time.parse` pages; not in the spec, added because real
 * workflows use it): conversions between Unix time in seconds (as `sys.now()` returns it) and RFC 3339 text.
 *
 * - `time.format(seconds, timezone?)` prints `YYYY-MM-DDTHH:MM:SS.ffffffZ` with exactly six fraction digits;
 *   with a tz database name the local time and its offset are printed (`...+02:00`); an offset of zero
 *   prints `Z` (Google's examples: "GMT" and no timezone both give `Z`).
 * - `time.parse(value)` reads RFC 3339 section 5.6 date-time text (`T` separator, `Z` or `±hh:mm`, optional
 *   fraction; microseconds kept) and returns seconds since the epoch as a double.
 *
 * Years are limited to 0001..9999, the range RFC 3339 text can hold.
 */
import { valueError } from '../lang/errors.ts';
import type { Value } from '../lang/value.ts';
import { num, str } from './check.ts';
import type { StdlibFunction } from './types.ts';

const US_PER_SEC = 1_000_000n;
const SEC_PER_DAY = 86_400n;
// Seconds of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z since the epoch.
const MIN_SEC = -62135596800n;
const MAX_SEC = 253402300800n;

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1..12). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The proleptic Gregorian date of a day number since 1970-01-01. */
export function civilFromDays(z: number): { y: number; m: number; d: number } {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/** Whole microseconds since the epoch of a time in seconds (doubles rounded to the nearest microsecond). */
function toMicros(fn: string, seconds: bigint | number): bigint {
  if (typeof seconds === 'bigint') return seconds * US_PER_SEC;
  const us = Math.round(seconds * 1e6);
  // Beyond the finite range (1e303 s is Infinity µs) a double is no time at all; formatTime rejects the rest.
  if (!Number.isFinite(us)) throw valueError(`${fn}: ${seconds} is not a valid time`);
  return BigInt(us);
}

// Formatters by zone name; building one is slow.
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** Offset from UTC in seconds of `zone` at the instant `sec` (seconds since the epoch). */
function zoneOffsetSec(fn: string, zone: string, sec: bigint): number {
  let f = zoneFormats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw valueError(`${fn}: unknown timezone '${zone}'`);
    }
    zoneFormats.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(Number(sec) * 1000))) parts[p.type] = p.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  const wall =
    daysFromCivil(year, Number(parts.month), Number(parts.day)) * 86400 +
    Number(parts.hour) * 3600 +
    Number(parts.minute) * 60 +
    Number(parts.second);
  return wall - Number(sec);
}

/**
 * Formats seconds since the epoch as RFC 3339 text with microseconds, in UTC or in a tz database zone.
 *
 * @throws WorkflowError tagged ValueError for an unknown zone or a time outside years 0001..9999.
 */
export function formatTime(fn: string, seconds: bigint | number, zone: string): string {
  const us = toMicros(fn, seconds);
  let sec = us / US_PER_SEC;
  let frac = us % US_PER_SEC;
  if (frac < 0n) (frac += US_PER_SEC), (sec -= 1n);
  if (sec < MIN_SEC - SEC_PER_DAY || sec >= MAX_SEC + SEC_PER_DAY) {
    throw valueError(`${fn}: time is outside years 0001..9999`);
  }
  const offset = zone === '' || zone === 'UTC' ? 0 : zoneOffsetSec(fn, zone, sec);
  const local = sec + BigInt(offset);
  if (local < MIN_SEC || local >= MAX_SEC) throw valueError(`${fn}: time is outside years 0001..9999`);
  let days = local / SEC_PER_DAY;
  let rem = local % SEC_PER_DAY;
  if (rem < 0n) (rem += SEC_PER_DAY), (days -= 1n);
  const { y, m, d } = civilFromDays(Number(days));
  const r = Number(rem);
  const body =
    `${String(y).padStart(4, '0')}-${p2(m)}-${p2(d)}T${p2(Math.floor(r / 3600))}:${p2(Math.floor(r / 60) % 60)}:` +
    `${p2(r % 60)}.${String(frac).padStart(6, '0')}`;
  if (offset === 0) return body + 'Z';
  const a = Math.abs(offset);
  return `${body}${offset < 0 ? '-' : '+'}${p2(Math.floor(a / 3600))}:${p2(Math.floor(a / 60) % 60)}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses RFC 3339 section 5.6 date-time text into seconds since the epoch (a double; fraction digits beyond
 * microseconds are dropped).
 *
 * @throws WorkflowError tagged ValueError for text that is not RFC 3339 or names an impossible date or time.
 */
function parseTime(fn: string, text: string): number {
  const g = RFC3339.exec(text);
  if (!g) throw valueError(`${fn}: '${text}' is not an RFC 3339 timestamp`);
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(g[i]));
  const bad = (what: string): never => {
    throw valueError(`${fn}: '${text}' has an invalid ${what}`);
  };
  if (y! < 1) bad('year');
  if (mo! < 1 || mo! > 12) bad('month');
  if (d! < 1 || d! > daysInMonth(y!, mo!)) bad('day');
  if (h! > 23) bad('hour');
  if (mi! > 59) bad('minute');
  if (s! > 59) bad('second');
  let offset = 0;
  if (g[9]) {
    const oh = Number(g[10]);
    const om = Number(g[11]);
    if (oh > 23 || om > 59) bad('offset');
    offset = (g[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const whole = daysFromCivil(y!, mo!, d!) * 86400 + h! * 3600 + mi! * 60 + s! - offset;
  const micros = g[7] ? Number(g[7].slice(0, 6).padEnd(6, '0')) : 0;
  return whole + micros / 1e6;
}

/** The time functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // time.format(seconds, timezone = UTC): RFC 3339 text with microseconds.
    name: 'time.format',
    params: [{ name: 'seconds' }, { name: 'timezone', optional: true }],
    impl: ([seconds, timezone]: (Value | undefined)[]) => {
      const sec = num('time.format', 'seconds', seconds);
      const zone = timezone === undefined || timezone === null ? '' : str('time.format', 'timezone', timezone);
      return formatTime('time.format', sec, zone);
    },
  },
  {
    // time.parse(value): RFC 3339 text to seconds since the epoch (double).
    name: 'time.parse',
    params: [{ name: 'value' }],
    impl: ([value]) => parseTime('time.parse', str('time.parse', 'value', value)),
  },
];
