import { create } from 'zustand';

/** One tab of the tags view: a visited path and the route-table key of its title. */
export interface VisitedView {
  path: string;
  /** Path with its query, used to come back to the same view. */
  fullPath: string;
  /** i18n key in namespace `route`. */
  title: string;
  affix: boolean;
}

interface TagsViewState {
  visitedViews: VisitedView[];
  /** Adds a tab once per path; a visit to a known path only updates where it leads. */
  addView: (view: VisitedView) => void;
  delView: (path: string) => void;
  /** Keeps the affixed tabs and the given one. */
  delOthersViews: (path: string) => void;
  /** Keeps only the affixed tabs. */
  delAllViews: () => void;
}

export const useTagsViewStore = create<TagsViewState>()((set) => ({
  visitedViews: [],
  addView(view) {
    set(({ visitedViews }) => {
      const known = visitedViews.find((v) => v.path === view.path);
      if (known) {
        return {
          visitedViews: visitedViews.map((v) => (v.path === view.path ? { ...v, fullPath: view.fullPath } : v)),
        };
      }
      return { visitedViews: [...visitedViews, view] };
    });
  },
  delView(path) {
    set(({ visitedViews }) => ({ visitedViews: visitedViews.filter((v) => v.affix || v.path !== path) }));
  },
  delOthersViews(path) {
    set(({ visitedViews }) => ({ visitedViews: visitedViews.filter((v) => v.affix || v.path === path) }));
  },
  delAllViews() {
    set(({ visitedViews }) => ({ visitedViews: visitedViews.filter((v) => v.affix) }));
  },
}));
