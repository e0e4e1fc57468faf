import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface PageContainerProps {
  /** Heading of the page; leave out to show none (the tags view already names the page). */
  title?: ReactNode;
  /** Buttons shown at the right of the heading. */
  extra?: ReactNode;
  /** A filter bar shown above the content. */
  filters?: ReactNode;
  children: ReactNode;
}

/** The frame every page sits in: an optional heading with actions, filters, then the content in a card. */
export function PageContainer({ title, extra, filters, children }: PageContainerProps) {
  return (
    <div className="page-container">
      {(title || extra) && (
        <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
          {title ? (
            <Typography.Title level={4} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
          ) : (
            <span />
          )}
          {extra}
        </Flex>
      )}
      {filters && (
        <Card size="small" style={{ marginBottom: 12 }}>
          {filters}
        </Card>
      )}
      <Card>{children}</Card>
    </div>
  );
}
