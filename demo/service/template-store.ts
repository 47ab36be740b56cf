import type { ServiceDatabase } from './database.ts';
import type { TemplateConfig } from './service-config.ts';

/** Templates per workspace, in the service database. */
export interface TemplateStore {
  /** Create or replace; `true` when it was new. */
  put(workspace: string, template: TemplateConfig): boolean;
  get(workspace: string, id: string): TemplateConfig | undefined;
}

/** The template store over the service database. */
export function createTemplateStore(database: ServiceDatabase): TemplateStore {
  const select = database.prepare<[string, string], { template_id: string; title: string; body: string; data: string | null }>(
    'SELECT template_id, title, body, data FROM templates WHERE workspace = ? AND template_id = ?',
  );
  const upsert = database.prepare(
    `INSERT INTO templates (workspace, template_id, title, body, data) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (workspace, template_id) DO UPDATE SET title = excluded.title, body = excluded.body, data = excluded.data`,
  );
  const put = database.transaction((workspace: string, template: TemplateConfig): boolean => {
    const isNew = select.get(workspace, template.id) === undefined;
    upsert.run(workspace, template.id, template.title, template.body, template.data === undefined ? null : JSON.stringify(template.data));
    return isNew;
  });
  return {
    put: (workspace, template) => put(workspace, template),
    get(workspace, id) {
      const row = select.get(workspace, id);
      if (!row) return undefined;
      return { id: row.template_id, title: row.title, body: row.body, ...(row.data === null ? {} : { data: JSON.parse(row.data) as Record<string, string> }) };
    },
  };
}
