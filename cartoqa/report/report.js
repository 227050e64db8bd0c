/* cartoqa report: renders one task's items from the JSON embedded in the page, a page
   of items at a time, with filters kept in the address's #fragment. No network. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var PER_PAGE = DATA.per_page || 50;
  var SVGNS = "http://www.w3.org/2000/svg";
  var state = { outcome: "", model: "", q: "", request: "", page: 1, overlay: false, strata: {} };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) { for (var k in attrs) { if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]); } }
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVGNS, tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function readHash() {
    var h = window.location.hash.replace(/^#/, "");
    state = { outcome: "", model: "", q: "", request: "", page: 1, overlay: false, strata: {} };
    h.split("&").forEach(function (part) {
      if (!part) return;
      var i = part.indexOf("=");
      var k = decodeURIComponent(i < 0 ? part : part.slice(0, i));
      var v = i < 0 ? "" : decodeURIComponent(part.slice(i + 1));
      if (k.indexOf("s.") === 0) state.strata[k.slice(2)] = v;
      else if (k === "page") state.page = Math.max(1, parseInt(v, 10) || 1);
      else if (k === "overlay") state.overlay = v === "1";
      else if (["outcome", "model", "q", "request"].indexOf(k) >= 0) state[k] = v;
    });
  }
  function writeHash() {
    var parts = [];
    ["outcome", "model", "q", "request"].forEach(function (k) {
      if (state[k]) parts.push(k + "=" + encodeURIComponent(state[k]));
    });
    Object.keys(state.strata).forEach(function (k) {
      if (state.strata[k]) parts.push("s." + encodeURIComponent(k) + "=" + encodeURIComponent(state.strata[k]));
    });
    if (state.overlay) parts.push("overlay=1");
    if (state.page > 1) parts.push("page=" + state.page);
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (window.location.hash !== hash) history.replaceState(null, "", hash || window.location.pathname);
  }

  function modelIndex() {
    return state.model ? DATA.models.indexOf(state.model) : -1;
  }
  function matches(item) {
    if (state.request && item.request !== state.request) return false;
    if (state.q && item.id.toLowerCase().indexOf(state.q.toLowerCase()) < 0) return false;
    for (var k in state.strata) {
      if (state.strata[k] && String((item.strata || {})[k]) !== state.strata[k]) return false;
    }
    if (state.outcome) {
      var mi = modelIndex();
      var hit = item.answers.some(function (a) {
        return (mi < 0 || a.m === mi) && a.outcome === state.outcome;
      });
      if (!hit) return false;
    }
    return true;
  }

  function drawOverlay(wrap, image, shapes) {
    var w = image.w, h = image.h;
    var layer = svg("svg", { width: w, height: h, viewBox: "0 0 " + w + " " + h, "class": "overlay" });
    shapes.forEach(function (s) {
      if (s.kind === "path") {
        layer.appendChild(svg("polyline", { points: s.points.map(function (p) { return p.join(","); }).join(" "),
          fill: "none", stroke: s.color, "stroke-width": 4, "stroke-opacity": 0.75 }));
        /* a path's label (the whole route) is in the legend under the image */
      } else if (s.kind === "point") {
        layer.appendChild(svg("circle", { cx: s.at[0], cy: s.at[1], r: 11, fill: "none",
          stroke: s.color, "stroke-width": 3 }));
        layer.appendChild(svg("text", { x: s.at[0] + 14, y: s.at[1] - 12, fill: s.color }, s.label));
      } else if (s.kind === "box") {
        layer.appendChild(svg("rect", { x: s.at[0] - 10, y: s.at[1] - 10, width: 20, height: 20,
          fill: "none", stroke: s.color, "stroke-width": 2.5 }));
        layer.appendChild(svg("text", { x: s.at[0] + 13, y: s.at[1] - 12, fill: s.color }, s.label));
      }
    });
    wrap.appendChild(layer);
  }

  function renderItem(item) {
    var box = el("section", { "class": "item", id: "item-" + item.id, "data-id": item.id });
    box.appendChild(el("h3", null, item.id));
    var strata = Object.keys(item.strata || {}).map(function (k) { return k + "=" + item.strata[k]; });
    box.appendChild(el("div", { "class": "meta" }, "request: " + item.request +
      (strata.length ? " · " + strata.join(" · ") : "")));
    var imgs = el("div", { "class": "imgs" });
    item.images.forEach(function (image, i) {
      var wrap = el("div", { "class": "imgwrap" });
      if (!image.src) {
        wrap.appendChild(el("div", { "class": "empty" }, "image missing: " + image.path));
      } else {
        var img = el("img", { src: image.src, width: image.w, height: image.h, loading: "lazy",
          alt: item.id + " image " + (i + 1), "class": (image.w < 64 ? "tiny" : null) });
        var a = el("a", { href: image.src, target: "_blank" });
        a.appendChild(img);
        wrap.appendChild(a);
        if (state.overlay && i === 0 && item.overlay && item.overlay.length) drawOverlay(wrap, image, item.overlay);
      }
      imgs.appendChild(wrap);
    });
    box.appendChild(imgs);
    if (state.overlay && item.overlay && item.overlay.length) {
      var legend = el("div", { "class": "legend" });
      item.overlay.forEach(function (s) {
        var span = el("span", null, s.label);
        span.style.color = s.color;
        legend.appendChild(span);
      });
      box.appendChild(legend);
    } else if (state.overlay) {
      box.appendChild(el("div", { "class": "legend muted" }, "nothing to overlay: the item's " +
        "provenance records no path, marker or counted feature"));
    }
    var cols = el("div", { "class": "cols" });
    var left = el("div");
    left.appendChild(el("div", { "class": "muted" }, "as shown to the model — system prompt:"));
    left.appendChild(el("pre", { "class": "system" }, DATA.systems[item.sys] || "(none)"));
    left.appendChild(el("div", { "class": "muted" }, "question:"));
    left.appendChild(el("pre", { "class": "question" }, item.question));
    var right = el("div");
    right.appendChild(el("div", { "class": "muted" }, "ground truth:"));
    right.appendChild(el("pre", { "class": "truth" }, item.truth));
    cols.appendChild(left);
    cols.appendChild(right);
    box.appendChild(cols);
    var answers = el("div", { "class": "answers" });
    var mi = modelIndex();
    item.answers.forEach(function (a) {
      if (mi >= 0 && a.m !== mi) return;
      var div = el("div", { "class": "answer " + a.outcome, "data-model": DATA.models[a.m] });
      var head = el("div");
      head.appendChild(el("b", null, DATA.models[a.m] + " "));
      head.appendChild(el("span", { "class": "badge " + a.outcome }, a.outcome));
      head.appendChild(el("span", { "class": "muted" }, " " + a.why));
      div.appendChild(head);
      div.appendChild(el("div", { "class": "muted" }, "raw response:"));
      div.appendChild(el("pre", { "class": "response" }, a.response === null ? "(no prediction)" : a.response));
      if (a.parsed !== null) {
        div.appendChild(el("div", { "class": "muted" }, "read as:"));
        div.appendChild(el("pre", { "class": "parsed" }, a.parsed));
      }
      (a.notes || []).forEach(function (n) { div.appendChild(el("div", { "class": "note" }, "note: " + n)); });
      answers.appendChild(div);
    });
    box.appendChild(answers);
    return box;
  }

  function render() {
    var shown = DATA.items.filter(matches);
    var pages = Math.max(1, Math.ceil(shown.length / PER_PAGE));
    if (state.page > pages) state.page = pages;
    var list = document.getElementById("items");
    list.textContent = "";
    var start = (state.page - 1) * PER_PAGE;
    var frag = document.createDocumentFragment();
    shown.slice(start, start + PER_PAGE).forEach(function (item) { frag.appendChild(renderItem(item)); });
    if (!shown.length) frag.appendChild(el("div", { "class": "empty" }, "No item matches the filters."));
    list.appendChild(frag);
    document.getElementById("count").textContent = shown.length + " of " + DATA.items.length + " items";
    document.getElementById("pageinfo").textContent = "page " + state.page + " of " + pages;
    document.getElementById("prev").disabled = state.page <= 1;
    document.getElementById("next").disabled = state.page >= pages;
    document.body.setAttribute("data-shown", String(shown.length));
    writeHash();
  }

  function select(id, label, values, current, onchange) {
    var wrap = el("label", null, label + " ");
    var s = el("select", { id: id });
    values.forEach(function (v) {
      var o = el("option", { value: v[0] }, v[1]);
      if (v[0] === current) o.selected = true;
      s.appendChild(o);
    });
    s.addEventListener("change", function () { onchange(s.value); state.page = 1; render(); });
    wrap.appendChild(s);
    return wrap;
  }

  function buildFilters() {
    var bar = document.getElementById("filters");
    bar.textContent = "";
    bar.appendChild(select("f-task", "task", DATA.tasks.map(function (t) { return [t.page, t.task]; }),
      DATA.page, function (v) {
        /* another task has other requests and strata: carry the model, outcome, search
           and overlay only */
        var keep = [];
        ["outcome", "model", "q"].forEach(function (k) {
          if (state[k]) keep.push(k + "=" + encodeURIComponent(state[k]));
        });
        if (state.overlay) keep.push("overlay=1");
        window.location.href = v + (keep.length ? "#" + keep.join("&") : "");
      }));
    if (DATA.requests.length > 1) {
      bar.appendChild(select("f-request", "request", [["", "any"]].concat(DATA.requests.map(function (r) { return [r, r]; })),
        state.request, function (v) { state.request = v; }));
    }
    Object.keys(DATA.strata).forEach(function (k) {
      bar.appendChild(select("f-s-" + k, k, [["", "any"]].concat(DATA.strata[k].map(function (v) { return [v, v]; })),
        state.strata[k] || "", function (v) { state.strata[k] = v; }));
    });
    if (DATA.models.length) {
      bar.appendChild(select("f-outcome", "outcome", [["", "any"], ["correct", "correct"], ["wrong", "wrong"], ["invalid", "invalid"]],
        state.outcome, function (v) { state.outcome = v; }));
      bar.appendChild(select("f-model", "model", [["", "all models"]].concat(DATA.models.map(function (m) { return [m, m]; })),
        state.model, function (v) { state.model = v; }));
    }
    var search = el("input", { id: "f-q", type: "search", placeholder: "search by id", size: 16 });
    search.value = state.q;
    search.addEventListener("input", function () { state.q = search.value.trim(); state.page = 1; render(); });
    bar.appendChild(search);
    var ov = el("label", null, " ground-truth overlay ");
    var box = el("input", { id: "f-overlay", type: "checkbox" });
    box.checked = state.overlay;
    box.addEventListener("change", function () { state.overlay = box.checked; render(); });
    ov.appendChild(box);
    bar.appendChild(ov);
    var pager = el("span", { "class": "pager" });
    var prev = el("button", { id: "prev", type: "button" }, "◀ previous");
    var next = el("button", { id: "next", type: "button" }, "next ▶");
    prev.addEventListener("click", function () { state.page -= 1; render(); window.scrollTo(0, 0); });
    next.addEventListener("click", function () { state.page += 1; render(); window.scrollTo(0, 0); });
    pager.appendChild(prev);
    pager.appendChild(el("span", { id: "pageinfo" }));
    pager.appendChild(next);
    bar.appendChild(pager);
    bar.appendChild(el("b", { id: "count" }));
  }

  readHash();
  buildFilters();
  render();
  window.addEventListener("hashchange", function () { readHash(); buildFilters(); render(); });
  document.body.setAttribute("data-ready", "1");
})();
