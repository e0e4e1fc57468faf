import { Button, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props<D> {
  /** A TanStack query (or anything shaped like one). */
  query: { isPending: boolean; isError: boolean; data: D | undefined; refetch: () => unknown };
  /** The screen's i18n namespace; it says `loadFailed` and `retry`. */
  ns: string;
  children: (data: D) => ReactNode;
}

/**
 * A screen that shows one answer: a skeleton while it loads, a warning with a retry button when
 * it fails, then the screen itself.
 */
export function Loaded<D>({ query, ns, children }: Props<D>) {
  const { t } = useTranslation(ns);
  if (query.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (query.isError || query.data === undefined) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button type="primary" onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  return children(query.data);
}
