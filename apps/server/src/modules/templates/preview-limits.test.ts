import { ErrorCode, type PreviewData } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { nameDoc } from '../../test/templates';
import { previewGate } from './service';

const [sqlite] = await testDatabases();

describe('large previews', () => {
  const t = useApp(sqlite);

  it('draws one large preview of a tenant at a time and tells the next to try again; small ones always run', async () => {
    const { tenant, tokens } = await buildWorld(t().app);
    const token = tokens.editor;
    const large = { ...nameDoc(), size: { model: null, w: 1100, h: 1000 } };
    // A large preview of this tenant is being drawn.
    const leave = previewGate.enter(tenant.id);
    expect(leave).toBeTruthy();
    try {
      const busy = await t().call('/mgr/templ/preview', { doc: large }, { token, lang: 'en' });
      expect(busy).toMatchObject({
        code: ErrorCode.BUSY,
        msg: 'Busy: other large previews are being drawn, please try again shortly',
      });
      const small = await t().call<PreviewData>('/mgr/templ/preview', { doc: nameDoc() }, { token });
      expect(small.code, small.msg).toBe(0);
    } finally {
      leave?.();
    }
    const drawn = await t().call<PreviewData>('/mgr/templ/preview', { doc: large }, { token });
    expect(drawn.code, drawn.msg).toBe(0);
    expect(drawn.data).toMatchObject({ width: 1100, height: 1000 });
    expect(previewGate.size).toBe(0);
  });
});
