import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { CHROMIUM_PATH, DEMO_PASSWORD } from './context';

export type Lang = 'zh-CN' | 'en';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

/** The running server (built console + API) from the global setup. */
export function baseUrl(): string {
  return inject('baseUrl');
}

/** Why browser tests are skipped here, or '' when they run. */
export function skipReason(): string {
  return inject('skipReason');
}

/**
 * `describe` for browser tests: skipped, with the reason in its name, when Chromium is absent.
 */
export function describeBrowser(name: string, fn: () => void): void {
  const reason = skipReason();
  if (reason) describe.skip(`${name} (${reason})`, fn);
  else describe(name, fn);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * One Chromium for the file, launched before its tests and closed after:
 * `const browser = useBrowser();` then `browser()` inside tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not running (is the test inside describeBrowser?)');
    return browser;
  };
}

export interface PageOptions {
  /** Interface language set before the first load (default zh-CN, the product's default). */
  lang?: Lang;
  viewport?: { width: number; height: number };
  /**
   * Whether the page animates (default false: the browser says the user prefers reduced motion,
   * and the console then opens dialogs, popovers and lists at once). On a busy 2-core machine a
   * click on an overlay still zooming in was lost now and then (docs/WEB.md, "Browser tests");
   * shell/motion.e2e.ts checks both settings.
   */
  motion?: boolean;
}

/** A fresh context (own cookies and storage) and page against the test server. */
export async function newPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: options.viewport ?? { width: 1366, height: 800 },
    locale: options.lang === 'en' ? 'en-US' : 'zh-CN',
    reducedMotion: options.motion ? 'no-preference' : 'reduce',
  });
  const lang = options.lang ?? 'zh-CN';
  // Only sets the language when none is chosen, so a switch made in the page survives reloads.
  await context.addInitScript((lng: string) => {
    if (!window.localStorage.getItem('change-language')) window.localStorage.setItem('change-language', lng);
  }, lang);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** The password digest the console sends (SHA-256 hex). */
export function digest(plain: string): string {
  return createHash('sha256').update(plain).digest('hex');
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  count?: number;
}

/** Calls the API directly (outside the browser), with a token when given. */
export async function api<T = unknown>(path: string, body: unknown = {}, token?: string): Promise<Envelope<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.token = token;
  const res = await fetch(`${baseUrl()}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return (await res.json()) as Envelope<T>;
}

/** Signs in through the API and answers the token. */
export async function apiLogin(username: string, password = DEMO_PASSWORD): Promise<string> {
  const answer = await api<{ token: string }>('/user/login', { username, password: digest(password) });
  if (answer.code !== 0) throw new Error(`login ${username} failed: ${answer.code} ${answer.msg}`);
  return answer.data.token;
}

/** The session token the page holds (cookie ESL-Token). */
export async function pageToken(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'ESL-Token')?.value;
}

/**
 * Signs in through the login page, as a user would, and waits until the console has left
 * /login. `path` is where to start (a guarded path leads to /login?redirect=…).
 */
export async function login(page: Page, username: string, options: { password?: string; path?: string } = {}) {
  await page.goto(options.path ?? '/login');
  await page.locator('input[name="username"]').waitFor();
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', options.password ?? DEMO_PASSWORD);
  await page.click('[data-testid="login-submit"]');
  try {
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.locator('[data-testid="layout"]').waitFor();
  } catch (error) {
    const file = await screenshot(page, `login-failed-${username.trim()}-${Date.now()}`).catch(() => '');
    throw new Error(`login as ${username} did not reach the layout (at ${page.url()}; ${file}): ${String(error)}`);
  }
}

/** Waits until the app's page content has rendered (the route's chunk loaded). */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('[data-testid="layout"]').waitFor();
  await page.waitForLoadState('networkidle');
}

/** The paths of the open tabs, in order. */
export const tabs = (page: Page) =>
  page.locator('[data-testid="tag"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

/** Opens a page from the sidebar (opening its group when needed) and waits for its tab. */
export async function openMenu(page: Page, group: string, item: string, path: string): Promise<void> {
  const link = page.locator(`[data-testid="menu-${item}"]`);
  if (!(await link.isVisible())) await page.click(`[data-testid="menu-${group}"]`);
  await link.click();
  await page.waitForURL((url) => url.pathname === path);
  await page.locator(`[data-testid="tag"][data-path="${path}"]`).waitFor();
}

/** The path (with query) the page shows. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/**
 * Saves a screenshot to e2e/artifacts/<name>.png once fonts (the shipped Noto Sans SC for
 * Chinese) have loaded, and checks Chinese text really drew with a CJK font.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** True when the page has loaded a font face able to draw Chinese (the shipped Noto Sans SC). */
export async function chineseFontLoaded(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    await document.fonts.ready;
    return (
      document.fonts.check('16px "Noto Sans SC"', '电子价签') &&
      [...document.fonts].some((f) => f.family.includes('Noto Sans SC') && f.status === 'loaded')
    );
  });
}

/**
 * Elements drawing Chinese text of their own in a font list without the shipped Noto Sans SC: on a
 * machine without a Chinese system font that text shows as boxes (a bare <button> takes the
 * browser's Arial, for one). Each as "tag.class: text (font-family)".
 */
export async function chineseWithoutFont(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('');
      if (!/[\u4e00-\u9fff]/.test(own)) continue;
      const family = getComputedStyle(el).fontFamily;
      if (!family.includes('Noto Sans SC'))
        found.push(`${el.tagName.toLowerCase()}.${el.className}: ${own.trim().slice(0, 20)} (${family})`);
    }
    return found;
  });
}

/** Waits until finite animations are over (a dropdown closing, a modal opening, a table's loading veil fading). */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

/** The root of the antd Select that holds `inner` (its input, found by id for example). */
export const selectOf = (page: Page, inner: string) => page.locator('.ant-select', { has: page.locator(inner) });

/**
 * Picks an option of an antd Select (single or multiple) and waits until the select has taken it.
 * Under load a click can land on a list that is still opening — its virtual rows are measured
 * again between mouse down and mouse up — and be lost: the list stays open and nothing is chosen
 * (seen in CI on the import wizard). Then the list is closed and the choice made again. A single
 * select must then show the option (a controlled one once its owner has taken the value).
 * `search` is typed first for a select that filters as one types.
 */
export async function chooseOption(
  page: Page,
  select: Locator,
  option: string | RegExp,
  options: { search?: string } = {},
): Promise<void> {
  const list = page.locator('.ant-select-dropdown:visible');
  const hasClass = (name: string) => select.evaluate((el, n) => el.classList.contains(n), name);
  const multiple = await hasClass('ant-select-multiple');
  for (let attempt = 1; ; attempt++) {
    if (!(await hasClass('ant-select-open'))) await select.click();
    if (options.search !== undefined) await select.locator('input').fill(options.search);
    const wanted = list.locator('.ant-select-item-option', { hasText: option }).first();
    await wanted.waitFor();
    await settled(page);
    await wanted.click();
    try {
      // A single select closes once it has taken the choice; a multiple one marks the option
      // (its class: the rows of a virtual list carry no aria-selected).
      await expect
        .poll(
          async () =>
            multiple
              ? await wanted.evaluate((el) => el.classList.contains('ant-select-item-option-selected'))
              : !(await hasClass('ant-select-open')),
          { timeout: 5000 },
        )
        .toBe(true);
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
      await settled(page);
    }
  }
  if (multiple) return;
  const shown = () => select.locator('.ant-select-content').textContent();
  if (typeof option === 'string') await eventually(shown).toContain(option);
  else await eventually(shown).toMatch(option);
}

/**
 * Switches the current store through the navbar's store switcher and answers the chosen store's
 * name. `choose` picks one of the picker's options. Waits for the list to open and to close again
 * before confirming: a click on a list still opening or closing lands on the wrong element (seen
 * in CI: the closing list covered the OK button).
 */
export async function switchStore(page: Page, choose: (options: Locator) => Locator): Promise<string> {
  await page.click('[data-testid="store-name"]');
  await settled(page);
  await page.click('[data-testid="store-select"]');
  await settled(page);
  const option = choose(page.locator('.ant-select-item-option'));
  const name = ((await option.textContent()) ?? '').trim();
  await option.click();
  // The choice shows in the picker once taken; then the list's closing animation runs out.
  await page.locator('[data-testid="store-select"]', { hasText: name }).waitFor();
  await settled(page);
  await page.locator('.ant-modal-footer .ant-btn-primary:visible').click();
  return name;
}

/** expect.poll with room for a slow machine (its default gives up after one second). */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** expect.poll's wait for hooks, where it may not be called: polls `holds` every 250 ms. */
export async function until(what: string, holds: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await holds()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** A message toast with this text. */
export const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);

/**
 * Opens a list page as admin in `lang`, waits for its card title and first row and for the
 * animations to end, checks that Chinese is drawn in the shipped font, and keeps a screenshot.
 */
export async function screenshotListPage(
  browser: Browser,
  lang: Lang,
  page: { path: string; heading: string; rows: (page: Page) => Locator; artifact: string },
): Promise<void> {
  const { context, page: tab } = await newPage(browser, { lang });
  try {
    await login(tab, 'admin', { path: page.path });
    await waitForShell(tab);
    await tab.locator('.ant-table').waitFor();
    await tab.locator('.ant-card-head-title', { hasText: page.heading }).waitFor();
    await page.rows(tab).first().waitFor();
    await settled(tab);
    if (lang === 'zh-CN') expect(await chineseFontLoaded(tab)).toBe(true);
    await screenshot(tab, page.artifact);
  } finally {
    await context.close();
  }
}

export { expect };
