import { Progress, Typography } from 'antd';

/** Colour of a usage figure: calm below 70 %, a warning to 90 %, then an alarm. */
export function usageColour(percent: number): string {
  if (percent >= 90) return '#ff4d4f';
  if (percent >= 70) return '#faad14';
  return '#52c41a';
}

/** A CPU, memory or disk figure as a small bar; a dash until the station reports it. */
export function UsageBar({ value, label }: { value: number | null; label: string }) {
  if (value === null) return <Typography.Text type="secondary">—</Typography.Text>;
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <Progress
      percent={percent}
      size="small"
      strokeColor={usageColour(percent)}
      status="normal"
      format={(p) => `${p}%`}
      aria-label={label}
      style={{ width: 96, margin: 0 }}
    />
  );
}
