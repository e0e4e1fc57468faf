import { type FormEvent, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import * as api from './api';
import { explainWith, type Pda, PdaContext } from './context';
import { type Lang, storedLang, storeLang, translator } from './i18n';
import { BindScreen, FailedScreen, LookupScreen, PlaceScreen, UnbindScreen } from './screens';

type Tab = 'bind' | 'unbind' | 'place' | 'lookup' | 'failed';

/** The store the QR code named (?store=<id>), taken once after sign-in when the user may work there. */
function storeHint(): number | null {
  const value = Number(new URLSearchParams(window.location.search).get('store'));
  return Number.isInteger(value) && value > 0 ? value : null;
}

function Login({ onDone, t }: { onDone: () => void; t: Pda['t'] }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const explain = useMemo(() => explainWith(t, () => undefined), [t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) return;
    setBusy(true);
    setError('');
    try {
      await api.login(username.trim(), password);
      onDone();
    } catch (e) {
      setError(explain(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="login" onSubmit={submit} data-testid="pda-login">
      <label className="label">
        {t('username')}
        <input
          className="field"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </label>
      <label className="label">
        {t('password')}
        <input
          className="field"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {error && (
        <p className="note note-error" role="alert" data-testid="note">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-wide" disabled={busy} data-testid="pda-login-submit">
        {busy ? t('signingIn') : t('signIn')}
      </button>
    </form>
  );
}

export function App() {
  const [lang, setLang] = useState<Lang>(storedLang);
  const t = useMemo(() => translator(lang), [lang]);
  const [info, setInfo] = useState<api.InfoData | null>(null);
  const [phase, setPhase] = useState<'loading' | 'login' | 'ready'>('loading');
  const [tab, setTab] = useState<Tab>('bind');
  const [lookup, setLookup] = useState<string | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    api.setApiLanguage(lang);
    document.documentElement.lang = lang;
    document.title = t('title');
  }, [lang, t]);

  const expired = useCallback(() => {
    api.clearToken();
    setInfo(null);
    setPhase('login');
  }, []);
  const explain = useMemo(() => explainWith(t, expired), [t, expired]);

  const load = useCallback(async () => {
    setError('');
    if (!api.getToken()) {
      setPhase('login');
      return;
    }
    try {
      let me = await api.info();
      const hint = storeHint();
      if (hint && me.curshop?.id !== hint && me.shop.some((s) => s.id === hint)) {
        await api.setStore(hint);
        me = await api.info();
      }
      setInfo(me);
      setPhase('ready');
    } catch (e) {
      // The sign-in form (which says what went wrong) rather than an empty page.
      setError(explain(e));
      setPhase('login');
    }
  }, [explain]);

  useEffect(() => {
    void load();
  }, [load]);

  const pda = useMemo<Pda>(
    () => ({ lang, t, explain, can: (p) => info?.permissions.includes(p) ?? false }),
    [lang, t, explain, info],
  );

  const switchLang = () => {
    const next: Lang = lang === 'en' ? 'zh-CN' : 'en';
    storeLang(next);
    setLang(next);
  };

  const signOut = async () => {
    await api.logout();
    expired();
  };

  const changeStore = async (id: number) => {
    try {
      await api.setStore(id);
      setInfo(await api.info());
    } catch (e) {
      setError(explain(e));
    }
  };

  const tabs: { key: Tab; label: string; allowed: boolean }[] = [
    { key: 'bind', label: t('tabBind'), allowed: pda.can('tag.bind') },
    { key: 'unbind', label: t('tabUnbind'), allowed: pda.can('tag.bind') },
    { key: 'place', label: t('tabPlace'), allowed: pda.can('tag.bind') },
    { key: 'lookup', label: t('tabLookup'), allowed: pda.can('tag.read') },
    { key: 'failed', label: t('tabFailed'), allowed: pda.can('tag.read') },
  ];
  const allowed = tabs.filter((x) => x.allowed);
  const current = allowed.some((x) => x.key === tab) ? tab : (allowed[0]?.key ?? null);

  let body: ReactNode;
  if (phase === 'loading') body = null;
  else if (phase === 'login' || !info) body = <Login t={t} onDone={() => void load()} />;
  else if (!info.tenant || info.shop.length === 0) body = <p className="note note-info">{t('noStore')}</p>;
  else if (!info.curshop) body = <p className="note note-info">{t('chooseStore')}</p>;
  else if (!current) body = <p className="note note-info">{t('noAccess')}</p>;
  else if (current === 'bind') body = <BindScreen />;
  else if (current === 'unbind') body = <UnbindScreen />;
  else if (current === 'place') body = <PlaceScreen />;
  else if (current === 'lookup') body = <LookupScreen open={lookup} />;
  else
    body = (
      <FailedScreen
        onOpen={(hw) => {
          setLookup(hw);
          setTab('lookup');
        }}
      />
    );

  const ready = phase === 'ready' && info !== null;
  return (
    <PdaContext.Provider value={pda}>
      <div className={`app${ready && current ? ' with-tabs' : ''}`} data-testid="pda" data-lang={lang}>
        <header className="top">
          <h1 className="title">{t('title')}</h1>
          <button type="button" className="btn btn-small" onClick={switchLang} data-testid="pda-lang">
            {t('language')}
          </button>
          {ready && (
            <button type="button" className="btn btn-small btn-plain" onClick={signOut} data-testid="pda-logout">
              {t('signOut')}
            </button>
          )}
        </header>
        {ready && info.shop.length > 0 && (
          <label className="store">
            <span>{t('store')}</span>
            <select
              className="field"
              value={info.curshop?.id ?? ''}
              onChange={(e) => void changeStore(Number(e.target.value))}
              data-testid="pda-store"
            >
              {!info.curshop && <option value="">{t('chooseStore')}</option>}
              {info.shop.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {error && (
          <p className="note note-error" role="alert">
            {error}
          </p>
        )}
        <main key={`${info?.curshop?.id ?? 0}`}>{body}</main>
        {ready && current && (
          <nav className="tabs" aria-label={t('title')}>
            {allowed.map((x) => (
              <button
                type="button"
                key={x.key}
                className={`tab${x.key === current ? ' active' : ''}`}
                aria-current={x.key === current ? 'page' : undefined}
                onClick={() => {
                  setLookup(null);
                  setTab(x.key);
                }}
                data-testid={`tab-${x.key}`}
              >
                {x.label}
              </button>
            ))}
          </nav>
        )}
      </div>
    </PdaContext.Provider>
  );
}
