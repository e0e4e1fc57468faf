import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { doc } from '../test/fixtures';
import { labelTexts } from './draw';
import { ScriptFontLoader } from './load';
import { SCRIPT_FONTS } from './scripts';
import type { HarfBuzzModule } from './shape';

const require = createRequire(import.meta.url);

/** A loader as the editor's, reading the npm font files and counting what it loads. */
function loader() {
  const loaded = { files: [] as string[], harfBuzz: 0 };
  const fonts = new ScriptFontLoader({
    async file(name) {
      const script = SCRIPT_FONTS.find((f) => f.regular === name || f.bold === name);
      if (!script) throw new Error(`no font ${name}`);
      loaded.files.push(name);
      const weight = name === script.regular ? '400Regular' : '700Bold';
      return new Uint8Array(readFileSync(require.resolve(`${script.pkg}/${weight}/${name}`)));
    },
    async harfBuzz() {
      loaded.harfBuzz++;
      return (await import('harfbuzzjs')) as unknown as HarfBuzzModule;
    },
  });
  return { fonts, loaded };
}

describe("the editor's font loader: the shaper before any text that needs it", () => {
  test('a Chinese name with digits loads no HarfBuzz; a Latin word does, once', async () => {
    const { fonts, loaded } = loader();
    const library = await fonts.prepare(['有机红富士苹果 123', '¥12.50']);
    expect(loaded.harfBuzz).toBe(0);
    expect(library.shaper).toBeNull();
    await fonts.prepare(['有机红富士苹果 Organic']);
    expect(loaded.harfBuzz).toBe(1);
    expect(library.shaper).not.toBeNull();
    await fonts.prepare(['To']);
    expect(loaded.harfBuzz).toBe(1);
  }, 60_000);

  test('the Japanese font loads only for a text with kana, once; it is no link of the chain', async () => {
    const { fonts, loaded } = loader();
    const library = await fonts.prepare(['伊藤園 緑茶 525ml', '新疆・阿克苏']);
    expect(loaded.files).toEqual(['NotoSansSC_400Regular.ttf', 'NotoSansSC_700Bold.ttf']);
    expect(library.has('Noto Sans JP')).toBe(false);
    await fonts.prepare(['伊藤園 お〜いお茶']);
    await fonts.prepare(['ｵﾁｬ', 'ペットボトル']);
    expect(loaded.files.slice(2)).toEqual(['NotoSansJP_400Regular.ttf', 'NotoSansJP_700Bold.ttf']);
    expect(library.face('Noto Sans JP', true)).not.toBeNull();
    expect(library.fallbacks(false)).not.toContain(library.face('Noto Sans JP', false));
  }, 60_000);

  test("a label's Latin text makes the editor await the shaper before drawing", async () => {
    const { fonts } = loader();
    const label = doc({
      size: { w: 200, h: 60 },
      colourType: 'bw',
      elements: [{ type: 'text', id: 't', x: 0, y: 0, w: 200, h: 30, text: 'Fuji 5kg', font: { size: 20 } }],
    });
    const library = await fonts.prepare(labelTexts(label, {}));
    expect(library.shaper).not.toBeNull();
  }, 60_000);
});
