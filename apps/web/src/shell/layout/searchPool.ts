import { SEARCH_THRESHOLD } from '@esl/contract';
import Fuse from 'fuse.js';
import type { AppRoute } from '../routes';

export interface SearchEntry {
  path: string;
  /** Titles from the group down to the page, already translated. */
  title: string[];
}

/** Every shown page of the permitted table, with the titles of its groups. */
export function searchPool(table: readonly AppRoute[], translate: (key: string) => string, parents: string[] = []) {
  const out: SearchEntry[] = [];
  for (const route of table) {
    if (route.hidden) continue;
    const title = [...parents, translate(route.name)];
    if (route.page) out.push({ path: route.path, title });
    if (route.children) out.push(...searchPool(route.children, translate, title));
  }
  return out;
}

/** The fuzzy search of SPEC.md §2: title weight 0.7, path weight 0.3, threshold 0.4. */
export function createSearch(pool: SearchEntry[]): (query: string) => SearchEntry[] {
  const fuse = new Fuse(pool, {
    shouldSort: true,
    threshold: SEARCH_THRESHOLD,
    location: 0,
    distance: 100,
    minMatchCharLength: 1,
    keys: [
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ],
  });
  return (query) => (query.trim() ? fuse.search(query.trim()).map((r) => r.item) : []);
}
