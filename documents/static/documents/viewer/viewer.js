// The admin's document viewer (documents/admin/viewer.py): one page at a time
// from the admin's page images, a strip of pages loaded as they scroll into
// view, zoom, keys, a search whose hits are drawn over the pages, and the
// annotations and redaction areas of the document. No library: the admin works
// offline. Pages count from 1 on screen, from 0 in the URLs it reads.
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var ZOOMS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4];
  var PX_PER_POINT = 96 / 72;
  var MOST_HITS = 2000;
  var LAYERS = { annotations: "annotations", redactions: "redactions", hits: "search hits" };

  function el(tag, attrs, parent) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function svg(tag, attrs, parent) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function titled(node, text) {
    if (text) svg("title", {}, node).textContent = text;
    return node;
  }

  function Viewer(root, config) {
    this.root = root;
    this.config = config;
    this.pages = config.pages;
    this.count = config.pages.length;
    this.page = Math.min(Math.max(config.start || 0, 0), this.count - 1);
    this.zoom = null; // null: fit the width
    this.hits = [];
    this.hitsByPage = {};
    this.current = -1;
    this.search = 0; // the running search's number: older answers are dropped
    this.texts = {};
    this.shown = { annotations: true, redactions: true, hits: true };
    this.shapes = {};
    var self = this;
    (config.shapes || []).forEach(function (s) {
      (self.shapes[s.p] = self.shapes[s.p] || []).push(s);
    });
    this.find = function (css) { return root.querySelector(css); };
    this.stage = this.find(".ts-v-stage");
    this.box = this.find(".ts-v-page");
    this.image = this.find(".ts-v-image");
    this.overlay = this.find(".ts-v-overlay");
    this.textLayer = this.find(".ts-v-text");
    this.pageno = this.find(".ts-v-pageno");
    this.zoomLabel = this.find(".ts-v-zoom");
    this.found = this.find(".ts-v-found");
    this.list = this.find(".ts-v-hits");
    this.query = this.find(".ts-v-query");
    this.layers();
    this.thumbs();
    this.wire();
    this.show(this.page);
    if (config.query) this.run(config.query);
  }

  Viewer.prototype.url = function (n, width) {
    return this.config.image.replace("{n}", n).replace("{w}", width);
  };

  // --- layers: check boxes for what is drawn over the pages ----------------------

  Viewer.prototype.layers = function () {
    var self = this;
    var counts = { annotations: 0, redactions: 0 };
    (this.config.shapes || []).forEach(function (s) { counts[s.l] = (counts[s.l] || 0) + 1; });
    var holder = this.find(".ts-v-layers");
    Object.keys(counts).forEach(function (name) {
      if (!counts[name]) return;
      var label = el("label", { class: "ts-v-layer ts-v-layer-" + name }, holder);
      var box = el("input", { type: "checkbox", value: name }, label);
      box.checked = true;
      label.appendChild(document.createTextNode(" " + LAYERS[name] + " (" + counts[name] + ")"));
      box.addEventListener("change", function () {
        self.shown[name] = box.checked;
        self.draw();
      });
    });
  };

  // --- the strip of pages: images only for the pages scrolled into view -----------

  Viewer.prototype.thumbs = function () {
    var self = this;
    var strip = this.find(".ts-v-thumbs");
    var load = function (img) {
      if (!img.getAttribute("src")) img.setAttribute("src", self.url(img.dataset.page, 96));
    };
    var watch = "IntersectionObserver" in window
      ? new IntersectionObserver(function (entries) {
        entries.forEach(function (entry) {
          if (entry.isIntersecting) { load(entry.target); watch.unobserve(entry.target); }
        });
      }, { root: strip, rootMargin: "300px 0px" })
      : null;
    var made = document.createDocumentFragment();
    this.pages.forEach(function (size, n) {
      var button = el("button", { type: "button", class: "ts-v-thumb", "data-page": n,
        title: "page " + (n + 1), "aria-label": "page " + (n + 1) }, made);
      var img = el("img", { alt: "", "data-page": n }, button);
      img.style.aspectRatio = size[0] + " / " + size[1];
      el("span", {}, button).textContent = n + 1;
      if (watch) watch.observe(img); else load(img);
    });
    strip.appendChild(made);
    strip.addEventListener("click", function (event) {
      var button = event.target.closest(".ts-v-thumb");
      if (button) self.show(parseInt(button.dataset.page, 10));
    });
    this.strip = strip;
  };

  // --- one page -------------------------------------------------------------------

  Viewer.prototype.scale = function () {
    // CSS pixels per point of the page shown.
    var size = this.pages[this.page];
    if (this.zoom !== null) return this.zoom * PX_PER_POINT;
    var room = Math.max(120, this.stage.clientWidth - 32);
    return room / size[0];
  };

  Viewer.prototype.show = function (n) {
    if (isNaN(n)) return;
    n = Math.min(Math.max(n, 0), this.count - 1);
    var turned = n !== this.page;
    this.page = n;
    var size = this.pages[n];
    var scale = this.scale();
    var width = Math.round(size[0] * scale);
    this.box.style.width = width + "px";
    this.box.style.height = Math.round(size[1] * scale) + "px";
    var wanted = width * (window.devicePixelRatio || 1);
    var widths = this.config.widths;
    var pick = widths[widths.length - 1];
    for (var i = 0; i < widths.length; i++) {
      if (widths[i] >= wanted) { pick = widths[i]; break; }
    }
    var src = this.url(n, pick);
    if (this.image.getAttribute("src") !== src) this.image.setAttribute("src", src);
    this.image.alt = "page " + (n + 1);
    this.pageno.value = n + 1;
    this.root.dataset.page = n + 1;
    var percent = Math.round((scale / PX_PER_POINT) * 100);
    this.zoomLabel.textContent = (this.zoom === null ? "fit " : "") + percent + " %";
    this.draw();
    this.text();
    var thumb = this.strip.querySelector('[data-page="' + n + '"].ts-v-thumb');
    var was = this.strip.querySelector(".ts-v-current");
    if (was) was.classList.remove("ts-v-current");
    if (thumb) {
      thumb.classList.add("ts-v-current");
      var top = thumb.offsetTop - this.strip.offsetTop;
      if (top < this.strip.scrollTop || top + thumb.offsetHeight > this.strip.scrollTop + this.strip.clientHeight) {
        this.strip.scrollTop = top - this.strip.clientHeight / 3;
      }
    }
    if (turned) {
      this.stage.scrollTop = 0;
      this.stage.scrollLeft = 0;
      this.remember();
    }
    if (n + 1 < this.count) (new Image()).src = this.url(n + 1, pick); // the next page is ready
  };

  Viewer.prototype.remember = function () {
    // ?page=N (from 1) in the address: a URL people can send.
    if (!window.history || !history.replaceState) return;
    var params = new URLSearchParams(location.search);
    params.set("page", this.page + 1);
    history.replaceState(null, "", location.pathname + "?" + params.toString() + location.hash);
  };

  // --- what is drawn over the page, in points (the page's own coordinates) ---------

  Viewer.prototype.draw = function () {
    var size = this.pages[this.page];
    var layer = this.overlay;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    layer.setAttribute("viewBox", "0 0 " + size[0] + " " + size[1]);
    var self = this;
    (this.shapes[this.page] || []).forEach(function (s) {
      if (self.shown[s.l]) self.shape(s);
    });
    if (!this.shown.hits) return;
    (this.hitsByPage[this.page] || []).forEach(function (i) {
      var hit = self.hits[i];
      var b = hit.b;
      titled(svg("rect", {
        x: b[0], y: b[1], width: b[2], height: b[3],
        class: "ts-v-hit" + (i === self.current ? " ts-v-hit-current" : ""),
        "data-hit": i
      }, layer), "search hit: " + hit.t);
    });
  };

  Viewer.prototype.shape = function (s) {
    var layer = this.overlay;
    var fillOpacity = s.f ? s.o : 0;
    var node;
    if (s.k === "redaction") {
      s.b.forEach(function (b) {
        titled(svg("rect", { x: b[0], y: b[1], width: b[2], height: b[3], class: "ts-v-redaction" }, layer), s.t);
      });
      return;
    }
    if (s.k === "line" && s.ln) {
      node = svg("line", { x1: s.ln[0], y1: s.ln[1], x2: s.ln[2], y2: s.ln[3],
        stroke: s.s, "stroke-width": 2, "stroke-opacity": s.o, class: "ts-v-shape" }, layer);
      titled(node, s.t);
      return;
    }
    var b = s.b[0];
    if (!b) return;
    if (s.k === "note") {
      node = svg("rect", { x: b[0], y: b[1], width: 18, height: 18, rx: 2, class: "ts-v-note-icon" }, layer);
      titled(node, s.t + (s.x ? ": " + s.x : ""));
      return;
    }
    if (s.k === "ellipse") {
      node = svg("ellipse", { cx: b[0] + b[2] / 2, cy: b[1] + b[3] / 2, rx: b[2] / 2, ry: b[3] / 2 }, layer);
    } else {
      node = svg("rect", { x: b[0], y: b[1], width: b[2], height: b[3] }, layer);
    }
    node.setAttribute("class", "ts-v-shape");
    node.setAttribute("fill", s.f || "none");
    node.setAttribute("fill-opacity", fillOpacity);
    node.setAttribute("stroke", s.s || "none");
    node.setAttribute("stroke-opacity", s.o);
    node.setAttribute("stroke-width", 1.5);
    titled(node, s.t + (s.x ? ": " + s.x : ""));
    if (s.k === "text" && s.x) {
      var words = svg("text", { x: b[0] + 3, y: b[1] + 11, "font-size": 10, fill: s.s || "#111827", class: "ts-v-shape-text" }, layer);
      words.textContent = s.x;
    }
  };

  // --- the text of the page, invisible but selectable ------------------------------

  Viewer.prototype.text = function () {
    var n = this.page;
    var layer = this.textLayer;
    layer.textContent = "";
    if (!this.config.text) return;
    var self = this;
    var put = function (lines) {
      if (self.page !== n) return;
      var scale = self.scale();
      var spans = lines.map(function (line) {
        var span = el("span", {}, layer);
        span.textContent = line.t;
        span.style.left = line.b[0] * scale + "px";
        span.style.top = line.b[1] * scale + "px";
        span.style.fontSize = Math.max(1, line.b[3] * scale * 0.86) + "px";
        span.style.lineHeight = line.b[3] * scale + "px";
        return [span, line.b[2] * scale];
      });
      spans.forEach(function (pair) { // measured together: one layout for the page
        var natural = pair[0].getBoundingClientRect().width;
        if (natural > 0) pair[0].style.transform = "scaleX(" + pair[1] / natural + ")";
      });
    };
    if (this.texts[n]) { put(this.texts[n]); return; }
    fetch(this.config.text.replace("{n}", n), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : { lines: [] }; })
      .then(function (body) { self.texts[n] = body.lines || []; put(self.texts[n]); })
      .catch(function () { self.texts[n] = []; });
  };

  // --- search: page after page, as the server's time budget allows ----------------

  Viewer.prototype.run = function (text) {
    var self = this;
    var number = ++this.search;
    this.hits = [];
    this.hitsByPage = {};
    this.current = -1;
    this.list.textContent = "";
    this.list.hidden = true;
    this.strip.querySelectorAll(".ts-v-has-hit").forEach(function (b) { b.classList.remove("ts-v-has-hit"); });
    this.draw();
    if (!text) { this.found.textContent = ""; return; }
    this.found.textContent = "searching…";
    var from = 0;
    var step = function () {
      var url = self.config.search + "?q=" + encodeURIComponent(text) + "&from=" + from;
      fetch(url, { credentials: "same-origin" })
        .then(function (r) { return r.json().then(function (body) { return [r.ok, body]; }); })
        .then(function (answer) {
          if (number !== self.search) return;
          if (!answer[0]) { self.found.textContent = answer[1].detail || "search refused"; return; }
          var body = answer[1];
          self.add(body.hits);
          var done = body.status !== "PARTIAL" || body.lastPage >= self.count - 1 || self.hits.length >= MOST_HITS;
          self.tell(done ? null : body.lastPage + 1);
          if (!done) { from = body.lastPage + 1; step(); }
        })
        .catch(function () { if (number === self.search) self.found.textContent = "search failed"; });
    };
    step();
  };

  Viewer.prototype.add = function (hits) {
    var self = this;
    hits.forEach(function (hit) {
      if (self.hits.length >= MOST_HITS) return;
      var i = self.hits.push(hit) - 1;
      (self.hitsByPage[hit.p] = self.hitsByPage[hit.p] || []).push(i);
      var thumb = self.strip.querySelector('[data-page="' + hit.p + '"].ts-v-thumb');
      if (thumb) thumb.classList.add("ts-v-has-hit");
      if (i < 300) {
        var item = el("li", { "data-hit": i }, self.list);
        el("b", {}, item).textContent = "page " + (hit.p + 1);
        item.appendChild(document.createTextNode(" " + hit.t));
      }
    });
    this.list.hidden = this.hits.length === 0;
    // The first hit from the page shown on: a search never takes people back.
    var next = -1;
    for (var i = 0; this.current === -1 && i < this.hits.length; i++) {
      if (this.hits[i].p >= this.page) { next = i; break; }
    }
    if (next >= 0) this.go(next);
    else this.draw();
  };

  Viewer.prototype.tell = function (next) {
    var pages = Object.keys(this.hitsByPage).length;
    var said = this.hits.length
      ? (this.current + 1) + " of " + this.hits.length + " hit" + (this.hits.length > 1 ? "s" : "") +
        " on " + pages + " page" + (pages > 1 ? "s" : "")
      : "no hit";
    if (next !== null) said += " (searched pages 1–" + next + " of " + this.count + "…)";
    this.found.textContent = said;
  };

  Viewer.prototype.go = function (i) {
    if (!this.hits.length) return;
    this.current = (i + this.hits.length) % this.hits.length;
    var hit = this.hits[this.current];
    this.show(hit.p);
    var scale = this.scale();
    this.stage.scrollTop = Math.max(0, hit.b[1] * scale - this.stage.clientHeight / 3);
    this.stage.scrollLeft = Math.max(0, hit.b[0] * scale - this.stage.clientWidth / 3);
    var was = this.list.querySelector(".ts-v-current");
    if (was) was.classList.remove("ts-v-current");
    var item = this.list.querySelector('[data-hit="' + this.current + '"]');
    if (item) { item.classList.add("ts-v-current"); item.scrollIntoView({ block: "nearest" }); }
    this.tell(null);
  };

  // --- controls and keys ------------------------------------------------------------

  Viewer.prototype.zoomBy = function (direction) {
    var now = this.scale() / PX_PER_POINT;
    var next = now;
    if (direction > 0) {
      next = ZOOMS.filter(function (z) { return z > now + 0.01; })[0] || ZOOMS[ZOOMS.length - 1];
    } else {
      next = ZOOMS.filter(function (z) { return z < now - 0.01; }).pop() || ZOOMS[0];
    }
    this.zoom = next;
    this.show(this.page);
  };

  Viewer.prototype.wire = function () {
    var self = this;
    var on = function (css, handler) {
      var node = self.find(css);
      if (node) node.addEventListener("click", function (event) { event.preventDefault(); handler(); });
    };
    on(".ts-v-prev", function () { self.show(self.page - 1); });
    on(".ts-v-next", function () { self.show(self.page + 1); });
    on(".ts-v-zoom-in", function () { self.zoomBy(1); });
    on(".ts-v-zoom-out", function () { self.zoomBy(-1); });
    on(".ts-v-fit", function () { self.zoom = null; self.show(self.page); });
    on(".ts-v-hit-next", function () { self.go(self.current + 1); });
    on(".ts-v-hit-prev", function () { self.go(self.current - 1); });
    // Enter in these fields must not send the admin form the viewer sits in.
    this.pageno.addEventListener("change", function () {
      self.show(parseInt(self.pageno.value, 10) - 1);
    });
    this.pageno.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      self.show(parseInt(self.pageno.value, 10) - 1);
    });
    var asked = this.query.value;
    var find = function () {
      var text = self.query.value.trim();
      if (text && text === asked && self.hits.length) { self.go(self.current + 1); return; }
      asked = text;
      self.run(text);
    };
    on(".ts-v-go", find);
    this.query.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      if (event.shiftKey) self.go(self.current - 1); else find();
    });
    this.list.addEventListener("click", function (event) {
      var item = event.target.closest("li[data-hit]");
      if (item) self.go(parseInt(item.dataset.hit, 10));
    });
    this.image.addEventListener("load", function () {
      // A page whose picture is not the shape its layout said (no layout entry).
      var size = self.pages[self.page];
      var ratio = self.image.naturalHeight / self.image.naturalWidth;
      if (ratio && Math.abs(ratio - size[1] / size[0]) > 0.02) {
        self.pages[self.page] = [size[0], size[0] * ratio];
        self.show(self.page);
      }
    });
    // Alone on its page the viewer takes the keys; on a document's page only
    // while it has the focus or the pointer (Page Down scrolls the page else).
    this.alone = document.body.classList.contains("ts-viewer-page");
    this.pointed = false;
    this.root.addEventListener("mouseenter", function () { self.pointed = true; });
    this.root.addEventListener("mouseleave", function () { self.pointed = false; });
    document.addEventListener("keydown", function (event) { self.key(event); });
    var resized = null;
    window.addEventListener("resize", function () {
      clearTimeout(resized);
      resized = setTimeout(function () { if (self.zoom === null) self.show(self.page); }, 150);
    });
  };

  Viewer.prototype.key = function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!this.alone && !this.pointed && !this.root.contains(document.activeElement)) return;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName) &&
        !(target.tagName === "BUTTON" && this.root.contains(target)))) return;
    var stage = this.stage;
    var canDown = stage.scrollTop + stage.clientHeight < stage.scrollHeight - 2;
    var canUp = stage.scrollTop > 0;
    var canRight = stage.scrollLeft + stage.clientWidth < stage.scrollWidth - 2;
    var canLeft = stage.scrollLeft > 0;
    var step = 60;
    switch (event.key) {
      case "ArrowRight":
        if (canRight) stage.scrollLeft += step; else this.show(this.page + 1);
        break;
      case "ArrowLeft":
        if (canLeft) stage.scrollLeft -= step; else this.show(this.page - 1);
        break;
      case "ArrowDown":
        if (canDown) stage.scrollTop += step; else this.show(this.page + 1);
        break;
      case "ArrowUp":
        if (canUp) stage.scrollTop -= step; else this.show(this.page - 1);
        break;
      case "PageDown": this.show(this.page + 1); break;
      case "PageUp": this.show(this.page - 1); break;
      case "Home": this.show(0); break;
      case "End": this.show(this.count - 1); break;
      case "+": case "=": this.zoomBy(1); break;
      case "-": this.zoomBy(-1); break;
      case "0": this.zoom = null; this.show(this.page); break;
      default: return;
    }
    event.preventDefault();
  };

  function start() {
    var root = document.querySelector("[data-ts-viewer]");
    var data = document.getElementById("ts-viewer-config");
    if (!root || !data) return;
    window.tsViewer = new Viewer(root, JSON.parse(data.textContent));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
