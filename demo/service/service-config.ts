import { isVapidSubject } from './vapid-subject.ts';

/** One Interface A key and its plan (decisions.md, "Plan limits"). */
export interface OtpKeyConfig {
  key: string;
  plan: 'free' | 'paid';
  monthlyLimit: number;
  /** Applied on the free plan only. */
  dailyLimit: number;
  minIntervalSeconds: number;
  channelSlots: number;
}

/** A template: `{{name}}` in title and body is filled from the send's `data`. */
export interface TemplateConfig {
  id: string;
  title: string;
  body: string;
  data?: Record<string, string>;
}

/** An Interface B workspace: its keys, browser registration, rate limit and templates. */
export interface WorkspaceConfig {
  id: string;
  serverKeys: string[];
  clientKeys: string[];
  browserRegistration: { enabled: boolean; allowedOrigins: string[] };
  rateLimitPerMinute: number;
  templates: TemplateConfig[];
}

/** The whole configuration of the local service, defaults filled in. */
export interface ServiceConfig {
  otp: { keys: OtpKeyConfig[]; routeLimitPerMinute: number };
  push: {
    workspaces: WorkspaceConfig[];
    /** For requests whose key matches no workspace (bucketed by client IP). */
    rateLimitPerMinute: number;
    ttlSeconds: number;
  };
  vapid: { subject: string };
}

/** Defaults of decisions.md. */
export const DEFAULTS = {
  plan: 'paid',
  monthlyLimit: 1000,
  dailyLimit: 50,
  minIntervalSeconds: 30,
  channelSlots: 1,
  otpRouteLimitPerMinute: 120,
  pushRateLimitPerMinute: 600,
  ttlSeconds: 4 * 7 * 24 * 3600,
  vapidSubject: 'mailto:dev@example.com',
} as const;

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`${where} must be an object`);
  return value as Json;
}

function optional<T>(source: Json, field: string, where: string, check: (value: unknown) => value is T, fallback: T, what: string): T {
  const value = source[field];
  if (value === undefined) return fallback;
  if (!check(value)) throw new TypeError(`${where}.${field} must be ${what}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isPositive = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
const isPlan = (value: unknown): value is 'free' | 'paid' => value === 'free' || value === 'paid';
const isStringMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');

function required(source: Json, field: string, where: string): string {
  const value = source[field];
  if (!isString(value)) throw new TypeError(`${where}.${field} must be a non-empty string`);
  return value;
}

/** Check one template (config file or `POST /_emulator/templates`). @throws TypeError naming the wrong field. */
export function parseTemplate(value: unknown, where: string): TemplateConfig {
  const source = object(value, where);
  const data = optional(source, 'data', where, isStringMap, undefined as unknown as Record<string, string>, 'an object of strings');
  return {
    id: required(source, 'id', where),
    title: optional(source, 'title', where, (item): item is string => typeof item === 'string', '', 'a string'),
    body: optional(source, 'body', where, (item): item is string => typeof item === 'string', '', 'a string'),
    ...(data === undefined ? {} : { data }),
  };
}

function parseWorkspace(value: unknown, where: string): WorkspaceConfig {
  const source = object(value, where);
  const browser = source.browserRegistration === undefined ? {} : object(source.browserRegistration, `${where}.browserRegistration`);
  const templates = optional(source, 'templates', where, Array.isArray, [], 'an array');
  return {
    id: required(source, 'id', where),
    serverKeys: optional(source, 'serverKeys', where, isStrings, [], 'an array of non-empty strings'),
    clientKeys: optional(source, 'clientKeys', where, isStrings, [], 'an array of non-empty strings'),
    browserRegistration: {
      enabled: optional(browser, 'enabled', `${where}.browserRegistration`, isBoolean, false, 'a boolean'),
      allowedOrigins: optional(browser, 'allowedOrigins', `${where}.browserRegistration`, isStrings, [], 'an array of origins'),
    },
    rateLimitPerMinute: optional(source, 'rateLimitPerMinute', where, isPositive, DEFAULTS.pushRateLimitPerMinute, 'a positive integer'),
    templates: templates.map((template: unknown, index: number) => parseTemplate(template, `${where}.templates[${index}]`)),
  };
}

function parseOtpKey(value: unknown, where: string): OtpKeyConfig {
  const source = object(value, where);
  return {
    key: required(source, 'key', where),
    plan: optional(source, 'plan', where, isPlan, DEFAULTS.plan, '"free" or "paid"'),
    monthlyLimit: optional(source, 'monthlyLimit', where, isCount, DEFAULTS.monthlyLimit, 'a count'),
    dailyLimit: optional(source, 'dailyLimit', where, isCount, DEFAULTS.dailyLimit, 'a count'),
    minIntervalSeconds: optional(source, 'minIntervalSeconds', where, isCount, DEFAULTS.minIntervalSeconds, 'a count of seconds'),
    channelSlots: optional(source, 'channelSlots', where, isCount, DEFAULTS.channelSlots, 'a count'),
  };
}

/**
 * Check a config file's content (the JSON of decisions.md) and fill in the defaults.
 *
 * @throws TypeError naming the first wrong field.
 */
export function parseServiceConfig(value: unknown): ServiceConfig {
  const root = object(value, 'config');
  const otp = root.otp === undefined ? {} : object(root.otp, 'otp');
  const push = root.push === undefined ? {} : object(root.push, 'push');
  const vapid = root.vapid === undefined ? {} : object(root.vapid, 'vapid');
  const config: ServiceConfig = {
    otp: {
      keys: optional(otp, 'keys', 'otp', Array.isArray, [], 'an array').map((key: unknown, index: number) => parseOtpKey(key, `otp.keys[${index}]`)),
      routeLimitPerMinute: optional(otp, 'routeLimitPerMinute', 'otp', isPositive, DEFAULTS.otpRouteLimitPerMinute, 'a positive integer'),
    },
    push: {
      workspaces: optional(push, 'workspaces', 'push', Array.isArray, [], 'an array').map((workspace: unknown, index: number) =>
        parseWorkspace(workspace, `push.workspaces[${index}]`),
      ),
      rateLimitPerMinute: optional(push, 'rateLimitPerMinute', 'push', isPositive, DEFAULTS.pushRateLimitPerMinute, 'a positive integer'),
      ttlSeconds: optional(push, 'ttlSeconds', 'push', isPositive, DEFAULTS.ttlSeconds, 'a positive integer'),
    },
    vapid: { subject: optional(vapid, 'subject', 'vapid', isVapidSubject, DEFAULTS.vapidSubject, 'a mailto: or https: URL') },
  };
  const keys = [
    ...config.otp.keys.map((key) => key.key),
    ...config.push.workspaces.flatMap((workspace) => [...workspace.serverKeys, ...workspace.clientKeys]),
  ];
  if (new Set(keys).size !== keys.length) throw new TypeError('config: every key must be distinct');
  return config;
}

/** The keys of the configuration without a config file (decisions.md's environment table). */
export interface EnvironmentKeys {
  otpKey: string;
  pushServerKeys: string[];
  pushClientKey: string | undefined;
  allowedOrigins: string[];
}

/** The configuration used without a config file: one paid OTP key and one workspace, `default`. */
export function configFromKeys(keys: EnvironmentKeys): ServiceConfig {
  return parseServiceConfig({
    otp: { keys: [{ key: keys.otpKey, plan: 'paid' }] },
    push: {
      workspaces: [
        {
          id: 'default',
          serverKeys: keys.pushServerKeys,
          clientKeys: keys.pushClientKey === undefined ? [] : [keys.pushClientKey],
          browserRegistration: { enabled: keys.pushClientKey !== undefined, allowedOrigins: keys.allowedOrigins },
        },
      ],
    },
  });
}
