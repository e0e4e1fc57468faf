import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type Notice, subscribeNotices } from '../../platform/notice';
import { queryKeys } from '../../platform/queryKeys';

/** Refetches are gathered: a full-store refresh changes many tags a second. */
const GATHER_MS = 500;

/**
 * Keeps the tag list live: a `tag.changed` notice of the store refetches the list, whose rows
 * carry the screen versions; a changed version fetches that row's new picture, nothing else.
 */
export function useTagNotices(storeId: number): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribeNotices((notice: Notice) => {
      if (notice.type !== 'tag.changed' || notice.storeId !== storeId || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: queryKeys.lists('tags', storeId) });
      }, GATHER_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [queryClient, storeId]);
}
