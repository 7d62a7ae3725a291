// What each backend name in the results files is called in the doc, and its colour in the charts.
// One table, so a table column and a chart legend never name a backend differently.

export interface BackendStyle {
  readonly label: string;
  readonly color: string;
}

export const BACKENDS: Readonly<Record<string, BackendStyle>> = {
  memory: { label: 'memory', color: '#1b7f3b' },
  postgres: { label: 'PostgreSQL', color: '#1f5fbf' },
  mysql: { label: 'MariaDB', color: '#d97a00' },
  mysql9: { label: 'MySQL 9', color: '#a0306a' },
  'postgres+replica': { label: 'PostgreSQL + memory replica', color: '#138d90' },
  'memory, no page cache': { label: 'memory, no page cache', color: '#6aa84f' },
  'reference: bare Express': { label: 'bare Express (reference)', color: '#666666' },
};

/**
 * The filter benchmark measures memory twice: the engine alone (count and the page's row slots)
 * and with the page's row objects built, which is what a request gets and so what the doc calls
 * "memory"; `scan` is the same plan over every row without indexes.
 */
export const FILTER_BACKENDS: Readonly<Record<string, BackendStyle>> = {
  'memory+rows': BACKENDS.memory,
  memory: { label: 'memory, engine only', color: '#8fce9f' },
  postgres: BACKENDS.postgres,
  mysql: BACKENDS.mysql,
  mysql9: BACKENDS.mysql9,
  scan: { label: 'scan (no index)', color: '#999999' },
};

/** A backend's label; an unknown name stands for itself (a new backend shows up, unstyled). */
export const label = (name: string, styles: Readonly<Record<string, BackendStyle>> = BACKENDS): string =>
  styles[name]?.label ?? name;
export const color = (name: string, styles: Readonly<Record<string, BackendStyle>> = BACKENDS): string =>
  styles[name]?.color ?? '#333333';
