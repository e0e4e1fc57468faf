import { ErrorCode, type ImportError } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildShop, multipartFile, snapshot } from '../../../test/business';
import { testDatabases } from '../../../test/databases';
import { useApp } from '../../../test/harness';
import { manyEntriesXlsx, manyRowsXlsx, ratioBombXlsx, sharedStringsBombXlsx, wideCsv, wideXlsx } from './bombs';
import { parseCsv } from './csv';
import { READ_LIMITS } from './limits';
import { importGate } from './service';
import { Slicer } from './slices';
import { readXlsx } from './xlsx';

type Answer = { code: number; msg: string; data: unknown };

/** Memory the process holds for JavaScript (heap and buffers), sampled while `work` runs: the largest growth seen. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = used();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, used());
  }, 1);
  try {
    const result = await work();
    peak = Math.max(peak, used());
    return { result, growth: peak - base };
  } finally {
    clearInterval(timer);
  }
}

const MB = 1024 * 1024;

describe('import limits while reading', () => {
  it('refuses each bomb with the limit it crosses, reading no further than the limit', async () => {
    const code = async (file: Buffer) => {
      try {
        await readXlsx(file);
        return 'read';
      } catch (err) {
        return (err as { kind?: string }).kind ?? String(err);
      }
    };
    expect(await code(ratioBombXlsx())).toBe('ratio');
    expect(await code(manyRowsXlsx())).toBe('rows');
    expect(await code(sharedStringsBombXlsx())).toBe('partBytes');
    expect(await code(wideXlsx())).toBe('columns');
    expect(await code(manyEntriesXlsx())).toBe('entries');
    // Just inside the limits, the same shapes read.
    expect(await readXlsx(manyRowsXlsx(190_000))).toHaveLength(190_001);
    expect((await readXlsx(wideXlsx(READ_LIMITS.columns)))[0]?.cells).toHaveLength(READ_LIMITS.columns);
    expect(() => parseCsv(`a,${'x'.repeat(READ_LIMITS.cellChars + 1)}\n`)).toThrow(/cellChars/);
    expect(parseCsv(`a,${'x'.repeat(READ_LIMITS.cellChars)}\n`)[0]?.cells[1]).toHaveLength(READ_LIMITS.cellChars);
  });

  it('gives the event loop away while a large sheet is read', async () => {
    const slicer = new Slicer();
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const rows = await readXlsx(manyRowsXlsx(190_000), { slicer });
    counting = false;
    expect(rows).toHaveLength(190_001);
    // Read in one go, the loop would turn once or twice; sliced, it turns between every slice.
    expect(slicer.turns).toBeGreaterThan(5);
    expect(turns).toBeGreaterThanOrEqual(slicer.turns);
  });
});

const [sqlite] = await testDatabases();

describe('import limits through the call', () => {
  const t = useApp(sqlite);

  async function upload(token: string, bytes: Buffer, filename: string, lang: 'en' | 'zh-CN' = 'en') {
    const { payload, headers } = multipartFile(filename, bytes);
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/import',
      headers: { ...headers, token, 'accept-language': lang },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as Answer;
  }

  it('answers each bomb with its code and message in both languages, writes nothing, and stays within memory', async () => {
    const { tokens, store } = await buildShop(t().app);
    const token = tokens.stock;

    const ratio = await upload(token, ratioBombXlsx(), 'ratio.xlsx');
    expect(ratio).toMatchObject({
      code: ErrorCode.BAD_FILE,
      msg: 'Invalid file: xl/worksheets/sheet1.xml is packed tighter than 100:1 (a zip bomb?)',
    });
    const ratioZh = await upload(token, ratioBombXlsx(), 'ratio.xlsx', 'zh-CN');
    expect(ratioZh.msg).toBe('文件无效：xl/worksheets/sheet1.xml 的压缩比超过 100:1（疑似压缩炸弹）');

    // Two million rows in a few megabytes: stopped at row 200,001, and the memory stays far
    // below what the whole sheet would take (about 550 MB parsed at once).
    const { result: many, growth } = await peakGrowth(() => upload(token, manyRowsXlsx(), 'rows.xlsx'));
    expect(many).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [{ line: 1, field: '', reason: 'more rows than the limit of 200000' }],
    });
    expect(growth).toBeLessThan(300 * MB);

    const sst = await upload(token, sharedStringsBombXlsx(), 'sst.xlsx');
    expect(sst).toMatchObject({
      code: ErrorCode.BAD_FILE,
      msg: 'Invalid file: xl/sharedStrings.xml unpacks to more than 64 MB',
    });

    const { result: header, growth: csvGrowth } = await peakGrowth(() => upload(token, wideCsv(), 'wide.csv'));
    expect(header).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [{ line: 1, field: '', reason: 'more columns than the limit of 256' }],
    });
    // The 20 MB file itself is held twice (upload and text); twenty million cells would be ~200 MB more.
    expect(csvGrowth).toBeLessThan(150 * MB);

    const wide = await upload(token, wideXlsx(), 'wide.xlsx', 'zh-CN');
    expect(wide).toMatchObject({ code: ErrorCode.IMPORT_FAILED, data: [{ line: 1, reason: '列数超过上限 256' }] });
    const entries = await upload(token, manyEntriesXlsx(), 'entries.xlsx');
    expect(entries.msg).toBe('Invalid file: the archive holds more than 10000 files');
    const cell = await upload(token, Buffer.from(`barcode,name,price\n1,${'x'.repeat(40_000)},1\n`), 'cell.csv');
    expect(cell.data as ImportError[]).toEqual([
      { line: 2, field: '', reason: 'a cell holds more than 32767 characters' },
    ]);

    expect(await snapshot(t().app, 'products', store.id)).toEqual([]);
    const logged = await t()
      .app.services.db.selectFrom('op_logs')
      .select('code')
      .where('call', '=', '/mgr/product/import')
      .where('store_id', '=', store.id)
      .execute();
    expect(logged.map((r) => r.code)).toEqual([1009, 1009, 1013, 1009, 1013, 1013, 1009, 1013]);
  });

  it('answers other requests while a large file is read, and runs two imports of a tenant at a time', async () => {
    const { tokens } = await buildShop(t().app);
    const bomb = manyRowsXlsx();
    const finished: string[] = [];
    const imports = [0, 1, 2].map((i) =>
      upload(tokens.stock, bomb, `rows${i}.xlsx`).then((answer) => {
        finished.push(`import ${answer.code}`);
        return answer;
      }),
    );
    // Requests made while the imports read: each is answered before the imports end.
    let answered = 0;
    const others = (async () => {
      while (finished.filter((f) => f !== `import ${ErrorCode.BUSY}`).length === 0) {
        const info = await t().call('/user/info', {}, { token: tokens.admin });
        expect(info.code).toBe(0);
        answered++;
        if (answered === 3) finished.push('other requests');
      }
    })();
    const answers = await Promise.all(imports);
    await others;
    expect(answers.map((a) => a.code).sort()).toEqual([
      ErrorCode.IMPORT_FAILED,
      ErrorCode.IMPORT_FAILED,
      ErrorCode.BUSY,
    ]);
    expect(answers.find((a) => a.code === ErrorCode.BUSY)?.msg).toBe(
      'Busy: other imports of this tenant are running, please try again shortly',
    );
    expect(finished.indexOf('other requests')).toBeGreaterThanOrEqual(0);
    expect(finished.indexOf('other requests')).toBeLessThan(finished.indexOf(`import ${ErrorCode.IMPORT_FAILED}`));
    expect(importGate.size).toBe(0);
  });
});
