import { Typography } from 'antd';

/** What a table cell shows for a value that is not set. */
export const dash = <Typography.Text type="secondary">—</Typography.Text>;

/** The text, or the dash when it is empty. */
export const orDash = (v: string) => v || dash;
