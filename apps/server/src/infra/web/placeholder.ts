/** Served at / when the console has not been built, so the server never depends on the web build. */
export function placeholderPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>electronic price tag system</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>electronic price tag system</h1>
<p>The server is running, but the console has not been built yet.</p>
<p>Run <code>npm run build</code> (or <code>npm run demo</code>, which builds first) and reload this page.</p>
<p>The API is at <a href="/api/docs">/api/docs</a>.</p>
</body></html>
`;
}
