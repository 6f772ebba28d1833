/**
 * The script of the sandbox's page (`GET /_sandbox/page.js`): it asks for the control token once,
 * keeps it in the tab's `sessionStorage` (never in a URL, a cookie or the page), and reads the same
 * control routes as curl, every second while "Live" is on: the journal, the limits, the clock and the
 * faults. Its buttons call them too: advance the clock, set or clear faults, empty the journal, reset.
 * Every value from the sandbox is shown as text (`textContent`), never as HTML: the journal holds what
 * any caller sent.
 *
 * It is plain JavaScript for the browser, kept as text (`String.raw`, so its backslashes stay as
 * written): it has no template literals of its own.
 *
 * @internal
 */

/** The JavaScript of the page. */
export const script = String.raw`"use strict";
(() => {
  const tokenKey = "community-api-sandbox-control-token";
  // The control routes of the world this page was opened in: /_sandbox/… or /_tenants/{name}/_sandbox/….
  const prefix = location.pathname.replace(/\/_sandbox\/?$/, "");
  const base = prefix + "/_sandbox/";
  const pollMillis = 1000;
  const byId = (id) => document.getElementById(id);

  class NoToken extends Error {}

  /** A control route's response, or an error with the sandbox's own line. */
  const call = async (route, method, body) => {
    const token = sessionStorage.getItem(tokenKey);
    if (token === null) throw new NoToken("");
    const headers = { authorization: "Bearer " + token };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(base + route, {
      method: method || "GET",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "omit"
    });
    const answer = await response.json();
    if (answer.status === "ok") return answer.response;
    if (answer.error_code === 4) {
      sessionStorage.removeItem(tokenKey);
      throw new NoToken(answer.error);
    }
    throw new Error(answer.error + " (error " + answer.error_code + ")");
  };

  const cell = (row, text, className) => {
    const td = row.insertCell();
    td.textContent = text;
    if (className) td.className = className;
    return td;
  };

  const timeOf = (iso) => iso.slice(11, 23);

  const renderClock = (clock) => {
    const time = byId("clock-time");
    time.textContent = clock.time.replace("T", " ").replace("Z", " UTC");
    time.dateTime = clock.time;
    byId("clock-mode").textContent = clock.manual
      ? "Manual: it moves only when told." + (clock.rateClock === "separate" ? " The per-second rate keeps the real time." : "")
      : "The real time (start the sandbox with --clock manual to turn it).";
    byId("advance-form").hidden = !clock.manual;
  };

  const outcomeClass = (outcome) =>
    outcome === "ok" ? "outcome-ok" : outcome === "dropped" ? "outcome-dropped" : "outcome-error";

  let shownJournal = "";
  const renderJournal = (journal) => {
    const text = JSON.stringify(journal);
    if (text === shownJournal) return;
    shownJournal = text;
    const body = byId("journal").tBodies[0];
    body.replaceChildren();
    // Newest first: the route answers newest last.
    for (const entry of journal.entries.slice().reverse()) {
      const row = body.insertRow();
      row.dataset.outcome = String(entry.outcome);
      cell(row, timeOf(entry.at)).title = entry.at;
      cell(row, entry.operation === undefined ? entry.path : entry.operation).title = entry.path;
      cell(row, entry.user === undefined ? "" : String(entry.user));
      cell(row, entry.outcome === "ok" || entry.outcome === "dropped" ? entry.outcome : "error " + entry.outcome,
        outcomeClass(entry.outcome));
      cell(row, String(entry.millis));
      const params = entry.params === undefined ? "" : JSON.stringify(entry.params);
      cell(row, params.length > 160 ? params.slice(0, 157) + "..." : params, "params").title = params;
    }
    byId("journal-info").textContent = journal.entries.length + " shown, the last " + journal.size + " kept" +
      (journal.dropped > 0 ? ", " + journal.dropped + " older dropped" : "");
  };

  const count = (row, limit) => {
    const td = cell(row, limit.count + " / " + limit.limit, limit.count >= limit.limit ? "full" : "");
    td.title = "back to 0 at " + limit.resetsAt;
    const small = document.createElement("div");
    small.className = "hint";
    small.textContent = "resets " + limit.resetsAt.replace("T", " ").replace(".000Z", " UTC");
    td.append(small);
  };

  const renderLimits = (limits) => {
    const body = byId("limits").tBodies[0];
    body.replaceChildren();
    for (const user of limits.users) {
      const row = body.insertRow();
      row.dataset.user = String(user.user);
      cell(row, String(user.user));
      count(row, user.second);
      count(row, user.minute);
      count(row, user.day);
    }
    byId("limits-empty").hidden = limits.users.length > 0;
  };

  const renderFaults = (faults) => {
    const text = JSON.stringify(faults);
    byId("faults-state").textContent = text === "{}" ? "off" : text;
    return text;
  };

  const showLogin = (text) => {
    clearTimeout(timer);
    byId("board").hidden = true;
    byId("forget").hidden = true;
    byId("login").hidden = false;
    byId("login-error").textContent = text || "";
    byId("token").focus();
  };

  // A reading that failed says so until a reading succeeds; an action's refusal stays until the next action.
  let messageOfReading = false;
  const say = (text, ofReading) => {
    byId("message").textContent = text;
    messageOfReading = ofReading;
  };
  const report = (error, ofReading) => {
    if (error instanceof NoToken) showLogin(error.message);
    else say(error.message, ofReading);
  };

  let timer;
  let reading = 0;
  /** Reads every panel once; while "Live" is on, again a second after. */
  const refresh = async () => {
    clearTimeout(timer);
    const mine = ++reading;
    try {
      const [clock, journal, limits, faults] = await Promise.all([
        call("clock"),
        call("requests"),
        call("limits"),
        call("faults")
      ]);
      // A reading overtaken by a newer one (a button pressed meanwhile) would show the past: only the
      // newest shows, and only it goes on polling.
      if (mine !== reading) return;
      renderClock(clock);
      renderJournal(journal);
      renderLimits(limits);
      renderFaults(faults);
      if (messageOfReading) say("", false);
      byId("status").textContent = "read at " + new Date().toLocaleTimeString();
    } catch (error) {
      if (mine !== reading) return;
      report(error, true);
      if (error instanceof NoToken) return;
    }
    if (byId("live").checked) timer = setTimeout(refresh, pollMillis);
  };

  /** Runs an action of a button, then reads the panels again. */
  const act = (action) => async (event) => {
    event.preventDefault();
    say("", false);
    try {
      await action(event);
    } catch (error) {
      report(error, false);
      if (error instanceof NoToken) return;
    }
    await refresh();
  };

  const connect = async () => {
    try {
      const faults = await call("faults");
      byId("faults-text").value = renderFaults(faults);
    } catch (error) {
      report(error, true);
      return;
    }
    byId("login").hidden = true;
    byId("board").hidden = false;
    byId("forget").hidden = false;
    await refresh();
  };

  byId("login").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = byId("token");
    sessionStorage.setItem(tokenKey, field.value.trim());
    field.value = "";
    connect();
  });
  byId("forget").addEventListener("click", () => {
    sessionStorage.removeItem(tokenKey);
    showLogin("");
  });
  byId("advance-form").addEventListener("submit", act(() => {
    const seconds = Number(byId("advance-seconds").value);
    return call("clock", "POST", { advance: Math.round(seconds * 1000) });
  }));
  byId("faults-apply").addEventListener("click", act(async () => {
    let settings;
    try {
      settings = JSON.parse(byId("faults-text").value || "{}");
    } catch (error) {
      throw new Error("faults: the text is no JSON: " + error.message);
    }
    byId("faults-text").value = renderFaults(await call("faults", "POST", settings));
  }));
  byId("faults-off").addEventListener("click", act(async () => {
    byId("faults-text").value = renderFaults(await call("faults", "POST", {}));
  }));
  for (const preset of document.querySelectorAll("[data-preset]")) {
    preset.addEventListener("click", () => {
      byId("faults-text").value = preset.dataset.preset;
    });
  }
  byId("reset").addEventListener("click", act(() => call("reset", "POST")));
  byId("journal-clear").addEventListener("click", act(() => call("requests", "DELETE")));
  byId("live").addEventListener("change", () => refresh());

  const tenant = /^\/_tenants\/([^/]+)$/.exec(prefix);
  if (tenant !== null) byId("world").textContent = "tenant " + decodeURIComponent(tenant[1]);

  if (sessionStorage.getItem(tokenKey) === null) showLogin("");
  else connect();
})();
`
