/**
 * Every route the app serves, from Fastify's own table: "METHOD path". The table is a tree even
 * without the common prefix: a route whose path extends another's is printed as a child holding
 * only the rest (`/api/mgr/product/import` then `check`), one level deeper per four columns.
 */
export function routesOf(table: string): string[] {
  const out: string[] = [];
  const parents: string[] = [];
  for (const line of table.split('\n')) {
    const m = /^(.*?)[├└]── (\S*)(?: \(([^)]+)\))?\s*$/.exec(line);
    if (!m) continue;
    const depth = Math.floor(m[1].length / 4);
    const path = (depth > 0 ? (parents[depth - 1] ?? '') : '') + m[2];
    parents[depth] = path;
    parents.length = depth + 1;
    if (m[3]) for (const method of m[3].split(',').map((s) => s.trim())) out.push(`${method} ${path}`);
  }
  return out;
}
