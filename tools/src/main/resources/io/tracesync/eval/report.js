// The evaluation report: fills report.html from its JSON document (HtmlReport.data). Charts by uPlot, the forest
// by the live view's TracesyncForest; no network access. Sets <body data-ready="true"> once everything is drawn.
'use strict';
window.addEventListener('error', e => {
  const box = document.getElementById('errors');
  box.hidden = false;
  box.textContent += 'The report could not draw everything: ' + e.message + '\n';
});

const data = JSON.parse(document.getElementById('data').textContent);

/** A duration in µs, with three or four significant digits and its unit; – where there is none. */
function us(v) {
  if (v === null || v === undefined) return '–';
  const a = Math.abs(v);
  if (a < 1) return (v * 1e3).toFixed(0) + ' ns';
  if (a < 1e3) return v.toFixed(a < 10 ? 3 : a < 100 ? 2 : 1) + ' µs';
  if (a < 1e6) return (v / 1e3).toFixed(a < 1e4 ? 3 : a < 1e5 ? 2 : 1) + ' ms';
  return (v / 1e6).toFixed(3) + ' s';
}

function pct(v) {
  return v === null || v === undefined ? '–' : v.toFixed(2);
}

function cell(tr, text, cls) {
  const td = document.createElement('td');
  if (text instanceof Node) td.append(text); else td.textContent = text;
  if (cls) td.className = cls;
  tr.append(td);
  return td;
}

function lead() {
  const p = Object.fromEntries(data.simulation);
  const first = data.summary[0];
  document.getElementById('lead').textContent = `${data.run}: ${p.nodes} nodes (${p.topology}, seed ${p.seed}) `
    + `simulated for ${duration(Number(p.duration_ns))}. tracesync's published factors: median error `
    + `${us(first.median_us)}, p99 ${us(first.p99_us)}, max ${us(first.max_us)}; ${pct(first.inside_pct)} % of `
    + `bounded samples inside their guaranteed bounds.`;
}

function summary() {
  const body = document.querySelector('#summary-table tbody');
  data.summary.forEach((r, i) => {
    const tr = document.createElement('tr');
    if (i === 0) tr.className = 'first';
    const label = document.createElement('div');
    label.textContent = r.label;
    const meaning = document.createElement('div');
    meaning.className = 'meaning';
    meaning.textContent = r.meaning;
    const both = document.createElement('div');
    both.append(label, meaning);
    cell(tr, both);
    cell(tr, r.samples.toLocaleString('en'), 'num');
    [us(r.median_us), us(r.p99_us), us(r.max_us), pct(r.inside_pct), us(r.width_us), us(r.max_width_us)]
      .forEach(v => cell(tr, v, 'num'));
    body.append(tr);
  });
  document.getElementById('findings').append(...data.findings.map(f => {
    const li = document.createElement('li');
    li.textContent = f;
    return li;
  }));
}

/** A duration in ns as a person writes it: 300 s, 5 min, 24 h, 50 µs. */
function duration(ns) {
  const s = ns / 1e9;
  if (s >= 3600 && s % 3600 === 0) return s / 3600 + ' h';
  if (s >= 60 && s % 60 === 0) return s / 60 + ' min';
  return s >= 1 ? s + ' s' : us(ns / 1e3);
}

function parameters() {
  [['simulation', data.simulation], ['replay', data.replay]].forEach(([id, pairs]) => {
    const body = document.querySelector(`#${id} tbody`);
    pairs.forEach(([k, v]) => {
      const tr = document.createElement('tr');
      const ns = k.endsWith('_ns') && /^[0-9]+$/.test(v);
      cell(tr, ns ? k.slice(0, -3) : k);
      cell(tr, ns ? duration(Number(v)) : v, 'num');
      body.append(tr);
    });
  });
}

const BLUE = '#1e5ac8';
const ORANGE = '#e07b00';
/** Rows whose small plot is drawn at once; the others when they scroll into view. */
const EAGER_SPARKLINES = 50;
const nodeRows = new Map(data.nodes.map(n => [n.node, n]));

/** Each of the two plots' width: half the detail box, 360 to 640 px. */
function plotWidth() {
  return Math.max(360, Math.min(640, Math.floor((document.getElementById('detail').clientWidth - 60) / 2)));
}

function errorPlot(n, el) {
  return new uPlot({
    title: 'true error', width: plotWidth(), height: 300, scales: {x: {time: false}},
    axes: [{label: 'true time since the first pair, s'}, {label: 'µs', size: 70}],
    series: [{label: 't, s'}, {label: 'true error', stroke: BLUE, width: 1.5, value: (u, v) => us(v)}],
  }, [n.t_s, n.error_us], el);
}

function bandPlot(n, el) {
  const lower = n.up_us.map(v => v === null ? null : -v);
  return new uPlot({
    title: 'true error inside its guaranteed bounds', width: plotWidth(), height: 300, scales: {x: {time: false}},
    axes: [{label: 'true time since the first pair, s'}, {label: 'µs', size: 70}],
    series: [{label: 't, s'},
      {label: '+down', stroke: '#888', width: 1, value: (u, v) => us(v)},
      {label: '−up', stroke: '#888', width: 1, value: (u, v) => us(v)},
      {label: 'true error', stroke: BLUE, width: 1.5, value: (u, v) => us(v)}],
    bands: [{series: [1, 2], fill: 'rgba(150, 150, 150, 0.3)'}],
  }, [n.t_s, n.down_us, lower, n.error_us], el);
}

function sparkline(n, el) {
  return new uPlot({
    width: 170, height: 30, legend: {show: false}, cursor: {show: false}, select: {show: false},
    scales: {x: {time: false}}, axes: [{show: false}, {show: false}],
    series: [{}, {stroke: BLUE, width: 1}],
  }, [n.t_s, n.error_us], el);
}

let plots = [];

function select(node) {
  plots.forEach(p => p.destroy());
  plots = [];
  const n = nodeRows.get(node);
  document.querySelectorAll('#nodes tbody tr')
    .forEach(tr => tr.classList.toggle('selected', tr.dataset.node === node));
  const title = document.getElementById('detail-title');
  if (!n) {
    title.textContent = `${node}: a reference node, converted to itself (no error to plot)`;
    return;
  }
  title.textContent = `${node} against ${against(n)}: median error ${us(n.median_us)}, max ${us(n.max_us)}, `
    + `${pct(n.inside_pct)} % inside its bounds, ${n.samples.toLocaleString('en')} samples`;
  plots = [errorPlot(n, document.getElementById('plot-error')), bandPlot(n, document.getElementById('plot-band'))];
}

/**
 * The references a node was measured against, in order, and where its reference is now when it moved: the
 * reference of a component can change as the spanning tree grows.
 */
function against(n) {
  const was = n.measured_against.join(', then ');
  const last = n.measured_against[n.measured_against.length - 1];
  if (last === n.reference) {
    return was;
  }
  return n.reference === n.node ? `${was} (the reference moved: ${n.node} is now the reference itself)`
    : `${was} (the reference moved: now ${n.reference})`;
}

/** A ratio to live, e.g. 0.812×; – where there is none. */
function times(v) {
  return v === null || v === undefined ? '–' : v.toFixed(3) + '×';
}

/** The conversions after the fact: one row per age below live, and their median error and width by age. */
function afterTheFact() {
  const a = data.after_the_fact;
  if (!a.ages.length) {
    document.getElementById('after-the-fact-section').hidden = true;
    return;
  }
  const body = document.querySelector('#after-the-fact-table tbody');
  [{...a.live, age: 'live', error_ratio: 1, width_ratio: 1}, ...a.ages].forEach((r, i) => {
    const tr = document.createElement('tr');
    if (i === 0) tr.className = 'first';
    cell(tr, r.age);
    cell(tr, r.samples.toLocaleString('en'), 'num');
    [us(r.median_us), us(r.p99_us), us(r.max_us), pct(r.inside_pct), us(r.width_us), pct(r.interpolated_pct),
      times(r.error_ratio), times(r.width_ratio), us(r.newest_median_us), us(r.newest_width_us)]
      .forEach(v => cell(tr, v, 'num'));
    body.append(tr);
  });
  const labels = a.ages.map(r => r.age);
  const x = labels.map((_, i) => i);
  // a log scale has no 0: an exact answer is left out
  const positive = values => values.map(v => v > 0 ? v : null);
  const live = v => positive(x.map(() => v));
  const line = (label, stroke, width, dash) => ({label, stroke, width, ...(dash ? {dash} : {}),
    value: (u, v) => us(v)});
  new uPlot({
    title: 'median error and median width by age (log scale)', width: Math.min(900, 2 * plotWidth()), height: 320,
    scales: {x: {time: false, range: [-0.3, x.length - 0.7]}, y: {distr: 3}},
    axes: [{label: 'age after the fact', splits: () => x, values: (u, splits) => splits.map(i => labels[i] ?? '')},
      {label: 'µs', size: 70}],
    series: [{label: 'age', value: (u, i) => i === null ? '–' : labels[i]},
      line('error, history', BLUE, 2), line('width, history', ORANGE, 2),
      line('error, newest alone', BLUE, 1, [2, 3]), line('width, newest alone', ORANGE, 1, [2, 3]),
      line('error, live', '#888', 1, [6, 4]), line('width, live', '#888', 1, [6, 4])],
  }, [x, ...['median_us', 'width_us', 'newest_median_us', 'newest_width_us'].map(k => positive(a.ages.map(r => r[k]))),
    live(a.live.median_us), live(a.live.width_us)],
  document.getElementById('plot-ages'));
}

/** Every node: those with errors, then the references that never had a factor against another node. */
function nodeTable() {
  const rows = data.nodes.map(n => ({...n}));
  data.factors.filter(f => !nodeRows.has(f.node))
    .forEach(f => rows.push({node: f.node, reference: f.reference, samples: 0, median_us: null, max_us: null,
      inside_pct: null, width_us: null}));
  const body = document.querySelector('#nodes tbody');
  const sparks = new IntersectionObserver(entries => entries.forEach(e => {
    if (e.isIntersecting && !e.target.dataset.drawn) {
      e.target.dataset.drawn = 'true';
      sparkline(nodeRows.get(e.target.dataset.node), e.target);
    }
  }));
  const render = () => {
    body.replaceChildren(...rows.map(r => {
      const tr = document.createElement('tr');
      tr.dataset.node = r.node;
      cell(tr, r.node);
      cell(tr, r.measured_against && r.measured_against.join() !== r.reference
        ? `${r.reference} (was ${r.measured_against.filter(x => x !== r.reference).join(', ')})` : r.reference);
      cell(tr, r.samples.toLocaleString('en'), 'num');
      [us(r.median_us), us(r.max_us), pct(r.inside_pct), us(r.width_us)].forEach(v => cell(tr, v, 'num'));
      const spark = cell(tr, '', 'spark');
      if (nodeRows.has(r.node)) {
        spark.dataset.node = r.node;
        sparks.observe(spark);
      }
      tr.addEventListener('click', () => select(r.node));
      return tr;
    }));
    // the first rows at once, the others as they scroll into view
    [...body.querySelectorAll('td.spark[data-node]')].slice(0, EAGER_SPARKLINES).forEach(td => {
      td.dataset.drawn = 'true';
      sparkline(nodeRows.get(td.dataset.node), td);
    });
  };
  let sortKey = 'max_us';
  let descending = true;
  const sort = () => {
    rows.sort((x, y) => {
      const a = x[sortKey];
      const b = y[sortKey];
      if (a === null || b === null) return a === b ? x.node.localeCompare(y.node) : a === null ? 1 : -1;
      const c = typeof a === 'string' ? a.localeCompare(b, 'en', {numeric: true}) : a - b;
      return (descending ? -c : c) || x.node.localeCompare(y.node);
    });
    document.querySelectorAll('#nodes th').forEach(th => {
      th.classList.toggle('sorted-down', th.dataset.key === sortKey && descending);
      th.classList.toggle('sorted-up', th.dataset.key === sortKey && !descending);
    });
    render();
  };
  document.querySelectorAll('#nodes th').forEach(th => th.addEventListener('click', () => {
    if (th.dataset.key === 'none') return;
    descending = th.dataset.key === sortKey ? !descending : th.classList.contains('num');
    sortKey = th.dataset.key;
    sort();
  }));
  sort();
  if (rows.length) select(rows[0].node);
}

lead();
summary();
afterTheFact();
parameters();
TracesyncForest.draw(document.getElementById('forest'), data.tree, data.factors);
nodeTable();
document.body.dataset.ready = 'true';
