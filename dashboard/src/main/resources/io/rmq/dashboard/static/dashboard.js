/*
 * The RMQ dashboard's page. It reads the admin endpoints (topics, stats, dead pages, operations under way,
 * recurring schedules) and the dashboard's own read-only answers (rates sampled on the server, lateness), and
 * acts only through the admin endpoints (requeue, purge, pause, resume, cancel an operation, pause, resume or
 * remove a schedule, change a topic's flow settings), each after a confirmation that says the count first.
 * URLs are built on location.origin, so a page opened with credentials in its address still works.
 */
(function () {
  'use strict';

  const REFRESH_MS = 3000;
  const COLORS = { sent: '#2458d3', merged: '#7a5af8', delivered: '#0e9384', acked: '#12b76a', nacked: '#f79009',
    dead: '#d92d20', released: '#98a2b3', requeued: '#2e90fa', purged: '#667085', trimmed: '#c4320a',
    cancelled: '#7a5af8', rescheduled: '#0e9384', expired: '#b54708', ticked: '#4e5ba6' };
  const CHARTED = ['sent', 'merged', 'delivered', 'acked', 'nacked', 'dead'];
  const number = new Intl.NumberFormat('en-US');

  const state = {
    config: null, topics: [], stats: {}, selected: null, cursor: '0:0', next: null, deadTotal: null,
    rates: null, ratesChart: null, slotsChart: null, timer: null, busy: false
  };

  const $ = (id) => document.getElementById(id);
  const base = (path) => new URL(path, location.origin).toString();

  async function call(method, path, body) {
    const response = await fetch(base(path), {
      method: method, credentials: 'same-origin', cache: 'no-store',
      // X-Requested-By: the admin endpoints refuse a change without it (a page of another site cannot send it)
      headers: Object.assign({ 'Accept': 'application/json' },
        method === 'GET' ? {} : { 'X-Requested-By': 'rmq-dashboard' },
        body === undefined ? {} : { 'Content-Type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    let json = null;
    try { json = await response.json(); } catch (e) { /* not JSON: reported below */ }
    if (!response.ok) {
      const message = json && json.message ? json.message : (response.status + ' ' + response.statusText);
      throw new Error(message);
    }
    return json;
  }

  const admin = (path) => state.config.adminPath + path;
  const topicPath = (topic) => admin('/topics/' + encodeURIComponent(topic));

  function banner(id, message) {
    const e = $(id);
    e.textContent = message;
    e.hidden = !message;
  }

  const showError = (message) => banner('error', message);

  function notify(message) {
    const n = $('notice');
    n.textContent = message;
    n.hidden = false;
    clearTimeout(notify.timer);
    notify.timer = setTimeout(() => { n.hidden = true; }, 8000);
  }

  function age(ms) {
    if (!ms) return '–';
    if (ms < 1000) return ms + ' ms';
    const s = ms / 1000;
    if (s < 60) return s.toFixed(1) + ' s';
    const m = Math.floor(s / 60);
    if (m < 60) return m + ' min ' + Math.floor(s % 60) + ' s';
    const h = Math.floor(m / 60);
    if (h < 48) return h + ' h ' + (m % 60) + ' min';
    return Math.floor(h / 24) + ' d ' + (h % 24) + ' h';
  }

  function cell(row, field, text, value) {
    const td = document.createElement('td');
    if (field) td.dataset.field = field;
    if (value !== undefined) td.dataset.value = value;
    td.textContent = text;
    row.appendChild(td);
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

  // ---- confirmation: the count first, then what happens --------------------------------------------------
  function confirmAction(text, detail) {
    return new Promise((resolve) => {
      const dialog = $('confirm');
      $('confirm-text').textContent = text;
      $('confirm-detail').textContent = detail || '';
      const done = (answer) => {
        $('confirm-ok').onclick = null;
        $('confirm-cancel').onclick = null;
        dialog.onclose = null;
        if (dialog.open) dialog.close();
        resolve(answer);
      };
      $('confirm-ok').onclick = () => done(true);
      $('confirm-cancel').onclick = () => done(false);
      dialog.onclose = () => done(false);
      dialog.showModal();
    });
  }

  const plural = (n, one, many) => number.format(n) + ' ' + (n === 1 ? one : many);

  async function deadAction(action, selection, what) {
    const topic = state.selected;
    try {
      const dry = await call('POST', topicPath(topic) + '/dead/' + action, Object.assign({ dryRun: true }, selection));
      if (dry.count === 0) {
        notify('No dead message of topic \'' + topic + '\' matches: nothing to ' + action + '.');
        return;
      }
      const verb = action === 'requeue' ? 'Requeue' : 'Purge';
      const detail = action === 'requeue'
        ? 'They go back to their slots with a fresh attempt count (due now, or with their priority), at most '
          + number.format(dry.ratePerSecond) + ' per second.'
        : 'They are deleted with what is recorded about them. This cannot be undone.';
      const ok = await confirmAction(verb + ' ' + plural(dry.count, 'dead message', 'dead messages') + ' of topic \''
        + topic + '\' (' + what + ')?', detail);
      if (!ok) return;
      const done = await call('POST', topicPath(topic) + '/dead/' + action, selection);
      notify((action === 'requeue' ? 'Requeued ' : 'Purged ') + plural(done.count, 'dead message', 'dead messages')
        + ' of topic \'' + topic + '\'.');
      state.cursor = '0:0';
      state.deadTotal = null;
      await refresh();
    } catch (e) {
      showError(e.message);
    }
  }

  async function pauseOrResume(topic, pause) {
    const ok = await confirmAction((pause ? 'Pause' : 'Resume') + ' consumption of topic \'' + topic + '\' ('
      + plural((state.stats[topic] || {}).slotAmount || 0, 'slot', 'slots') + ') on every consumer of the cluster?',
      pause ? 'Producers go on storing messages; nothing is delivered until it is resumed.'
        : 'Consumers pick the due messages up at once.');
    if (!ok) return;
    try {
      await call('POST', topicPath(topic) + (pause ? '/pause' : '/resume'));
      notify('Topic \'' + topic + '\' ' + (pause ? 'paused' : 'resumed') + '.');
      await refresh();
    } catch (e) {
      showError(e.message);
    }
  }

  // ---- topics ----------------------------------------------------------------------------------------------
  function lastRate(topic, name) {
    const r = state.rates;
    if (!r || !r.topics[topic] || r.topics[topic].length === 0) return null;
    const points = r.topics[topic];
    return points[points.length - 1][1 + r.counters.indexOf(name)];
  }

  function rateText(value) {
    return value === null ? '–' : (value >= 100 ? number.format(Math.round(value)) : value.toFixed(1));
  }

  function renderTopics() {
    const body = $('topics-table').tBodies[0];
    body.textContent = '';
    $('no-topics').hidden = state.topics.length > 0;
    for (const t of state.topics) {
      const s = state.stats[t.name];
      const row = body.insertRow();
      row.dataset.topic = t.name;
      if (t.name === state.selected) row.classList.add('selected');
      const name = document.createElement('td');
      const link = document.createElement('a');
      link.className = 'topic-link';
      link.textContent = t.name;
      link.addEventListener('click', () => select(t.name));
      name.appendChild(link);
      row.appendChild(name);
      cell(row, 'type', t.type);
      cell(row, 'slotAmount', number.format(t.slotAmount), t.slotAmount);
      if (!s) {
        const failure = (state.statsFailures || {})[t.name];
        cell(row, null, failure ? 'Cannot read: ' + failure : 'reading…').colSpan = 9;
        continue;
      }
      const totals = s.totals;
      cell(row, 'pending', number.format(totals.pending), totals.pending);
      cell(row, 'due', number.format(totals.due), totals.due);
      cell(row, 'oldestDue', t.type === 'PRIORITY' ? 'n/a' : age(totals.oldestDueAgeMillis), totals.oldestDueAgeMillis);
      cell(row, 'inFlight', number.format(totals.inFlight), totals.inFlight);
      cell(row, 'dead', number.format(totals.dead), totals.dead);
      const paused = totals.paused ? 'paused' : (totals.pausedSlots > 0 ? 'partly paused (' + totals.pausedSlots + ')' : 'running');
      cell(row, 'paused', paused, totals.paused);
      if (totals.paused) row.classList.add('paused');
      cell(row, 'sent', rateText(lastRate(t.name, 'sent')));
      cell(row, 'acked', rateText(lastRate(t.name, 'acked')));
      const actions = cell(row, 'actions', '');
      actions.appendChild(button(totals.paused ? 'Resume' : 'Pause', () => pauseOrResume(t.name, !totals.paused), !totals.paused));
    }
  }

  function select(topic) {
    if (state.selected !== topic) {
      state.selected = topic;
      state.cursor = '0:0';
      state.deadTotal = null;
      clearFlow();
    }
    $('rates-topic').value = topic;
    refresh();
  }

  // ---- the selected topic: slots, owners, dead messages --------------------------------------------------
  function renderDetail() {
    const s = state.selected && state.stats[state.selected];
    $('topic-detail').hidden = !s;
    if (!s) return;
    $('detail-topic').textContent = s.topic;
    $('detail-type').textContent = s.type + ', ' + plural(s.slotAmount, 'slot', 'slots');
    $('dead-total').textContent = number.format(s.totals.dead);
    const labels = s.slots.map((slot) => String(slot.slot));
    const data = {
      labels: labels,
      datasets: [
        { label: 'pending', data: s.slots.map((x) => x.pending), backgroundColor: '#2458d3' },
        { label: 'in flight', data: s.slots.map((x) => x.inFlight), backgroundColor: '#12b76a' },
        { label: 'dead', data: s.slots.map((x) => x.dead), backgroundColor: '#d92d20' }
      ]
    };
    if (window.Chart) {
      if (!state.slotsChart) {
        state.slotsChart = new Chart($('slots-chart'), {
          type: 'bar', data: data,
          options: { animation: false, maintainAspectRatio: false, scales: { x: { stacked: true, title: { display: true, text: 'slot' } },
            y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } }
        });
      } else {
        state.slotsChart.data = data;
        state.slotsChart.update();
      }
    }
    const owners = $('owners-table').tBodies[0];
    owners.textContent = '';
    let any = false;
    for (const slot of s.slots) {
      if (!slot.owner) continue;
      any = true;
      const row = owners.insertRow();
      cell(row, 'slot', String(slot.slot));
      cell(row, 'worker', slot.owner.worker);
      cell(row, 'epoch', String(slot.owner.epoch));
      cell(row, 'since', new Date(slot.owner.since).toLocaleString());
    }
    $('owners-table').hidden = !any;
    $('no-owners').hidden = any;
  }

  async function loadDead() {
    const topic = state.selected;
    const page = await call('GET', topicPath(topic) + '/dead?limit=20&cursor=' + encodeURIComponent(state.cursor));
    if (topic !== state.selected) return;
    state.next = page.next;
    $('dead-next').disabled = !page.next;
    const body = $('dead-table').tBodies[0];
    body.textContent = '';
    $('no-dead').hidden = page.messages.length > 0;
    page.messages.forEach((m) => {
      const row = body.insertRow();
      row.dataset.member = m.contentBase64;
      if (m.content !== null) row.dataset.content = m.content;
      const pick = document.createElement('input');
      pick.type = 'checkbox';
      pick.className = 'dead-pick';
      pick.addEventListener('change', updateSelection);
      row.insertCell().appendChild(pick);
      cell(row, 'slot', String(m.slot));
      cell(row, 'diedAt', new Date(m.diedAt).toLocaleString(), m.diedAt);
      cell(row, 'deliveries', m.deliveries === undefined || m.deliveries === null ? '–' : String(m.deliveries));
      cell(row, 'lastFailure', m.lastFailure === undefined ? '–' : m.lastFailure).className = 'failure';
      const text = m.content === null ? '(binary, ' + atob(m.contentBase64).length + ' bytes)' : m.content;
      cell(row, 'content', text.length > 200 ? text.slice(0, 200) + '…' : text).className = 'content';
      const actions = cell(row, 'actions', '');
      const one = { membersBase64: [m.contentBase64] };
      actions.appendChild(button('Requeue', () => deadAction('requeue', one, 'this message')));
      actions.appendChild(button('Purge', () => deadAction('purge', one, 'this message'), true));
    });
    $('dead-select-all').checked = false;
    updateSelection();
  }

  function picked() {
    return Array.from(document.querySelectorAll('#dead-table tbody tr'))
      .filter((row) => row.querySelector('.dead-pick').checked).map((row) => row.dataset.member);
  }

  function updateSelection() {
    const n = picked().length;
    $('requeue-selected').disabled = n === 0;
    $('purge-selected').disabled = n === 0;
  }

  // ---- flow settings of the selected topic: shown, changed live after a confirmation ----------------------
  const flowPath = (topic) => topicPath(topic) + '/flow';
  const FLOW_NAMES = { rate: 'rate limit', burst: 'burst', keyConcurrency: 'key concurrency', keyRate: 'key rate',
    aging: 'priority aging', fair: 'fair share', adaptive: 'adaptive slow-down' };
  const FLOW_DETAIL = 'Every consumer of the topic follows at once, cluster-wide, without a restart. The change stands'
    + ' until changed again, also when applications restart with the same configuration (which gives only the'
    + ' starting value).';

  function flowRow(setting, text, actions) {
    const row = document.querySelector('#flow-table tr[data-setting="' + setting + '"]');
    row.querySelector('td[data-field=value]').textContent = text;
    const box = row.querySelector('td[data-field=actions]');
    if (box) {
      box.textContent = '';
      (actions || []).forEach((b) => box.appendChild(b));
    }
  }

  const removeButton = (what, body) => button('Remove', () => changeFlow(body, 'Remove the ' + what), true);

  function renderFlow(f) {
    $('flow-gen').textContent = number.format(f.gen);
    flowRow('rate', f.rate === null ? 'none' : f.rateText + ', burst '
      + (f.burst === null ? 'default (a tenth of a second\'s worth)' : number.format(f.burst)),
      f.rate === null ? [] : [removeButton('rate limit', { rate: null })]);
    const a = f.adaptive;
    let effective = f.effectiveRate === null ? 'unlimited' : f.effectiveRateText;
    if (a.on && a.rate !== null) {
      effective += ' (adaptive: ' + (a.reason || 'slowed down') + (a.changed ? ', since ' + when(a.changed) : '') + ')';
    } else if (a.reason) {
      effective += ' (adaptive, last: ' + a.reason + ')';
    }
    flowRow('effective', effective);
    const key = [];
    if (f.keyConcurrency !== null) key.push('concurrency ' + number.format(f.keyConcurrency));
    if (f.keyRate !== null) key.push('rate ' + f.keyRateText + (f.keyBurst === null ? '' : ', burst ' + number.format(f.keyBurst)));
    flowRow('key', key.length ? key.join(', ') : 'none',
      key.length ? [removeButton('per-key limits', { keyConcurrency: null, keyRate: null, keyBurst: null })] : []);
    flowRow('fair', f.fair);
    const weights = Object.keys(f.weights).sort().map((t) => t + ' ' + f.weights[t]);
    weights.push('others ' + (f.defaultWeight === null ? 1 : f.defaultWeight));
    flowRow('weights', weights.join(', '),
      Object.keys(f.weights).sort().map((t) => button('Remove ' + t, () => removeWeight(t), true)));
    flowRow('aging', f.aging === null ? 'none' : f.aging + ' (priority points per duration of waiting)',
      f.aging === null ? [] : [removeButton('priority aging', { aging: null })]);
    flowRow('adaptive', a.on ? 'on, threshold ' + (a.threshold === null ? 'default' : a.threshold) + ', floor '
      + (a.floor === null ? 'default' : a.floorText) : 'off');
  }

  // the flow panel's error line; a failed read is marked so that the next good read takes it away
  function flowBanner(message, readFailed) {
    state.flowReadFailed = !!readFailed;
    banner('flow-error', message);
  }

  // another topic selected: nothing of the previous one's settings stays on show while its own are read
  function clearFlow() {
    $('flow-gen').textContent = '…';
    flowBanner('');
    document.querySelectorAll('#flow-table tr[data-setting]').forEach((row) => flowRow(row.dataset.setting, 'reading…'));
  }

  async function refreshFlow() {
    const topic = state.selected;
    if (!topic || !state.stats[topic]) return;
    try {
      const flow = await call('GET', flowPath(topic));
      if (topic !== state.selected) return;
      renderFlow(flow);
      // a refresh clears only its own complaint: the answer to the user's last change stays until the next change
      if (state.flowReadFailed) flowBanner('');
    } catch (e) {
      flowBanner('Cannot read the flow settings: ' + e.message, true);
    }
  }

  function describeFlow(body) {
    return Object.keys(body).filter((k) => FLOW_NAMES[k])
      .map((k) => FLOW_NAMES[k] + ' ' + (body[k] === null ? 'removed' : (body[k] === true ? 'on' : (body[k] === false ? 'off' : body[k]))))
      .join(', ');
  }

  async function changeFlow(body, question) {
    const topic = state.selected;
    if (!await confirmAction(question + ' of topic \'' + topic + '\' (' + describeFlow(body) + ')?', FLOW_DETAIL)) return false;
    try {
      renderFlow(await call('PUT', flowPath(topic), body));
      flowBanner('');
      notify('Flow settings of topic \'' + topic + '\' changed.');
      return true;
    } catch (e) {
      flowBanner('Not changed: ' + e.message);
      return false;
    }
  }

  async function submitFlow(event) {
    event.preventDefault();
    const body = {};
    const text = (id) => $(id).value.trim();
    if (text('flow-rate')) body.rate = text('flow-rate');
    if (text('flow-burst')) body.burst = Number(text('flow-burst'));
    if (text('flow-key-concurrency')) body.keyConcurrency = Number(text('flow-key-concurrency'));
    if (text('flow-key-rate')) body.keyRate = text('flow-key-rate');
    if (text('flow-aging')) body.aging = text('flow-aging');
    if ($('flow-fair').value) body.fair = $('flow-fair').value === 'on';
    if ($('flow-adaptive').value) body.adaptive = $('flow-adaptive').value === 'on';
    if (Object.keys(body).length === 0) {
      notify('Nothing to change: fill in the settings to change.');
      return;
    }
    if (await changeFlow(body, 'Change the flow settings')) $('flow-form').reset();
  }

  async function submitWeight(event) {
    event.preventDefault();
    const topic = state.selected;
    const tenant = $('flow-tenant').value;
    const weight = Number($('flow-weight').value.trim());
    if (!tenant) {
      flowBanner('Name the tenant whose weight to set.');
      return;
    }
    if (!await confirmAction('Set the weight of tenant \'' + tenant + '\' on topic \'' + topic + '\' to '
      + $('flow-weight').value.trim() + '?', FLOW_DETAIL)) return;
    try {
      renderFlow(await call('PUT', flowPath(topic) + '/weights/' + encodeURIComponent(tenant), { weight: weight }));
      flowBanner('');
      notify('Weight of tenant \'' + tenant + '\' on topic \'' + topic + '\' set.');
      $('flow-weight-form').reset();
    } catch (e) {
      flowBanner('Not changed: ' + e.message);
    }
  }

  async function removeWeight(tenant) {
    const topic = state.selected;
    if (!await confirmAction('Remove the weight of tenant \'' + tenant + '\' on topic \'' + topic + '\'?',
      'The tenant falls back to the default weight. ' + FLOW_DETAIL)) return;
    try {
      renderFlow(await call('DELETE', flowPath(topic) + '/weights/' + encodeURIComponent(tenant)));
      flowBanner('');
    } catch (e) {
      flowBanner('Not changed: ' + e.message);
    }
  }

  // ---- rates -------------------------------------------------------------------------------------------
  function series(topic) {
    const r = state.rates;
    if (!r) return [];
    if (topic) return r.topics[topic] || [];
    // all topics: add up the points of one sampling round (same sample index)
    const step = r.sampleSeconds * 1000;
    const byRound = new Map();
    for (const points of Object.values(r.topics)) {
      for (const p of points) {
        const round = Math.round(p[0] / step);
        const sum = byRound.get(round) || [round * step].concat(new Array(r.counters.length).fill(0));
        for (let i = 1; i < p.length; i++) sum[i] += p[i];
        byRound.set(round, sum);
      }
    }
    return Array.from(byRound.keys()).sort((a, b) => a - b).map((k) => byRound.get(k));
  }

  function renderRates() {
    const r = state.rates;
    if (!r) return;
    const select = $('rates-topic');
    const known = new Set(Array.from(select.options).map((o) => o.value));
    for (const topic of Object.keys(r.topics)) {
      if (!known.has(topic)) select.add(new Option(topic, topic));
    }
    const points = series(select.value);
    const labels = points.map((p) => new Date(p[0]).toLocaleTimeString());
    const datasets = CHARTED.map((name) => ({
      label: name, data: points.map((p) => p[1 + r.counters.indexOf(name)]), borderColor: COLORS[name],
      backgroundColor: COLORS[name], pointRadius: 0, borderWidth: 2, tension: 0.2
    }));
    if (window.Chart) {
      if (!state.ratesChart) {
        state.ratesChart = new Chart($('rates-chart'), {
          type: 'line', data: { labels: labels, datasets: datasets },
          options: { animation: false, maintainAspectRatio: false, interaction: { mode: 'index', intersect: false },
            scales: { y: { beginAtZero: true, title: { display: true, text: 'per second' } }, x: { ticks: { maxTicksLimit: 10 } } } }
        });
      } else {
        state.ratesChart.data.labels = labels;
        state.ratesChart.data.datasets.forEach((d, i) => { d.data = datasets[i].data; });
        state.ratesChart.update();
      }
    }
    const head = $('rates-now').tHead.rows[0];
    const row = $('rates-now').tBodies[0].rows[0];
    head.textContent = '';
    row.textContent = '';
    const last = points.length ? points[points.length - 1] : null;
    r.counters.forEach((name, i) => {
      const th = document.createElement('th');
      th.textContent = name + '/s';
      head.appendChild(th);
      cell(row, 'rate-' + name, last ? rateText(last[1 + i]) : '–');
    });
    $('rates-hint').textContent = r.failure ? 'The last sample failed: ' + r.failure
      : (points.length ? 'Sampled every ' + r.sampleSeconds + ' s on the server from the counters kept in Redis.'
        : 'The first rates appear after two samples (' + (2 * r.sampleSeconds) + ' s).');
  }

  // ---- lateness ----------------------------------------------------------------------------------------
  function renderLateness(l) {
    const box = $('lateness');
    box.textContent = '';
    if (!l.available) {
      const p = document.createElement('p');
      p.className = 'hint';
      p.textContent = l.reason;
      box.appendChild(p);
      return;
    }
    const table = document.createElement('table');
    table.className = 'compact';
    const names = l.timers.length ? Object.keys(l.timers[0].percentilesMillis) : [];
    const head = table.createTHead().insertRow();
    ['Topic', 'Channel', 'Deliveries', 'Mean'].concat(names).concat(['Max']).forEach((h) => {
      const th = document.createElement('th');
      th.textContent = h;
      head.appendChild(th);
    });
    const body = table.createTBody();
    for (const t of l.timers) {
      const row = body.insertRow();
      cell(row, 'topic', t.topic);
      cell(row, 'channel', t.channel);
      cell(row, 'count', number.format(t.count));
      cell(row, 'mean', t.meanMillis + ' ms');
      names.forEach((n) => cell(row, n, (t.percentilesMillis[n] === undefined ? '–' : t.percentilesMillis[n] + ' ms')));
      cell(row, 'max', t.maxMillis + ' ms');
    }
    box.appendChild(table);
  }

  // ---- operations under way: listed, each cancellable ----------------------------------------------------
  function renderOperations(listing) {
    const body = $('operations-table').tBodies[0];
    body.textContent = '';
    $('operations-panel').hidden = listing.operations.length === 0;
    for (const o of listing.operations) {
      const row = body.insertRow();
      row.dataset.operation = o.id;
      cell(row, 'startedAt', new Date(o.startedAt).toLocaleTimeString());
      cell(row, 'user', o.user);
      cell(row, 'action', o.action);
      cell(row, 'topic', o.topic);
      cell(row, 'what', o.what);
      cell(row, 'acted', number.format(o.acted));
      const actions = cell(row, 'actions', o.stopping ? 'stopping…' : '');
      if (!o.stopping) actions.appendChild(button('Cancel', () => cancelOperation(o), true));
    }
  }

  async function cancelOperation(o) {
    const ok = await confirmAction('Cancel ' + o.action + ' of topic \'' + o.topic + '\' started by ' + o.user + '?',
      'It stops after its current batch; what it moved stays moved.');
    if (!ok) return;
    try {
      await call('POST', admin('/operations/' + encodeURIComponent(o.id) + '/cancel'));
      notify('Cancelled ' + o.action + ' of topic \'' + o.topic + '\'.');
      await refresh();
    } catch (e) {
      showError(e.message);
    }
  }

  // ---- recurring schedules: listed with their ticks, paused, resumed, removed ----------------------------
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '–');
  const timing = (s) => (s.cron !== null ? s.cron + ' (' + s.zone + ')' : 'every ' + s.every);
  const scheduleChanges = {
    pause: ['Pause', 'paused', 'No application instance sends its ticks until it is resumed.'],
    resume: ['Resume', 'resumed', 'The ticks that fell during the pause are not sent; the next one is.'],
    remove: ['Remove', 'removed', 'Its definition and state are deleted and the instances running it stop; an'
      + ' application that declares it in its configuration records it again when it starts.']
  };

  function renderSchedules(listing) {
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
      cell(row, 'lastTick', when(s.lastTick));
      cell(row, 'nextTick', s.paused ? '–' : when(s.nextTick));
      const actions = cell(row, 'actions', '');
      actions.appendChild(button(s.paused ? 'Resume' : 'Pause', () => changeSchedule(s, s.paused ? 'resume' : 'pause')));
      actions.appendChild(button('Remove', () => changeSchedule(s, 'remove'), true));
    }
  }

  async function changeSchedule(s, action) {
    const [verb, done, detail] = scheduleChanges[action];
    if (!await confirmAction(verb + ' schedule \'' + s.name + '\' of topic \'' + s.topic + '\'?', detail)) return;
    try {
      await call('POST', admin('/schedules/' + encodeURIComponent(s.name) + '/' + action));
      notify('Schedule \'' + s.name + '\' ' + done + '.');
      await refresh();
    } catch (e) {
      banner('schedules-error', e.message);
    }
  }

  // a listing that fails shows in the panel, not in the page's banner
  async function refreshSchedules() {
    try {
      renderSchedules(await call('GET', admin('/schedules')));
      banner('schedules-error', '');
    } catch (e) {
      banner('schedules-error', 'Cannot list the schedules: ' + e.message);
    }
  }

  // ---- refresh -----------------------------------------------------------------------------------------
  async function refresh() {
    if (state.busy) return;
    state.busy = true;
    try {
      const listing = await call('GET', admin('/topics'));
      $('redis').textContent = listing.redis;
      $('key-prefix').textContent = listing.keyPrefix === '' ? '(none)' : listing.keyPrefix;
      state.topics = listing.topics;
      // one topic that cannot be read (gone meanwhile, a name a path cannot carry) shows its error in its own row
      const stats = await Promise.allSettled(listing.topics.map((t) => call('GET', topicPath(t.name) + '/stats')));
      state.stats = {};
      state.statsFailures = {};
      stats.forEach((r, i) => {
        if (r.status === 'fulfilled') state.stats[r.value.topic] = r.value;
        else state.statsFailures[listing.topics[i].name] = r.reason.message;
      });
      try {
        state.rates = await call('GET', state.config.dashboardPath + '/api/rates');
      } catch (e) { /* shown as missing rates */ }
      renderTopics();
      renderRates();
      renderDetail();
      await refreshFlow();
      if (state.selected && state.stats[state.selected]) {
        const dead = state.stats[state.selected].totals.dead;
        if (dead !== state.deadTotal && picked().length === 0) {
          state.deadTotal = dead;
          await loadDead();
        }
      }
      renderOperations(await call('GET', admin('/operations')));
      await refreshSchedules();
      renderLateness(await call('GET', state.config.dashboardPath + '/api/lateness'));
      $('refreshed').textContent = new Date().toLocaleTimeString();
      $('refreshed').dataset.at = String(Date.now());
      showError('');
    } catch (e) {
      showError('Cannot refresh: ' + e.message);
    } finally {
      state.busy = false;
    }
  }

  function schedule() {
    clearInterval(state.timer);
    if ($('auto-refresh').checked) state.timer = setInterval(refresh, REFRESH_MS);
  }

  async function start() {
    $('refresh-seconds').textContent = String(REFRESH_MS / 1000);
    try {
      state.config = await call('GET', location.pathname.replace(/\/$/, '') + '/api/config');
    } catch (e) {
      showError('Cannot start: ' + e.message);
      return;
    }
    $('history-minutes').textContent = String(state.config.historyMinutes);
    $('auto-refresh').addEventListener('change', schedule);
    $('rates-topic').addEventListener('change', renderRates);
    $('requeue-selected').addEventListener('click', () => deadAction('requeue', { membersBase64: picked() }, 'selected'));
    $('purge-selected').addEventListener('click', () => deadAction('purge', { membersBase64: picked() }, 'selected'));
    $('requeue-all').addEventListener('click', () => deadAction('requeue', { all: true }, 'all'));
    $('purge-all').addEventListener('click', () => deadAction('purge', { all: true }, 'all'));
    $('dead-first').addEventListener('click', () => { state.cursor = '0:0'; loadDead().catch((e) => showError(e.message)); });
    $('dead-next').addEventListener('click', () => {
      if (state.next) { state.cursor = state.next; loadDead().catch((e) => showError(e.message)); }
    });
    $('flow-form').addEventListener('submit', submitFlow);
    $('flow-weight-form').addEventListener('submit', submitWeight);
    $('dead-select-all').addEventListener('change', (e) => {
      document.querySelectorAll('#dead-table .dead-pick').forEach((box) => { box.checked = e.target.checked; });
      updateSelection();
    });
    await refresh();
    schedule();
  }

  document.addEventListener('DOMContentLoaded', start);
}());
