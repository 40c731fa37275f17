// The schedules panel: the recurring schedules recorded under the key prefix (GET <admin>/schedules), each with its
// timing, missed-tick policy, last and next tick, and its pause/resume and remove buttons. Written with textContent
// only (no markup from data); refreshed with the page's auto-refresh.
(function () {
  'use strict';

  const REFRESH_MS = 3000;
  const state = { adminPath: null, timer: null, busy: false };
  const $ = (id) => document.getElementById(id);

  async function call(method, path) {
    const response = await fetch(new URL(path, location.origin).toString(), {
      method: method, credentials: 'same-origin', cache: 'no-store',
      // X-Requested-By: the admin endpoints refuse a change without it (a page of another site cannot send it)
      headers: Object.assign({ 'Accept': 'application/json' }, method === 'GET' ? {} : { 'X-Requested-By': 'rmq-dashboard' })
    });
    let json = null;
    try { json = await response.json(); } catch (e) { /* not JSON: reported below */ }
    if (!response.ok) throw new Error(json && json.message ? json.message : (response.status + ' ' + response.statusText));
    return json;
  }

  function show(id, message) {
    const e = $(id);
    e.textContent = message;
    e.hidden = !message;
  }

  function cell(row, field, text) {
    const td = row.insertCell();
    td.dataset.field = field;
    td.textContent = text;
    return td;
  }

  function button(label, onClick, danger) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (danger) b.className = 'danger';
    b.addEventListener('click', onClick);
    return b;
  }

  const time = (iso) => (iso ? new Date(iso).toLocaleString() : '–');
  const timing = (s) => (s.cron !== null ? s.cron + ' (' + s.zone + ')' : 'every ' + s.every);

  function render(listing) {
    const body = $('schedules-table').tBodies[0];
    body.textContent = '';
    $('no-schedules').hidden = listing.schedules.length > 0;
    for (const s of listing.schedules) {
      const row = body.insertRow();
      row.dataset.schedule = s.name;
      if (s.paused) row.className = 'paused';
      cell(row, 'name', s.name);
      cell(row, 'topic', s.topic);
      cell(row, 'timing', timing(s));
      cell(row, 'missed', s.missed);
      cell(row, 'paused', s.paused ? 'paused' : 'running');
      cell(row, 'lastTick', time(s.lastTick));
      cell(row, 'nextTick', s.paused ? '–' : time(s.nextTick));
      const actions = cell(row, 'actions', '');
      actions.appendChild(button(s.paused ? 'Resume' : 'Pause', () => change(s, s.paused ? 'resume' : 'pause')));
      actions.appendChild(button('Remove', () => change(s, 'remove'), true));
    }
  }

  const questions = {
    pause: ['Pause', 'No application instance sends its ticks until it is resumed.'],
    resume: ['Resume', 'The ticks that fell during the pause are not sent; the next one is.'],
    remove: ['Remove', 'Its definition and state are deleted and the instances running it stop; an application that'
      + ' declares it in its configuration records it again when it starts.']
  };

  async function change(s, action) {
    const [verb, detail] = questions[action];
    if (!window.confirm(verb + ' schedule \'' + s.name + '\' of topic \'' + s.topic + '\'?\n\n' + detail)) return;
    try {
      await call('POST', state.adminPath + '/schedules/' + encodeURIComponent(s.name) + '/' + action);
      await refresh();
    } catch (e) {
      show('schedules-error', e.message);
    }
  }

  async function refresh() {
    if (state.busy) return;
    state.busy = true;
    try {
      render(await call('GET', state.adminPath + '/schedules'));
      show('schedules-error', '');
    } catch (e) {
      show('schedules-error', 'Cannot list the schedules: ' + e.message);
    } finally {
      state.busy = false;
    }
  }

  function schedule() {
    clearInterval(state.timer);
    if ($('auto-refresh').checked) state.timer = setInterval(refresh, REFRESH_MS);
  }

  async function start() {
    try {
      state.adminPath = (await call('GET', location.pathname.replace(/\/$/, '') + '/api/config')).adminPath;
    } catch (e) {
      show('schedules-error', 'Cannot start: ' + e.message);
      return;
    }
    $('auto-refresh').addEventListener('change', schedule);
    await refresh();
    schedule();
  }

  document.addEventListener('DOMContentLoaded', start);
}());
