import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The WCAG 2.1 A and AA rule tags (axe-core's names). */
export const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

const require = createRequire(import.meta.url);
let source: string | undefined;

/** axe-core's browser bundle, read once. */
function axeSource(): string {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

export interface Violation {
  rule: string;
  impact: string;
  /** The offending elements: selector, what axe says is wrong, and the element's markup. */
  nodes: string[];
}

/**
 * Runs axe-core in the page against the WCAG 2.1 AA rules and answers the violations of impact
 * serious or critical. The bundle is evaluated through the DevTools protocol, so the console's
 * Content-Security-Policy (no inline scripts) stays in force for everything else.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(
    async (tags) => {
      type AxeNode = { target: string[]; failureSummary?: string; html: string };
      type AxeResult = { id: string; impact: string | null; nodes: AxeNode[] };
      const axe = (
        window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeResult[] }> } }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          rule: v.id,
          impact: v.impact ?? '',
          nodes: v.nodes.map(
            (n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')} ${n.html.slice(0, 160)}`,
          ),
        }));
    },
    [...WCAG21_AA],
  );
}

/** Best-practice rules the issue asks for besides WCAG: one main landmark and one first-level heading. */
export async function structureViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const mains = document.querySelectorAll('main, [role="main"]').length;
    if (mains !== 1) problems.push(`${mains} main landmarks`);
    const headings = [...document.querySelectorAll('h1')].filter((h) => (h.textContent ?? '').trim() !== '');
    if (headings.length !== 1) problems.push(`${headings.length} first-level headings with text`);
    return problems;
  });
}
