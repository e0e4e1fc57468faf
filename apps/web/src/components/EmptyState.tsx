import { Empty, Typography } from 'antd';
import type { ReactNode } from 'react';

interface Props {
  /** What is missing ("No tags"). */
  title: ReactNode;
  /** What would appear here and how to get it; left out, only the title shows. */
  hint?: ReactNode;
  testId?: string;
}

/**
 * What an empty list or table shows instead of antd's bare "No data": what is missing, what would
 * appear there and how to get it (issue 27 item 10). The text wraps within a phone's width.
 */
export function EmptyState({ title, hint, testId = 'empty-state' }: Props) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      data-testid={testId}
      styles={{ description: { maxWidth: 440, margin: '0 auto', whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
      description={
        <>
          <Typography.Text strong style={{ display: 'block' }}>
            {title}
          </Typography.Text>
          {hint && (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
              {hint}
            </Typography.Text>
          )}
        </>
      }
    />
  );
}
