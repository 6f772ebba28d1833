/**
 * The style of the sandbox's page (`GET /_sandbox/page.css`), a file of its own: the page's policy
 * allows no inline style.
 *
 * @internal
 */

/** The CSS of the page. */
export const style = `:root {
  color-scheme: light dark;
  --line: #8884;
  --muted: #777;
  --ok: #1a7f37;
  --error: #c62828;
  --warn: #b26a00;
  font: 14px/1.4 system-ui, sans-serif;
}
body { margin: 0 auto; max-width: 1200px; padding: 0 16px 32px; }
header { display: flex; align-items: baseline; gap: 12px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 20px; margin: 12px 0; }
#world { font-weight: 600; }
#status { color: var(--muted); margin-left: auto; }
h2 { font-size: 15px; margin: 0 0 8px; }
section { border: 1px solid var(--line); border-radius: 6px; padding: 12px; margin-top: 16px; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 16px; }
.panels section { margin-top: 0; }
#board > .panels { margin-top: 16px; }
#login { max-width: 420px; margin: 48px auto; display: grid; gap: 8px; }
#clock-time { font: 600 18px ui-monospace, monospace; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
.presets button { font-size: 12px; }
textarea { width: 100%; box-sizing: border-box; font: 12px ui-monospace, monospace; }
code, .params { font: 12px ui-monospace, monospace; }
table { width: 100%; border-collapse: collapse; margin-top: 8px; }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
td.params { word-break: break-all; color: var(--muted); }
.hint { color: var(--muted); }
.error { color: var(--error); }
.error:empty { display: none; }
.outcome-ok { color: var(--ok); }
.outcome-error { color: var(--error); font-weight: 600; }
.outcome-dropped { color: var(--warn); font-weight: 600; }
.full { color: var(--error); font-weight: 600; }
.full .hint { font-weight: normal; }
#advance-seconds { width: 6em; }
[hidden] { display: none !important; }
`
