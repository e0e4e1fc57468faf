import { it } from 'vitest';
import { api, apiLogin, describeBrowser, expect, login, newPage, useBrowser, waitForShell } from '../support/browser';

/** Every screen of the console, opened under the server's Content-Security-Policy. */
const PATHS = [
  '/dashboard',
  '/basemgr/station',
  '/basemgr/ap',
  '/basemgr/esl',
  '/basemgr/product',
  '/logmgr/sys',
  '/logmgr/op',
  '/tmpl/index',
  '/system/index',
  '/system/conf',
  '/system/setme',
];

describeBrowser('shell: the console runs under its Content-Security-Policy', () => {
  const browser = useBrowser();

  it('opens every screen and the label editor without one policy violation', async () => {
    const token = await apiLogin('admin');
    const templates = await api<{ id: number }[]>('/mgr/templ/list', { page: 1, limit: 1 }, token);
    const editorPath = `/tmpl/tmpledit?id=${templates.data[0]?.id}`;
    const { context, page } = await newPage(browser(), { lang: 'en' });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text()))
        violations.push(`${new URL(page.url()).pathname}: ${message.text()}`);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `Refused to load ${event.blockedURI} (${event.violatedDirective}) at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        );
      });
    });
    try {
      const first = await page.goto('/login');
      expect(first?.headers()['content-security-policy']).toContain("script-src 'self'");
      await login(page, 'admin', { path: '/dashboard' });
      for (const path of [...PATHS, editorPath]) {
        await page.goto(path);
        await waitForShell(page);
      }
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
