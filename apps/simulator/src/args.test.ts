import { describe, expect, it } from 'vitest';
import { parseCli, parseDuration, parseFlap, parseModels, parseShare, parseStation } from './args';

const noFiles = (path: string): string => {
  throw new Error(`unexpected read of ${path}`);
};

describe('command line', () => {
  it('reads durations, flapping schedules, models and stations', () => {
    expect(parseDuration('40s')).toBe(40_000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('30')).toBe(30_000);
    expect(() => parseDuration('soon')).toThrow(/duration/);
    expect(parseFlap('every 20s±10s down 5s')).toEqual({ everyS: 20, jitterS: 10, downS: 5 });
    expect(parseFlap('every 1m+-30s down 500ms')).toEqual({ everyS: 60, jitterS: 30, downS: 0.5 });
    expect(parseFlap('every 20s down 5s')).toEqual({ everyS: 20, jitterS: 0, downS: 5 });
    expect(() => parseFlap('sometimes')).toThrow(/flap/);
    expect(parseModels('05:60,0a:30,1C')).toEqual([
      ['05', 60],
      ['0A', 30],
      ['1C', 1],
    ]);
    expect(() => parseModels('5:1')).toThrow();
    expect(parseStation('7.ap-01:s3cr:et')).toEqual({ tenantId: 7, sn: 'AP-01', secret: 's3cr:et' });
    expect(() => parseStation('AP-01:x')).toThrow(/TENANT.SERIAL:SECRET/);
  });

  it('turns flags into simulator options', () => {
    const o = parseCli(
      [
        '--station',
        '1.AP1:a',
        '--station',
        '2.AP1:b',
        '--tags',
        '20',
        '--speed',
        '10',
        '--seed',
        '42',
        '--flap',
        'every 20s±10s down 5s',
        '--duration',
        '10m',
        '--profile',
        'subghz-50k',
      ],
      noFiles,
    );
    if (o === 'help') throw new Error('help');
    expect(o.sim.stations.map((s) => `${s.tenantId}.${s.sn}`)).toEqual(['1.AP1', '2.AP1']);
    expect(o.sim).toMatchObject({
      tagsPerStation: 20,
      speed: 10,
      seed: '42',
      profile: 'subghz-50k',
      wakeS: 40,
      loss: 0,
    });
    expect(o.sim.flap).toEqual({ everyS: 20, jitterS: 10, downS: 5 });
    expect(o.durationMs).toBe(600_000);
    expect([o.httpPort, o.httpHost]).toEqual([null, '127.0.0.1']);
  });

  it('serves the store wall with --http', () => {
    const o = parseCli(['--station', '1.A:x', '--http', '8090', '--http-host', '0.0.0.0'], noFiles);
    if (o === 'help') throw new Error('help');
    expect([o.httpPort, o.httpHost]).toEqual([8090, '0.0.0.0']);
    expect(() => parseCli(['--station', '1.A:x', '--http', 'www'], noFiles)).toThrow(/--http/);
    expect(() => parseCli(['--station', '1.A:x', '--http', '70000'], noFiles)).toThrow(/--http/);
  });

  it('connects over TLS with mqtts:// and trusts the certificate --ca names', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const files = (p: string) => (p === 'broker.pem' ? pem : noFiles(p));
    const o = parseCli(['--url', 'mqtts://esl.example:8884', '--ca', 'broker.pem', '--station', '1.A:x'], files);
    if (o === 'help') throw new Error('help');
    expect(o.sim).toMatchObject({ url: 'mqtts://esl.example:8884', ca: pem });
    // Without --ca the system's certificate authorities are trusted.
    const plain = parseCli(['--url', 'mqtts://esl.example:8884', '--station', '1.A:x'], noFiles);
    expect(plain !== 'help' && 'ca' in plain.sim).toBe(false);
    expect(() => parseCli(['--ca', 'broker.pem', '--station', '1.A:x'], files)).toThrow(/mqtts:\/\//);
    expect(() =>
      parseCli(['--url', 'mqtts://h:8884', '--ca', 'key.pem', '--station', '1.A:x'], () => 'PRIVATE KEY'),
    ).toThrow(/not a PEM certificate/);
  });

  it('reads a stations file with its tags', () => {
    const file = JSON.stringify({
      stations: [{ tenantId: 3, sn: 'ap9', secret: 'x', tags: [{ id: '0000021A3F5C', hw: '05' }] }],
    });
    const o = parseCli(['--stations-file', 'st.json'], (p) => (p === 'st.json' ? file : noFiles(p)));
    if (o === 'help') throw new Error('help');
    expect(o.sim.stations).toEqual([
      { tenantId: 3, sn: 'AP9', secret: 'x', tags: [{ id: '0000021A3F5C', hw: '05' }], channel: undefined },
    ]);
  });

  it('provisions through the API with the password from the environment', () => {
    const argv = ['--api', 'http://127.0.0.1:8080', '--store', '一号店', '--add-stations', '3', '--tags', '50'];
    const o = parseCli(argv, noFiles, { ESL_PASSWORD: 'pw' });
    if (o === 'help') throw new Error('help');
    expect(o.sim.stations).toEqual([]);
    expect(o.provision).toMatchObject({
      api: 'http://127.0.0.1:8080',
      username: 'admin',
      password: 'pw',
      store: '一号店',
      stations: 3,
      tagsPerStation: 50,
      snPrefix: 'SIM',
      attach: false,
    });
    const attach = parseCli(['--api', 'https://esl.example', '--attach', '--user', 'ops'], noFiles, {
      ESL_PASSWORD: 'x',
    });
    expect(attach !== 'help' && attach.provision?.attach && attach.provision.username).toBe('ops');
    expect(() => parseCli(['--api', 'http://h'], noFiles)).toThrow(/ESL_PASSWORD/);
    expect(() => parseCli(['--api', 'ftp://h'], noFiles, { ESL_PASSWORD: 'x' })).toThrow(/http/);
    expect(() => parseCli(['--api', 'http://h', '--station', '1.A:x'], noFiles, { ESL_PASSWORD: 'x' })).toThrow(
      /drop --station/,
    );
    expect(() => parseCli(['--api', 'http://h', '--sn-prefix', 'a/b'], noFiles, { ESL_PASSWORD: 'x' })).toThrow(
      /sn-prefix/,
    );
  });

  it('takes firmware jobs with --firmware, and their faults with the --fw-… flags', () => {
    const sim = (...argv: string[]) => {
      const o = parseCli(['--station', '1.A:x', ...argv], noFiles);
      if (o === 'help') throw new Error('help');
      return o.sim;
    };
    expect(sim().firmware).toBe(false);
    expect(sim('--firmware').firmware).toEqual({});
    expect(
      sim(
        '--fw-corrupt-chunk',
        '16384',
        '--fw-disconnect-at',
        '50%',
        '--fw-roll-back',
        '--fw-roll-back-tags',
        '0000021a3f5c, 0000021A3F5D',
      ).firmware,
    ).toEqual({
      corruptChunkAt: 16_384,
      disconnectAt: 0.5,
      rollBack: true,
      rollBackTags: ['0000021A3F5C', '0000021A3F5D'],
    });
    // A fault alone implies --firmware.
    expect(sim('--fw-disconnect-at', '0.25').firmware).toEqual({ disconnectAt: 0.25 });
    expect(parseShare('0.5')).toBe(0.5);
    expect(parseShare('75%')).toBe(0.75);
    for (const share of ['0', '1', '100%', 'half', '1.5']) {
      expect(() => sim('--fw-disconnect-at', share), share).toThrow(/0\.5 or 50%/);
    }
    expect(() => sim('--fw-corrupt-chunk', '100')).toThrow(/multiple of 16384/);
    expect(() => sim('--fw-corrupt-chunk=-16384')).toThrow(/multiple of 16384/);
    expect(() => sim('--fw-roll-back-tags', 'shelf-7')).toThrow(/hardware ids/);
    expect(() => sim('--fw-roll-back-tags', ',')).toThrow(/hardware ids/);
  });

  it('refuses what it cannot run', () => {
    expect(() => parseCli([], noFiles)).toThrow(/no stations/);
    expect(() => parseCli(['--station', '1.A:x', '--profile', 'wifi'], noFiles)).toThrow(/profile/);
    expect(() => parseCli(['--station', '1.A:x', '--loss', '2'], noFiles)).toThrow(/--loss/);
    expect(() => parseCli(['--station', '1.A:x', '--colour', 'red'], noFiles)).toThrow();
    expect(parseCli(['--help'], noFiles)).toBe('help');
  });
});

describe('--oepl-ap', () => {
  it('serves an emulated OpenEPaperLink AP with its tags, without any station', () => {
    const got = parseCli(['--oepl-ap', '0', '--oepl-tags', '300', '--oepl-types', '31,33'], () => '');
    if (got === 'help') throw new Error('help');
    expect(got.oepl).toEqual({ host: '127.0.0.1', port: 0, tags: 300, hwTypes: [0x31, 0x33], maxsleep: 10 });
    expect(() => parseCli(['--oepl-ap', '0', '--oepl-types', '99'], () => '')).toThrow(/hwTypes/);
  });
});
