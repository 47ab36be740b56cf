import { findByKey, keyFingerprint } from './api-key.ts';
import type { WorkspaceConfig } from './service-config.ts';

/** A key of Interface B and the workspace it opens. */
export interface WorkspaceKey {
  kind: 'server' | 'client';
  workspace: WorkspaceConfig;
  /** Non-reversible name of the key, for limiter buckets. */
  fingerprint: string;
}

/** Looks up `X-API-Key` values among every workspace's keys. */
export interface WorkspaceKeys {
  find(given: unknown): WorkspaceKey | undefined;
  /** Whether some workspace lets browsers at `origin` register with a client-safe key. */
  originAllowedAnywhere(origin: string): boolean;
}

/** Index the keys of the configured workspaces. */
export function createWorkspaceKeys(workspaces: readonly WorkspaceConfig[]): WorkspaceKeys {
  const entries = workspaces.flatMap((workspace) => [
    ...workspace.serverKeys.map((key) => ({ key, kind: 'server' as const, workspace })),
    ...workspace.clientKeys.map((key) => ({ key, kind: 'client' as const, workspace })),
  ]);
  return {
    find(given) {
      const entry = findByKey(given, entries, (item) => item.key);
      return entry ? { kind: entry.kind, workspace: entry.workspace, fingerprint: keyFingerprint(entry.key) } : undefined;
    },
    originAllowedAnywhere: (origin) =>
      workspaces.some((workspace) => workspace.browserRegistration.enabled && workspace.browserRegistration.allowedOrigins.includes(origin)),
  };
}
