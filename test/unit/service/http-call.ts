import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** An answer of the service under test. */
export interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** POST a JSON value (or raw text, when `body` is a string) and read the JSON answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** GET and read the JSON answer. */
export async function get(url: string): Promise<Answer> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, unknown> };
}

/** A fresh data dir, and its removal. */
export function temporaryDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pushbridge-service-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clock the test moves. */
export function manualClock(start = Date.UTC(2026, 0, 15, 12, 0, 0)): { now: () => number; advance: (ms: number) => void; set: (at: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms), set: (value) => (at = value) };
}
