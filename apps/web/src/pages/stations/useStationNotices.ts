import type { Station } from '@esl/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type Notice, subscribeNotices } from '../../platform/notice';
import { queryKeys } from '../../platform/queryKeys';

type ListData = { rows: Station[]; count: number };

/**
 * Keeps the base-station list live from the notice socket: a `station.runtime` notice carries the
 * station as runtimelist presents it and replaces its row in every cached page of the store; a
 * `station.status` (online, offline, flapping) refetches the lists, whose online filter it may change.
 */
export function useStationNotices(storeId: number): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeNotices((notice: Notice) => {
        if (notice.storeId !== storeId) return;
        if (notice.type === 'station.runtime' && isStation(notice.station)) {
          const station = notice.station;
          queryClient.setQueriesData<ListData>({ queryKey: queryKeys.lists('stations', storeId) }, (data) =>
            data?.rows.some((r) => r.id === station.id)
              ? { ...data, rows: data.rows.map((r) => (r.id === station.id ? station : r)) }
              : data,
          );
        } else if (notice.type === 'station.status') {
          void queryClient.invalidateQueries({ queryKey: queryKeys.lists('stations', storeId) });
        }
      }),
    [queryClient, storeId],
  );
}

function isStation(v: unknown): v is Station {
  return typeof v === 'object' && v !== null && typeof (v as Station).id === 'number' && 'configState' in v;
}
