import { Spin } from 'antd';

/** Shown while a page's code or the signed-in user loads. */
export function Loading() {
  return (
    <div style={{ display: 'flex', minHeight: 240, height: '60vh', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}
