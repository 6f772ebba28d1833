/**
 * The sandbox's page (`GET /_sandbox/`): plain HTML with no secret in it and no inline script or style,
 * so that the strict Content-Security-Policy it is served with holds. Its script (`page.js`) asks for
 * the control token and fills the panels from the control routes. Its assets are named from the root
 * (`/_sandbox/page.js`), so that the page also loads at `/_sandbox` and under a tenant's prefix.
 *
 * @internal
 */

/** The HTML of the page. */
export const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox · community API</title>
<link rel="icon" href="/_sandbox/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/_sandbox/page.css">
<script src="/_sandbox/page.js" defer></script>
</head>
<body>
<header>
  <h1>Sandbox</h1>
  <span id="world"></span>
  <span id="status" role="status"></span>
  <button id="forget" type="button" hidden>Forget the token</button>
</header>
<noscript><p class="error">This page needs JavaScript; everything it shows is also at the control routes (curl).</p></noscript>

<form id="login" method="post" hidden>
  <label for="token">Control token</label>
  <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required>
  <button id="connect" type="submit">Connect</button>
  <p id="login-error" class="error" role="alert"></p>
  <p class="hint">The sandbox prints it at start unless it was given one (<code>--control-token</code>,
  <code>COMMUNITY_API_SANDBOX_CONTROL_TOKEN</code>). It is kept in this tab only, until the tab is closed.</p>
</form>

<main id="board" hidden>
  <p id="message" class="error" role="alert"></p>
  <div class="panels">
    <section id="clock-panel">
      <h2>Clock</h2>
      <p><time id="clock-time"></time></p>
      <p id="clock-mode" class="hint"></p>
      <form id="advance-form" hidden>
        <label for="advance-seconds">Advance by</label>
        <input id="advance-seconds" type="number" min="0" step="1" value="60"> s
        <button id="advance" type="submit">Advance</button>
      </form>
    </section>

    <section id="faults-panel">
      <h2>Faults</h2>
      <p>Now: <code id="faults-state"></code></p>
      <textarea id="faults-text" rows="4" spellcheck="false" aria-label="Fault settings (JSON)"></textarea>
      <div class="buttons">
        <button id="faults-apply" type="button">Apply</button>
        <button id="faults-off" type="button">All off</button>
      </div>
      <div class="buttons presets">
        <button type="button" data-preset='{"latency":{"fixed":300}}'>Latency 300 ms</button>
        <button type="button" data-preset='{"keyServiceUnavailable":{"next":3}}'>Error 9 × 3</button>
        <button type="button" data-preset='{"internalError":{"probability":0.1,"seed":1}}'>Error 101 at 10%</button>
        <button type="button" data-preset='{"dropConnection":{"next":1}}'>Drop 1</button>
      </div>
    </section>

    <section id="reset-panel">
      <h2>Reset</h2>
      <p class="hint">Back to the fixture: its data, counters and token cache afresh, faults off, the journal
      emptied. The clock does not go back.</p>
      <button id="reset" type="button">Reset</button>
    </section>
  </div>

  <section id="limits-panel">
    <h2>Limits</h2>
    <table id="limits">
      <thead><tr><th>User</th><th>Requests this second</th><th>Creations this minute</th><th>Creations today</th></tr></thead>
      <tbody></tbody>
    </table>
    <p id="limits-empty" class="hint">Nothing counted yet.</p>
  </section>

  <section id="journal-panel">
    <h2>Journal</h2>
    <div class="buttons">
      <label><input id="live" type="checkbox" checked> Live</label>
      <button id="journal-clear" type="button">Clear</button>
      <span id="journal-info" class="hint"></span>
    </div>
    <table id="journal">
      <thead><tr><th>Time</th><th>Operation</th><th>User</th><th>Outcome</th><th>ms</th><th>Parameters</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
</main>
</body>
</html>
`
