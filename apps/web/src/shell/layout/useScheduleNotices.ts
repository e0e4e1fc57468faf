import type { ScheduleAppliedNotice } from '@esl/contract';
import { App } from 'antd';
import { useEffect } from 'react';
import { language } from '../../platform/i18n';
import { subscribeNotices } from '../../platform/notice';

/**
 * The user who scheduled a change hears when it took effect (docs/SCHEDULE.md "When it takes
 * effect"): the server sends `schedule.applied` to that user's consoles only, one per store and
 * batch; shown as a notification in the page's language on whatever page is open.
 */
export function useScheduleNotices(): void {
  const { notification } = App.useApp();
  useEffect(
    () =>
      subscribeNotices((n) => {
        if (n.type !== 'schedule.applied') return;
        // Loaded when a notice comes: a static import put the contract's schemas (49.5 KB gzip)
        // into the layout every page waits for (bench/bundle-size.mjs).
        void import('@esl/contract').then(({ scheduleAppliedMessage }) =>
          notification.info({
            message: scheduleAppliedMessage(n as unknown as ScheduleAppliedNotice, language),
            placement: 'bottomRight',
            duration: 10,
          }),
        );
      }),
    [notification],
  );
}
