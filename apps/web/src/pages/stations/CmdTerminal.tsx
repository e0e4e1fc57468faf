import { CmdLine, type Station } from '@esl/contract';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { maxLengthOf } from '../../components/form/spec';
import { type Notice, subscribeNotices } from '../../platform/notice';
import { ApiError, request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';

interface Line {
  kind: 'in' | 'out' | 'err' | 'info';
  text: string;
}

interface Session {
  id: number;
  sn: string;
  session: string;
  commands: string[];
}

/** Lines kept on screen; older ones scroll away. */
const MAX_LINES = 500;
/** The longest command line the contract takes. */
const LINE_CHARS = maxLengthOf(CmdLine);

/**
 * The command window: a terminal on one base station. Lines go out through /mgr/ap/cmd (the
 * server refuses anything outside the allow-list, and logs every line); the station's output
 * comes back as `station.cmd` notices addressed to this console session only.
 */
export function CmdTerminal({ station, onClose }: { station: Station | null; onClose: () => void }) {
  const { t } = useTranslation('stations');
  const [session, setSession] = useState<Session | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [lines, setLines] = useState<Line[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const history = useRef<string[]>([]);
  const historyAt = useRef(0);
  const screen = useRef<HTMLDivElement>(null);
  const append = useCallback((line: Line) => setLines((ls) => [...ls, line].slice(-MAX_LINES)), []);

  // Open a session when a station is given; close it when the window goes.
  useEffect(() => {
    if (!station) return;
    let opened: Session | null = null;
    let gone = false;
    setLines([]);
    setFailed(null);
    setSession(null);
    request('openCmdWindow', { id: station.id }, { quiet: true }).then(
      (answer) => {
        opened = { id: answer.id, sn: answer.sn, session: answer.session, commands: answer.commands };
        if (gone) return void closeSession(opened);
        setSession(opened);
        setLines([{ kind: 'info', text: t('cmd.welcome', { sn: answer.sn, commands: answer.commands.join(', ') }) }]);
      },
      (err: unknown) => {
        if (!gone) setFailed(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      gone = true;
      if (opened) closeSession(opened);
    };
  }, [station, t]);

  useEffect(() => {
    if (!session) return;
    return subscribeNotices((notice: Notice) => {
      if (notice.type !== 'station.cmd' || notice.session !== session.session) return;
      const out = typeof notice.out === 'string' ? notice.out.replace(/\n$/, '') : '';
      const exit = typeof notice.exit === 'number' ? notice.exit : 0;
      append({ kind: exit === 0 ? 'out' : 'err', text: out });
    });
  }, [session, append]);

  useEffect(() => {
    const el = screen.current;
    if (el && lines.length > 0) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const send = async () => {
    const line = input.trim();
    if (!session || !line || busy) return;
    append({ kind: 'in', text: `${session.sn}> ${line}` });
    history.current = [...history.current.filter((h) => h !== line), line].slice(-50);
    historyAt.current = history.current.length;
    setInput('');
    setBusy(true);
    try {
      await request('stationCmd', { id: session.id, session: session.session, line }, { quiet: true });
    } catch (err) {
      append({ kind: 'err', text: err instanceof ApiError || err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const h = history.current;
    if (e.key === 'ArrowUp' && historyAt.current > 0) {
      historyAt.current -= 1;
      setInput(h[historyAt.current] ?? '');
      e.preventDefault();
    } else if (e.key === 'ArrowDown' && historyAt.current < h.length) {
      historyAt.current += 1;
      setInput(h[historyAt.current] ?? '');
      e.preventDefault();
    }
  };

  const colour: Record<Line['kind'], string> = { in: '#9cdcfe', out: '#d4d4d4', err: '#f48771', info: '#6a9955' };
  return (
    <Modal
      open={station !== null}
      title={t('cmd.title', { sn: station?.sn ?? '' })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('cmd.close')}</Button>}
      width={760}
      destroyOnHidden
    >
      {failed ? (
        <Alert type="error" showIcon title={failed} data-testid="cmd-failed" />
      ) : (
        <Space orientation="vertical" style={{ display: 'flex' }}>
          <div
            ref={screen}
            data-testid="cmd-screen"
            role="log"
            aria-live="polite"
            style={{
              background: '#1e1e1e',
              color: '#d4d4d4',
              fontFamily: MONO_FAMILY,
              fontSize: 13,
              lineHeight: 1.5,
              height: 320,
              overflowY: 'auto',
              padding: '8px 12px',
              borderRadius: 6,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            {lines.map((l, i) => (
              // Lines only append; the index is a stable key.
              // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
              <div key={i} style={{ color: colour[l.kind] }}>
                {l.text}
              </div>
            ))}
            {!session && <Typography.Text style={{ color: '#6a9955' }}>{t('cmd.opening')}</Typography.Text>}
          </div>
          <Input
            data-testid="cmd-input"
            value={input}
            disabled={!session}
            prefix={<span style={{ fontFamily: MONO_FAMILY }}>{session ? `${session.sn}>` : '>'}</span>}
            placeholder={t('cmd.placeholder')}
            onChange={(e) => setInput(e.target.value)}
            onPressEnter={() => void send()}
            onKeyDown={onKeyDown}
            maxLength={LINE_CHARS}
            autoFocus
            style={{ fontFamily: MONO_FAMILY }}
          />
        </Space>
      )}
    </Modal>
  );
}

function closeSession(s: Session): void {
  request('stationCmd', { id: s.id, session: s.session, close: true }, { quiet: true }).catch(() => {});
}
