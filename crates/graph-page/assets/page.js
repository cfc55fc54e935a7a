// wellknown graph --format html: the page around cytoscape.js (panel, search, filters, legend).
//
// Every value shown comes from scanned documents and is untrusted: it is put on the page with
// textContent (or drawn on the canvas by cytoscape), never as markup; a link is made only for an
// http(s) value. The data was embedded as JSON with <, >, & escaped (src/embed.rs).
(function () {
  'use strict';

  var timings = { start: performance.now() };
  var data = JSON.parse(document.getElementById('wellknown-data').textContent);
  timings.parsed = performance.now();
  var meta = data.meta;

  var KIND_COLOURS = {
    origin: '#1f77b4', document: '#7f7f7f', url: '#2ca02c', host: '#ff7f0e', issuer: '#9467bd',
    endpoint: '#d62728', contact: '#e377c2', app: '#17becf', key: '#bcbd22', path: '#8c564b',
    sitemap: '#98df8a'
  };
  var OTHER_KIND = '#c7c7c7';
  var STATUS_COLOURS = {
    alive: '#2ca02c', redirect: '#1f77b4', auth_required: '#ff7f0e', gone: '#d62728', error: '#d62728',
    dns: '#8b0000', connect: '#8b0000', tls: '#8b0000', timeout: '#8b0000', failure: '#8b0000',
    out_of_scope: '#999999', disallowed_by_robots: '#999999', private_address: '#999999', skipped: '#999999'
  };
  var STATE_STYLES = { listed: 'solid', withdrawn: 'dashed', unanswered: 'dotted' };

  function kindColour(kind) { return KIND_COLOURS[kind] || OTHER_KIND; }
  function statusColour(status) { return STATUS_COLOURS[status] || '#555555'; }
  // A badge: a disc of the status colour, from constants only (no data in the SVG).
  var badges = {};
  function badge(status) {
    var colour = statusColour(status);
    if (!badges[colour]) {
      badges[colour] = 'data:image/svg+xml;utf8,' + encodeURIComponent(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="8" fill="' +
        colour + '" stroke="#ffffff" stroke-width="3"/></svg>');
    }
    return badges[colour];
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function isHttp(v) { return typeof v === 'string' && /^https?:\/\//i.test(v); }
  // A value as text, linked only when it is an http(s) URL.
  function valueNode(v) {
    if (isHttp(v)) {
      var a = el('a', v, 'value');
      a.href = v;
      a.rel = 'noopener noreferrer nofollow';
      a.target = '_blank';
      return a;
    }
    return el('span', v, 'value');
  }
  function scopeName(s) { return s === true ? 'in scope' : s === false ? 'out of scope' : 'scope not recorded'; }
  function scopeKey(s) { return s === true ? 'in' : s === false ? 'out' : 'unknown'; }
  function short(v, n) { return v.length > n ? v.slice(0, n - 1) + '…' : v; }
  function plural(kind, n) { return n === 1 ? kind : kind + 's'; }

  function label(n) {
    if (n.kind === 'collapsed') { return n.count + ' ' + plural(n.of, n.count); }
    if (n.kind === 'document') {
      var m = /^[a-z][a-z0-9+.-]*:\/\/[^\/?#]*(.*)$/i.exec(n.value);
      return short(m && m[1] ? m[1] : n.value, 40);
    }
    return short(n.value, 40);
  }

  // ---- elements --------------------------------------------------------------------------------
  var byId = {};
  var byKey = {};
  var elements = [];
  data.nodes.forEach(function (n) {
    byId[n.id] = n;
    if (n.kind !== 'collapsed') { byKey[n.kind + '\u0000' + n.value] = n.id; }
    var status = n.verification && n.verification.status ? n.verification.status : 'none';
    var d = {
      id: n.id, label: label(n), kind: n.kind, filterKind: n.kind === 'collapsed' ? n.of : n.kind,
      colour: kindColour(n.kind === 'collapsed' ? n.of : n.kind), scope: n.kind === 'collapsed' ? 'any' : scopeKey(n.in_scope),
      status: n.kind === 'collapsed' ? 'any' : status, rank: n.kind === 'origin' ? 3 : n.kind === 'document' ? 2 : 1
    };
    if (status !== 'none') { d.badge = badge(status); }
    elements.push({ group: 'nodes', data: d, classes: n.kind === 'collapsed' ? 'collapsed' : (status !== 'none' ? 'verified' : '') });
  });
  data.edges.forEach(function (e) {
    elements.push({ group: 'edges', data: {
      id: e.id, source: e.source, target: e.target, relation: e.relation,
      width: 1 + 4 * (typeof e.confidence === 'number' ? e.confidence : 0.2),
      line: e.derived ? 'dashed' : (STATE_STYLES[e.state] || 'solid')
    }, classes: e.derived ? 'derived' : '' });
  });
  var edgeById = {};
  data.edges.forEach(function (e) {
    edgeById[e.id] = e;
    // A sighting without document_url was made in the edge's source document (src/html.rs, compact).
    var src = byId[e.source];
    (e.evidence || []).forEach(function (ev) {
      if (ev.document_url === undefined && src) { ev.document_url = src.value; }
    });
  });

  var useCose = data.nodes.length <= meta.caps.cose_max_nodes;
  var layoutName = useCose ? 'cose (force-directed)' : 'one box per origin, concentric inside (cytoscape concentric)';

  var cy = cytoscape({
    container: document.getElementById('cy'),
    elements: elements,
    wheelSensitivity: 0.3,
    pixelRatio: 1,
    hideEdgesOnViewport: data.edges.length > 5000,
    textureOnViewport: data.nodes.length > 5000,
    style: [
      { selector: 'node', style: {
        'background-color': 'data(colour)', 'label': 'data(label)', 'font-size': 9, 'min-zoomed-font-size': 7,
        'text-valign': 'bottom', 'text-margin-y': 2, 'width': 14, 'height': 14, 'border-width': 1, 'border-color': '#555'
      } },
      { selector: 'node[kind = "origin"]', style: { 'shape': 'diamond', 'width': 22, 'height': 22 } },
      { selector: 'node[kind = "document"]', style: { 'shape': 'round-rectangle', 'width': 18, 'height': 14 } },
      { selector: 'node.collapsed', style: {
        'shape': 'round-rectangle', 'width': 34, 'height': 20, 'border-width': 3, 'border-style': 'double',
        'border-color': 'data(colour)', 'background-color': '#ffffff', 'font-weight': 'bold'
      } },
      { selector: 'node[badge]', style: {
        'background-image': 'data(badge)', 'background-width': '60%', 'background-height': '60%',
        'background-position-x': '100%', 'background-position-y': '0%', 'background-clip': 'none',
        'bounds-expansion': 4, 'background-image-containment': 'over'
      } },
      { selector: 'edge', style: {
        'width': 'data(width)', 'line-style': 'data(line)', 'line-color': '#b0b0b0', 'curve-style': 'haystack',
        'opacity': 0.8
      } },
      { selector: 'edge.derived', style: { 'line-color': '#9ecae1' } },
      { selector: '.hidden', style: { 'display': 'none' } },
      { selector: '.faded', style: { 'opacity': 0.15 } },
      { selector: 'node.match', style: { 'border-width': 4, 'border-color': '#ffbf00' } },
      { selector: ':selected', style: { 'border-width': 4, 'border-color': '#000', 'line-color': '#000' } }
    ],
    layout: { name: 'preset' }
  });

  timings.drawn = performance.now();
  var ready = false;
  // Small graphs: cytoscape's force-directed cose over everything. Large ones: one cluster per
  // origin (the origin, its documents, what they declare; a node declared by several origins sits
  // with the first), each laid out by cytoscape's concentric layout in a box of its own, the boxes in
  // rows. Nodes no origin reaches form one last cluster.
  function clusters() {
    var seen = {};
    var list = [];
    function take(node, members) { if (!seen[node.id()]) { seen[node.id()] = true; members.push(node); return true; } return false; }
    cy.nodes('[kind = "origin"]').forEach(function (origin) {
      var members = [];
      if (!take(origin, members)) { return; }
      origin.outgoers('node').forEach(function (doc) {
        if (take(doc, members)) {
          doc.outgoers('node').forEach(function (t) { take(t, members); });
        }
      });
      list.push(members);
    });
    var rest = [];
    cy.nodes().forEach(function (n) { take(n, rest); });
    if (rest.length) { list.push(rest); }
    return list;
  }
  function clusterLayout() {
    var list = clusters();
    var total = 0;
    var boxes = list.map(function (members) {
      var side = Math.max(60, Math.sqrt(members.length) * 28);
      total += side * side;
      return side;
    });
    var rowWidth = Math.max(600, Math.sqrt(total) * 1.2);
    var x = 0, y = 0, rowHeight = 0;
    list.forEach(function (members, i) {
      var side = boxes[i];
      if (x > 0 && x + side > rowWidth) { x = 0; y += rowHeight + 30; rowHeight = 0; }
      cy.collection(members).layout({
        name: 'concentric', animate: false, fit: false, avoidOverlap: false, minNodeSpacing: 4,
        boundingBox: { x1: x, y1: y, w: side, h: side },
        concentric: function (n) { return n.data('rank'); }, levelWidth: function () { return 1; }
      }).run();
      x += side + 30;
      rowHeight = Math.max(rowHeight, side);
    });
  }
  function runLayout() {
    if (useCose) {
      var layout = cy.layout({ name: 'cose', animate: false, randomize: true, numIter: 1000,
        nodeDimensionsIncludeLabels: false, componentSpacing: 60 });
      layout.one('layoutstop', done);
      layout.run();
    } else {
      cy.batch(clusterLayout);
      done();
    }
    function done() { timings.laidOut = performance.now(); cy.fit(undefined, 20); ready = true; document.body.setAttribute('data-ready', 'true'); }
  }

  // ---- panel -----------------------------------------------------------------------------------
  var panelTitle = document.getElementById('panel-title');
  var panelBody = document.getElementById('panel-body');

  function kvTable(rows) {
    var t = el('table', null, 'kv');
    rows.forEach(function (r) {
      if (r[1] === undefined || r[1] === null || r[1] === '') { return; }
      var tr = el('tr');
      tr.appendChild(el('th', r[0]));
      var td = el('td');
      if (r[1] instanceof Node) { td.appendChild(r[1]); } else { td.textContent = String(r[1]); }
      tr.appendChild(td);
      t.appendChild(tr);
    });
    return t;
  }
  function statusBadge(status) {
    var b = el('span', status, 'badge');
    b.style.backgroundColor = statusColour(status);
    return b;
  }
  function locatorText(loc) {
    if (loc === null || loc === undefined) { return null; }
    if (typeof loc !== 'object') { return String(loc); }
    return Object.keys(loc).map(function (k) {
      var v = loc[k];
      return k + ' ' + (typeof v === 'object' ? JSON.stringify(v) : String(v));
    }).join(', ');
  }
  function jsonText(v) {
    if (v === null || v === undefined) { return null; }
    if (Array.isArray(v) && v.length === 0) { return null; }
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) { return null; }
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  function sighting(ev) {
    var box = el('div', null, 'sighting');
    box.appendChild(kvTable([
      ['document', ev.document_url !== undefined ? valueNode(ev.document_url) : null],
      ['fetched at', ev.fetched_at], ['status', ev.status], ['probe', ev.probe], ['scan', ev.scan],
      ['locator', locatorText(ev.locator)], ['hints', jsonText(ev.hints)], ['flags', jsonText(ev.flags)]
    ]));
    return box;
  }
  function verificationRows(v) {
    if (!v) { return [['verdict', 'not verified']]; }
    return [['verdict', statusBadge(v.status)], ['http status', v.http_status], ['method', v.method],
      ['verified at', v.verified_at], ['failure', v.failure], ['target', v.target], ['verdict scan', v.scan]];
  }
  function relationSection(e, heading) {
    var s = el('div');
    s.appendChild(el('h3', heading));
    s.appendChild(kvTable([
      ['relation', e.relation], ['confidence', e.confidence], ['state', e.state], ['corroborating', e.corroborating],
      ['first seen', e.first_seen], ['last seen', e.last_seen]
    ]));
    var evs = e.evidence || [];
    if (e.derived) {
      s.appendChild(el('p', 'Derived from the document URL (no evidence of its own).', 'muted'));
    }
    evs.forEach(function (ev) { s.appendChild(sighting(ev)); });
    if (e.evidence_count > evs.length) {
      s.appendChild(el('p', (e.evidence_count - evs.length) + ' more sightings not embedded (at most ' +
        meta.caps.evidence_per_relation + ' per relation).', 'muted'));
    }
    return s;
  }

  function showNode(n) {
    panelBody.textContent = '';
    panelTitle.textContent = n.kind === 'collapsed' ? 'Collapsed ' + plural(n.of, 2) : n.kind;
    if (n.kind === 'collapsed') { showCollapsed(n); return; }
    panelBody.appendChild(valueNode(n.value));
    var rows = [['kind', n.kind], ['scope', scopeName(n.in_scope)], ['confidence', n.confidence], ['first seen', n.first_seen]];
    if (n.kind !== 'document' && !n.derived) { rows = rows.concat(verificationRows(n.verification)); }
    panelBody.appendChild(kvTable(rows));
    if (n.document) {
      panelBody.appendChild(el('h3', 'Latest fetch'));
      var d = n.document;
      panelBody.appendChild(kvTable([
        ['fetched at', d.fetched_at], ['status', d.status], ['failure', d.failure], ['probe', d.probe],
        ['document kind', d.kind], ['valid', d.valid], ['sha256', d.sha256], ['scan', d.scan],
        ['not attempted', d.not_attempted ? 'yes (origin failed at the connection level)' : null]
      ]));
    }
    if (n.derived) { panelBody.appendChild(el('p', 'Origin derived from its documents\' URLs.', 'muted')); }
    var node = cy.getElementById(n.id);
    var incoming = node.incomers('edge');
    incoming.forEach(function (edge) {
      var e = edgeById[edge.id()] || edge.data('record');
      if (!e) { return; }
      var src = byId[e.source] || {};
      var sec = relationSection(e, (e.derived ? 'Served by ' : 'Declared by ') + (src.value || e.source));
      panelBody.appendChild(sec);
    });
    var out = node.outgoers('edge');
    if (out.length > 0) {
      panelBody.appendChild(el('h3', 'Declares'));
      var counts = {};
      out.forEach(function (edge) { var r = edge.data('relation'); counts[r] = (counts[r] || 0) + 1; });
      panelBody.appendChild(kvTable(Object.keys(counts).sort().map(function (r) { return [r, counts[r] + ' edge(s)']; })));
    }
  }

  function showEdge(e) {
    panelBody.textContent = '';
    panelTitle.textContent = 'Relation';
    var src = byId[e.source] || {}, tgt = byId[e.target] || e.targetNode || {};
    panelBody.appendChild(kvTable([['from', valueNode(src.value || '')], ['to', tgt.value !== undefined ? valueNode(tgt.value) : (tgt.count + ' ' + plural(tgt.of || '', tgt.count))]]));
    panelBody.appendChild(relationSection(e, 'Evidence'));
    if (tgt.kind && tgt.kind !== 'collapsed' && tgt.kind !== 'document' && !e.derived) {
      panelBody.appendChild(el('h3', 'Verdict on the target'));
      panelBody.appendChild(kvTable(verificationRows(tgt.verification)));
    }
  }

  function withBase(base, ev) {
    var o = {};
    Object.keys(base || {}).forEach(function (k) { o[k] = base[k]; });
    Object.keys(ev).forEach(function (k) { o[k] = ev[k]; });
    return o;
  }

  function showCollapsed(n) {
    var src = byId[n.source] || {};
    panelBody.appendChild(el('p', n.count + ' ' + plural(n.of, n.count) + ' declared by relation ' + n.relation + ' of'));
    panelBody.appendChild(valueNode(src.value || ''));
    panelBody.appendChild(kvTable([
      ['listed here', n.values.length + ' of ' + n.count],
      ['not listed', n.not_kept ? n.not_kept + ' (at most ' + meta.caps.values_per_group + ' per collapsed node, ' + meta.caps.values_total + ' per page)' : null],
      ['max confidence', n.max_confidence],
      ['states', jsonText(n.states)]
    ]));
    if (n.base && Object.keys(n.base).length) {
      panelBody.appendChild(el('h3', 'Common evidence'));
      panelBody.appendChild(sighting(n.base));
    }
    var node = cy.getElementById(n.id);
    if (!node.data('expanded') && n.values.length) {
      var b = el('button', 'Expand: draw the ' + n.values.length + ' listed ' + plural(n.of, n.values.length), 'expand');
      b.addEventListener('click', function () { expand(n); showNode(n); });
      panelBody.appendChild(b);
    }
    panelBody.appendChild(el('h3', 'Values'));
    n.values.forEach(function (value) {
      var v = withBase(n.relation_base, value);
      var box = el('div', null, 'sighting');
      box.appendChild(valueNode(v.value));
      box.appendChild(kvTable([
        ['scope', scopeName(v.in_scope)], ['verdict', v.status ? statusBadge(v.status) : 'not verified'],
        ['http status', v.http_status], ['confidence', v.confidence], ['state', v.state]
      ]));
      (v.evidence || []).forEach(function (ev) { box.appendChild(sighting(withBase(n.base, ev))); });
      if (v.evidence_count > (v.evidence || []).length) {
        box.appendChild(el('p', (v.evidence_count - v.evidence.length) + ' more sightings not embedded (at most ' +
          meta.caps.evidence_per_value + ' per value).', 'muted'));
      }
      panelBody.appendChild(box);
    });
  }

  // Draws a collapsed node's listed values as nodes around it (cytoscape's circle layout).
  function expand(n) {
    var centre = cy.getElementById(n.id);
    if (centre.data('expanded')) { return; }
    var added = [];
    n.values.forEach(function (value, i) {
      var v = withBase(n.relation_base, value);
      var key = n.of + '\u0000' + v.value;
      var id = byKey[key];
      if (!id) {
        id = n.id + '-' + i;
        byKey[key] = id;
        var status = v.status || 'none';
        var rec = { id: id, kind: n.of, value: v.value, in_scope: v.in_scope, confidence: v.node_confidence,
          verification: v.status ? { status: v.status, http_status: v.http_status } : null };
        byId[id] = rec;
        var d = { id: id, label: label(rec), kind: n.of, filterKind: n.of, colour: kindColour(n.of),
          scope: scopeKey(v.in_scope), status: status, rank: 1 };
        if (status !== 'none') { d.badge = badge(status); }
        added.push({ group: 'nodes', data: d });
      }
      var eid = n.id + '-e' + i;
      edgeById[eid] = { id: eid, source: n.source, target: id, relation: n.relation, confidence: v.confidence,
        state: v.state, corroborating: v.corroborating, first_seen: v.first_seen, last_seen: v.last_seen,
        evidence: (v.evidence || []).map(function (ev) { return withBase(n.base, ev); }), evidence_count: v.evidence_count };
      added.push({ group: 'edges', data: { id: eid, source: n.source, target: id, relation: n.relation,
        width: 1 + 4 * (typeof v.confidence === 'number' ? v.confidence : 0.2), line: STATE_STYLES[v.state] || 'solid' } });
    });
    var eles = cy.add(added);
    var p = centre.position();
    var r = Math.max(60, Math.sqrt(n.values.length) * 25);
    eles.nodes().layout({ name: 'circle', animate: false, fit: false,
      boundingBox: { x1: p.x - r, y1: p.y - r, w: 2 * r, h: 2 * r } }).run();
    centre.data('expanded', true);
    centre.data('label', centre.data('label') + ' (expanded)');
    applyFilters();
  }

  cy.on('tap', 'node', function (evt) { var n = byId[evt.target.id()]; if (n) { showNode(n); } });
  cy.on('tap', 'edge', function (evt) { var e = edgeById[evt.target.id()]; if (e) { showEdge(e); } });

  // ---- filters, search, legend -----------------------------------------------------------------
  function distinct(get) {
    var seen = {};
    cy.nodes().forEach(function (n) { seen[get(n)] = true; });
    return Object.keys(seen).sort();
  }
  var filters = { filterKind: {}, scope: {}, status: {} };
  function checkboxes(fieldset, field, values, name) {
    var box = document.getElementById(fieldset);
    values.forEach(function (v) {
      if (v === 'any') { return; }
      filters[field][v] = true;
      var l = el('label');
      var c = el('input');
      c.type = 'checkbox';
      c.checked = true;
      c.addEventListener('change', function () { filters[field][v] = c.checked; applyFilters(); });
      l.appendChild(c);
      if (field === 'filterKind') {
        var sw = el('span', null, 'swatch');
        sw.style.backgroundColor = kindColour(v);
        l.appendChild(sw);
      }
      l.appendChild(document.createTextNode(name(v)));
      box.appendChild(l);
    });
  }
  function applyFilters() {
    cy.batch(function () {
      cy.nodes().forEach(function (n) {
        var ok = filters.filterKind[n.data('filterKind')] !== false &&
          (n.data('scope') === 'any' || filters.scope[n.data('scope')] !== false) &&
          (n.data('status') === 'any' || filters.status[n.data('status')] !== false);
        if (ok) { n.removeClass('hidden'); } else { n.addClass('hidden'); }
      });
    });
    updateSummary();
  }

  var searchBox = document.getElementById('search');
  var searchResult = document.getElementById('search-result');
  function search() {
    var q = searchBox.value.trim().toLowerCase();
    searchResult.textContent = '';
    cy.batch(function () {
      cy.elements().removeClass('faded').removeClass('match');
      if (!q) { return; }
      var matches = cy.nodes().filter(function (node) {
        var n = byId[node.id()];
        if (!n) { return false; }
        if (n.kind === 'collapsed') {
          return n.values.some(function (v) { return v.value.toLowerCase().indexOf(q) >= 0; });
        }
        return n.value.toLowerCase().indexOf(q) >= 0;
      });
      cy.elements().addClass('faded');
      matches.removeClass('faded').addClass('match');
      searchResult.appendChild(el('div', matches.length + ' matching node(s)', 'muted'));
      matches.slice(0, 30).forEach(function (node) {
        var n = byId[node.id()];
        var b = el('button', n.kind === 'collapsed' ? label(n) + ' (holds a match)' : n.value);
        b.addEventListener('click', function () { focus(node.id()); showNode(n); });
        searchResult.appendChild(b);
      });
    });
  }
  searchBox.addEventListener('input', search);

  function legend() {
    var box = document.getElementById('legend');
    function row(swatchStyle, text) {
      var r = el('div', null, 'legend-row');
      var s = el('span', null, 'swatch');
      Object.keys(swatchStyle).forEach(function (k) { s.style[k] = swatchStyle[k]; });
      r.appendChild(s);
      r.appendChild(document.createTextNode(text));
      box.appendChild(r);
    }
    box.appendChild(el('div', 'Colour: kind (see the Kind filter). Shape: ◆ origin, ▭ document, ● candidate, double border: a collapsed group "N kinds".', 'muted'));
    box.appendChild(el('div', 'Badge (top-right disc): verification verdict.', 'muted'));
    Object.keys(STATUS_COLOURS).forEach(function (s) { row({ backgroundColor: STATUS_COLOURS[s], borderRadius: '6px' }, s); });
    box.appendChild(el('div', 'Edges: width = relation confidence (0 to 1); solid listed, dashed withdrawn, dotted unanswered; light blue dashed: origin serves document (derived from the URL).', 'muted'));
    box.appendChild(el('div', 'Scope is a filter (in scope, out of scope, not recorded: documents and derived origins).', 'muted'));
  }

  function notes() {
    var ul = document.getElementById('notes');
    var s = meta.stats;
    function li(t) { ul.appendChild(el('li', t)); }
    li('Made ' + meta.generated_at + ' by wellknown graph --format html; nothing is fetched by this page.');
    li('Scans: ' + (meta.scans.length ? meta.scans.map(function (x) { return x.id + ' (' + x.started_at + ' to ' + (x.finished_at || 'unfinished') + ')'; }).join('; ') : 'none'));
    if (meta.selection) { li('Selection: ' + meta.selection); }
    li('Graph: ' + s.nodes + ' nodes, ' + s.relations + ' relations; drawn: ' + s.nodes_drawn + ' nodes, ' + s.edges_drawn + ' edges.');
    li('Aggregation: the targets of one relation of one document, of one kind, beyond ' + meta.caps.collapse_above +
      ' are one node "N kinds" (expand it from its panel). Collapsed here: ' + s.relations_collapsed + ' relations in ' + s.groups_collapsed + ' nodes.');
    li('Caps: at most ' + meta.caps.values_per_group + ' values listed per collapsed node and ' + meta.caps.values_total +
      ' in the page (' + s.values_not_kept + ' counted, not listed); at most ' + meta.caps.evidence_per_relation +
      ' sightings per relation and ' + meta.caps.evidence_per_value + ' per collapsed value (' + s.evidence_not_kept + ' not embedded).');
    if (s.vhosts) { li(s.vhosts + ' virtual-host records are not drawn (wellknown graph --format jsonl lists them).'); }
    li('Layout: ' + layoutName + (useCose ? '' : ', past ' + meta.caps.cose_max_nodes + ' nodes') + '. Library: cytoscape.js ' + meta.library_version + '.');
    li('Values come from scanned documents: shown as text, never run.');
  }

  function updateSummary() {
    var visible = cy.nodes().filter(function (n) { return !n.hasClass('hidden'); }).length;
    document.getElementById('summary').textContent = visible + ' of ' + cy.nodes().length + ' nodes shown, ' +
      cy.edges().length + ' edges; ' + meta.stats.relations_collapsed + ' relations in ' + meta.stats.groups_collapsed + ' collapsed nodes';
  }

  function focus(id) {
    var node = cy.getElementById(id);
    if (node.empty()) { return null; }
    cy.zoom(Math.max(cy.zoom(), 1.5));
    cy.center(node);
    return node;
  }

  checkboxes('filter-kind', 'filterKind', distinct(function (n) { return n.data('filterKind'); }), function (v) { return v; });
  checkboxes('filter-scope', 'scope', distinct(function (n) { return n.data('scope'); }),
    function (v) { return v === 'in' ? 'in scope' : v === 'out' ? 'out of scope' : 'not recorded'; });
  checkboxes('filter-status', 'status', distinct(function (n) { return n.data('status'); }),
    function (v) { return v === 'none' ? 'not verified' : v; });
  legend();
  notes();
  updateSummary();
  runLayout();

  // For tests and the curious: counts, lookups and positions on the page.
  window.wellknownGraph = {
    isReady: function () { return ready; },
    // Milliseconds since navigation: script start, data parsed, elements made, layout done.
    timings: function () { return timings; },
    nodeCount: function () { return cy.nodes().length; },
    edgeCount: function () { return cy.edges().length; },
    nodeId: function (kind, value) { return byKey[kind + '\u0000' + value] || null; },
    collapsedIds: function () { return cy.nodes('.collapsed').map(function (n) { return n.id(); }); },
    // Centres the node, then gives its position in the window's CSS pixels.
    clientPosition: function (id) {
      var node = focus(id);
      if (!node) { return null; }
      var box = cy.container().getBoundingClientRect();
      var p = node.renderedPosition();
      return { x: Math.round(box.left + p.x), y: Math.round(box.top + p.y) };
    },
    panelText: function () { return document.getElementById('panel').textContent; },
    cy: cy
  };
})();
