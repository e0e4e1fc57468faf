import { ALL_CALLS, API_BASE, ERROR_MESSAGES, PRODUCT_TITLE } from '@esl/contract';
import { answerSchema, bodySchema } from './document';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const json = (v: unknown) => `<pre>${escapeHtml(JSON.stringify(v, null, 2))}</pre>`;

let cached: string | undefined;

/** A plain, self-contained reference page: every path, its summary, access, body and answer. */
export function referencePage(): string {
  if (cached) return cached;
  const toc = ALL_CALLS.map((d) => `<li><a href="#${escapeHtml(d.path)}">${escapeHtml(d.path)}</a></li>`).join('');
  const sections = ALL_CALLS.map(
    (d) => `<section id="${escapeHtml(d.path)}">
<h2><code>POST ${escapeHtml(API_BASE + d.path)}</code>${d.ready ? '' : ' <small>(not available yet: code 1007)</small>'}</h2>
<p>${escapeHtml(d.summary)}</p>
<p>Access: <code>${escapeHtml(d.access)}</code>${d.list ? ' · list call (data is an array, plus count)' : ''}${d.file ? ` · answers a file (${escapeHtml(d.file.type)}) on success` : ''}${d.changes ? ' · writes an operation-log row' : ''}</p>
<details open><summary>Body</summary>${json(bodySchema(d))}</details>
<details><summary>Answer</summary>${json(answerSchema(d))}</details>
</section>`,
  ).join('\n');
  const codes = Object.entries(ERROR_MESSAGES)
    .map(([code, m]) => `<tr><td>${code}</td><td>${escapeHtml(m.en)}</td><td>${escapeHtml(m['zh-CN'])}</td></tr>`)
    .join('');
  cached = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(PRODUCT_TITLE)} — API reference</title>
<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}
pre{background:#f5f5f5;padding:.5rem;overflow:auto;font-size:12px}section{border-top:1px solid #ddd;margin-top:1rem}
td{padding:0 .5rem}</style></head><body>
<h1>${escapeHtml(PRODUCT_TITLE)} — API reference</h1>
<p>Every call is <code>POST</code> with a JSON body; the answer is HTTP 200 with <code>{ code, msg, data }</code>
(list calls add <code>count</code>). Send the session token in the <code>token</code> header or as
<code>Authorization: Bearer</code>. Machine-readable: <a href="${API_BASE}/openapi.json">${API_BASE}/openapi.json</a>.</p>
<h2>Codes</h2><table>${codes}</table>
<h2>Calls</h2><ul>${toc}</ul>
${sections}
</body></html>
`;
  return cached;
}
