import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { queryClient } from './query';

/** The refresh helper's route: /redirect/<path> remounts the page at <path>. */
export const REDIRECT_PREFIX = '/redirect';

/**
 * Reloads the current view: drops cached answers and passes through /redirect/<path>, which
 * remounts the page (tags view Refresh, size switch, store switch).
 */
export function useRefreshView(): (fullPath?: string) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (fullPath?: string) => {
      queryClient.removeQueries();
      const target = fullPath ?? `${location.pathname}${location.search}`;
      navigate(`${REDIRECT_PREFIX}${target}`, { replace: true });
    },
    [navigate, location.pathname, location.search],
  );
}
