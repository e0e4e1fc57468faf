import { describe, expect, it } from 'vitest';
import { decodeMessage } from './codec';
import { EXAMPLES } from './examples';
import { LIMITS } from './limits';
import { type LearnedModel, TagEntry } from './messages';

// `up/models` and the heartbeat's alarms and access-point state come from an untrusted station:
// every bound is checked, and a message with one bad model is dropped whole.

const model = EXAMPLES.models.models[0] as LearnedModel;
const models = (ms: unknown[]) => decodeMessage('models', JSON.stringify({ v: 1, models: ms }));
const withModel = (patch: Record<string, unknown>) => models([{ ...model, ...patch }]);

describe('up/models', () => {
  it('takes a learned model and an empty list', () => {
    expect(models([model])).toEqual({ ok: true, message: { v: 1, models: [model] } });
    expect(models([])).toMatchObject({ ok: true });
    expect(withModel({ colourType: null, colours: ['white', 'black', 'red', 'yellow', 'green'] })).toMatchObject({
      ok: true,
    });
  });

  it('refuses a key that is not vendor-type, or too long', () => {
    for (const key of ['35', 'OEPL-35', 'oepl35', 'oepl-', 'oepl-3 5', 'oepl_35', `oepl-${'a'.repeat(29)}`, '']) {
      expect(withModel({ key }), key).toMatchObject({ ok: false, error: 'invalid' });
    }
    expect(withModel({ key: `oepl-${'a'.repeat(28)}` })).toMatchObject({ ok: true });
  });

  it('refuses sizes out of range, an empty or long name, a bad rotation', () => {
    for (const patch of [{ w: 0 }, { h: 4097 }, { w: 12.5 }, { name: '' }, { name: 'n'.repeat(65) }, { rotate: 4 }]) {
      expect(withModel(patch), JSON.stringify(patch)).toMatchObject({ ok: false, error: 'invalid' });
    }
    expect(withModel({ source: 's'.repeat(129) })).toMatchObject({ ok: false });
    expect(withModel({ led: 'yes' })).toMatchObject({ ok: false });
  });

  it('refuses colours that repeat, are not names, or are not those of the colour type', () => {
    for (const colours of [[], ['white', 'white'], ['White', 'black'], ['white', 'black']]) {
      expect(withModel({ colours }), colours.join()).toMatchObject({ ok: false, error: 'invalid' });
    }
    expect(withModel({ colourType: 'purple' })).toMatchObject({ ok: false });
    // The same inks in the panel's own order are fine.
    expect(withModel({ colours: ['black', 'white', 'red'] })).toMatchObject({ ok: true });
  });

  it('refuses the same key twice and more models than a message holds', () => {
    expect(models([model, model])).toMatchObject({ ok: false, error: 'invalid' });
    const many = Array.from({ length: LIMITS.maxModelsPerMessage + 1 }, (_, i) => ({ ...model, key: `oepl-${i}` }));
    expect(models(many)).toMatchObject({ ok: false, error: 'invalid' });
    expect(models(many.slice(1))).toMatchObject({ ok: true });
  });
});

describe('tag entries name a catalogue code or a learned key', () => {
  const entry = EXAMPLES.tags.tags[0];
  it.each(['05', 'oepl-35', 'bt-Type-7'])('takes %s', (hw) => {
    expect(TagEntry.safeParse({ ...entry, hw }).success).toBe(true);
  });
  it.each(['5', 'Oepl-35', 'oepl-', 'oepl-35/x', '05-'])('refuses %s', (hw) => {
    expect(TagEntry.safeParse({ ...entry, hw }).success).toBe(false);
  });
});

describe('heartbeat alarms and access point', () => {
  const hb = EXAMPLES.heartbeat;
  const decode = (patch: Record<string, unknown>) => decodeMessage('heartbeat', JSON.stringify({ ...hb, ...patch }));
  it('takes alarms it does not know yet (a newer station), refuses malformed ones', () => {
    expect(decode({ alarms: ['radioSilent', 'somethingNew'] })).toMatchObject({ ok: true });
    for (const alarms of [['radio silent'], ['RadioSilent'], ['radioSilent', 'radioSilent'], Array(17).fill('a')]) {
      expect(decode({ alarms }), String(alarms)).toMatchObject({ ok: false, error: 'invalid' });
    }
  });
  it('checks the access point state', () => {
    expect(decode({ ap: { apstate: 1, runstate: 2, lowBattery: 0, timeouts: 0 } })).toMatchObject({ ok: true });
    for (const ap of [
      { apstate: 256, runstate: 2, lowBattery: 0, timeouts: 0 },
      { apstate: 1 },
      { ...hb.ap, fw: 'x'.repeat(65) },
    ]) {
      expect(decode({ ap }), JSON.stringify(ap)).toMatchObject({ ok: false, error: 'invalid' });
    }
  });
});
