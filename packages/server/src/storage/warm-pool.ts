import type pg from 'pg';

/**
 * How many PostgreSQL connections a serving process opens before it answers, and keeps open however
 * idle it is: as many as one request uses at once (the events list's first page reads the page and
 * two counts at once).
 */
export const WARM_CONNECTIONS = 3;

/**
 * Opens `count` connections of the pool at once and plans a statement naming every table of the
 * schema on each. A new backend reads a table's and its indexes' catalog rows the first time a
 * statement names it, so this happens before the process serves, not in its first requests: a fresh
 * process's first events list opened its third connection (14 ms here) and then spent 7 ms more
 * parsing its first statement on it (bench/events).
 */
export async function warmPool(pool: pg.Pool, count: number): Promise<void> {
  if (count < 1) return;
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  try {
    const { rows } = await (clients[0] as pg.PoolClient).query<{ name: string }>(
      `select quote_ident(tablename) as name from pg_tables where schemaname = current_schema()
       order by tablename`,
    );
    if (rows.length === 0) return;
    // Planned, never run: planning opens each table and its indexes.
    const plan = `explain ${rows.map((r) => `select 1 from ${r.name} where ctid = '(0,0)'`).join(' union all ')}`;
    await Promise.all(clients.map((client) => client.query(plan)));
  } finally {
    for (const client of clients) client.release();
  }
}
