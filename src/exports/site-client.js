/*
 * The static site's one script (Cairn, _site/site.js): the sidebar tree and the search box.
 * It runs from file://, so everything it needs comes from <script src> files that set a global
 * (fetch() of a local file is refused there): _site/tree.js (window.CAIRN_TREE, loaded with
 * every page) and _site/search-index.js (window.CAIRN_SEARCH, loaded when the search box is
 * first used). Without script every page still has its ancestors and children in plain links.
 *
 * CAIRN_TREE  = { v: 1, pages: [[title, emoji|null, dir, parentIndex], …] } in tree order.
 * CAIRN_SEARCH = { v: 1, words: [sorted words], postings: ["i,Δ,Δ…" base 36, one per word] }.
 * Words are what norm() and WORD make of the text; the server builds them the same way.
 */
(function () {
  "use strict";
  var body = document.body;
  var tree = window.CAIRN_TREE;
  if (!tree || tree.v !== 1) return;
  var pages = tree.pages;
  var current = Number(body.getAttribute("data-page"));
  var root = body.getAttribute("data-root") || "";
  var WORD = /[\p{L}\p{N}]+/gu;
  var MAX_WORD = 32;
  var MAX_RESULTS = 50;
  var FILE_ICON =
    '<svg width="15" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" ' +
    'stroke-linejoin="round"><path d="M6 22a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h8a2.4 2.4 0 0 1 1.704.706l3.588 3.588A2.4 2.4 0 0 1 20 ' +
    '8v12a2 2 0 0 1-2 2z"/><path d="M14 2v5a1 1 0 0 0 1 1h5"/><path d="M10 9H8"/><path d="M16 13H8"/><path d="M16 17H8"/></svg>';

  function norm(s) {
    return s
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  }
  function href(i) {
    var dir = pages[i][2];
    return root + dir.split("/").map(encodeURIComponent).join("/") + "index.html";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // ---- The tree: top level, and the branch down to the current page open.
  var children = pages.map(function () {
    return [];
  });
  var tops = [];
  pages.forEach(function (p, i) {
    if (p[3] < 0) tops.push(i);
    else children[p[3]].push(i);
  });
  var open = {};
  for (var at = current; at >= 0; at = pages[at][3]) open[at] = true;

  function row(i) {
    var li = el("li", "site-tree-item");
    var line = el("div", "tree-row" + (i === current ? " is-current" : ""));
    var kids = children[i];
    var toggle = el("button", "tree-chevron" + (kids.length ? "" : " is-leaf"));
    toggle.type = "button";
    if (kids.length) {
      toggle.setAttribute("aria-label", (open[i] ? "Collapse " : "Expand ") + pages[i][0]);
      toggle.setAttribute("aria-expanded", open[i] ? "true" : "false");
      toggle.innerHTML =
        '<svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" ' +
        'stroke-width="2" aria-hidden="true"><path d="m9 18 6-6-6-6"/></svg>';
      if (open[i]) toggle.classList.add("is-open");
      toggle.addEventListener("click", function () {
        open[i] = !open[i];
        li.replaceWith(row(i));
        var again = document.querySelector('[data-index="' + i + '"] .tree-chevron');
        if (again) again.focus();
      });
    } else {
      toggle.tabIndex = -1;
      toggle.setAttribute("aria-hidden", "true");
    }
    var link = el("a", "tree-item");
    link.href = href(i);
    var icon = el("span", "tree-icon", pages[i][1] || null);
    icon.setAttribute("aria-hidden", "true");
    // Lucide's file-text, as the app's tree draws a page without an emoji.
    if (!pages[i][1]) icon.innerHTML = FILE_ICON;
    link.appendChild(icon);
    link.appendChild(el("span", "tree-title", pages[i][0]));
    if (i === current) link.setAttribute("aria-current", "page");
    line.appendChild(toggle);
    line.appendChild(link);
    li.setAttribute("data-index", String(i));
    li.appendChild(line);
    if (kids.length && open[i]) li.appendChild(list(kids));
    return li;
  }
  function list(items) {
    var ul = el("ul", "site-tree-list");
    items.forEach(function (i) {
      ul.appendChild(row(i));
    });
    return ul;
  }
  var nav = document.getElementById("site-tree");
  if (nav) {
    nav.textContent = "";
    nav.appendChild(tops.length ? list(tops) : el("p", "tree-empty", "No pages"));
    var mine = nav.querySelector(".is-current");
    if (mine && mine.scrollIntoView) mine.scrollIntoView({ block: "nearest" });
  }

  // ---- Search: the index is loaded on first use.
  var box = document.getElementById("site-search");
  if (!box) return;
  var input = el("input", "site-search-input");
  input.type = "search";
  input.placeholder = "Search this space";
  input.setAttribute("aria-label", "Search this space");
  input.autocomplete = "off";
  var results = el("ul", "site-search-results");
  results.id = "site-search-results";
  results.hidden = true;
  var status = el("p", "site-search-status visually-hidden");
  status.setAttribute("role", "status");
  box.appendChild(input);
  box.appendChild(status);
  box.appendChild(results);

  var index = null;
  var loading = false;
  function load() {
    if (index || loading) return;
    if (window.CAIRN_SEARCH) return ready();
    loading = true;
    var s = document.createElement("script");
    s.src = root + "_site/search-index.js";
    s.onload = ready;
    s.onerror = function () {
      loading = false;
      show([], "The search index could not be loaded.");
    };
    document.head.appendChild(s);
  }
  function ready() {
    loading = false;
    var data = window.CAIRN_SEARCH;
    if (!data || data.v !== 1) return;
    index = data;
    if (input.value) run();
  }
  function firstAtLeast(words, term) {
    var lo = 0;
    var hi = words.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (words[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  function decode(list) {
    var out = [];
    var at = 0;
    list.split(",").forEach(function (d) {
      at += parseInt(d, 36);
      out.push(at);
    });
    return out;
  }
  // The pages holding a word that starts with `term` (at most 400 such words are looked at).
  function pagesWith(term) {
    var found = {};
    var words = index.words;
    for (var i = firstAtLeast(words, term), n = 0; i < words.length && n < 400 && words[i].lastIndexOf(term, 0) === 0; i++, n++) {
      decode(index.postings[i]).forEach(function (p) {
        found[p] = (found[p] || 0) + (words[i] === term ? 2 : 1);
      });
    }
    return found;
  }
  function search(query) {
    var terms = (norm(query).match(WORD) || []).map(function (t) {
      return t.slice(0, MAX_WORD);
    });
    if (!terms.length) return [];
    var score = null;
    terms.forEach(function (term) {
      var found = pagesWith(term);
      if (score === null) score = found;
      else {
        var both = {};
        Object.keys(score).forEach(function (p) {
          if (found[p]) both[p] = score[p] + found[p];
        });
        score = both;
      }
    });
    var hits = Object.keys(score).map(Number);
    // Pages whose title holds the whole query come first, then the better word matches, then tree order.
    var q = norm(query).trim();
    function rank(p) {
      return (norm(pages[p][0]).indexOf(q) >= 0 ? 1000 : 0) + score[p];
    }
    hits.sort(function (a, b) {
      return rank(b) - rank(a) || a - b;
    });
    return hits;
  }
  function trail(i) {
    var names = [];
    for (var at = pages[i][3]; at >= 0; at = pages[at][3]) names.unshift(pages[at][0]);
    return names.join(" / ");
  }
  function show(hits, message) {
    results.textContent = "";
    results.hidden = false;
    if (message) {
      results.appendChild(el("li", "site-search-empty", message));
      status.textContent = message;
      return;
    }
    hits.slice(0, MAX_RESULTS).forEach(function (p) {
      var li = el("li");
      var a = el("a", "site-search-hit");
      a.href = href(p);
      a.appendChild(el("span", "site-search-title", (pages[p][1] ? pages[p][1] + " " : "") + pages[p][0]));
      var where = trail(p);
      if (where) a.appendChild(el("span", "site-search-trail", where));
      li.appendChild(a);
      results.appendChild(li);
    });
    var summary = hits.length === 0 ? "No pages found" : hits.length + (hits.length === 1 ? " page found" : " pages found");
    if (hits.length === 0) results.appendChild(el("li", "site-search-empty", summary));
    status.textContent = summary;
  }
  function run() {
    if (!input.value.trim()) {
      results.hidden = true;
      results.textContent = "";
      return;
    }
    if (!index) {
      load();
      show([], "Loading the search index…");
      return;
    }
    show(search(input.value));
  }
  input.addEventListener("focus", load);
  input.addEventListener("input", run);
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter") {
      var first = results.querySelector("a");
      if (first) window.location.href = first.href;
    } else if (e.key === "Escape") {
      input.value = "";
      run();
    }
  });
})();
