/* skatdd report pages: trick viewers, chart marks, the colour switch and sortable tables.
   Everything is drawn from the JSON in #page-data; no framework, no network. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("page-data").textContent);
  var CARDS = data.cards, SEATS = data.seatNames;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  /* One card: its symbol for the eye, its name ("10 of hearts") for screen readers. */
  function cardEl(code, extra) {
    var info = CARDS[code];
    var node = el("span", "card s-" + info.suit + (extra ? " " + extra : ""));
    node.setAttribute("data-card", code);
    var face = el("span", null, info.text);
    face.setAttribute("aria-hidden", "true");
    node.appendChild(face);
    node.appendChild(el("span", "sr-only", info.label));
    return node;
  }

  function cardList(codes) {
    var span = el("span", "cards-inline");
    if (!codes || !codes.length) { span.textContent = "–"; return span; }
    codes.forEach(function (c) { span.appendChild(cardEl(c)); });
    return span;
  }

  function labels(codes) { return codes.map(function (c) { return CARDS[c].label; }).join(", "); }

  function pct(x) { return Math.round(100 * x) + "%"; }

  function Viewer(root, spec) {
    this.root = root;
    this.spec = spec;
    this.n = spec.plays.length;
    this.step = 0;
    this.slider = root.querySelector("input[type=range]");
    var self = this;
    root.querySelectorAll("[data-go]").forEach(function (button) {
      button.addEventListener("click", function () { self.go(button.getAttribute("data-go")); });
    });
    this.slider.addEventListener("input", function () { self.show(parseInt(self.slider.value, 10)); });
    root.addEventListener("keydown", function (event) { self.key(event); });
    this.show(0);
  }

  Viewer.prototype.key = function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.target === this.slider) return false;  /* the slider moves itself and reports "input" */
    var moves = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", PageUp: "prev-trick", PageDown: "next-trick" };
    var where = moves[event.key];
    if (!where) return false;
    event.preventDefault();
    this.go(where);
    return true;
  };

  Viewer.prototype.go = function (where) {
    var k = this.step, steps = this.spec.steps;
    if (where === "first") k = 0;
    else if (where === "last") k = this.n;
    else if (where === "prev") k = Math.max(0, k - 1);
    else if (where === "next") k = Math.min(this.n, k + 1);
    else if (where === "next-trick") {
      k = Math.min(this.n, k + 1);
      while (k < this.n && steps[k - 1].winner === null) k++;
    } else if (where === "prev-trick") {
      k = Math.max(0, k - 1);
      while (k > 0 && steps[k - 1].winner === null) k--;
    } else k = parseInt(where, 10);
    this.show(k);
  };

  Viewer.prototype.valueText = function (v) {
    if (v === null || v === undefined) return "–";
    return this.spec.null ? (v ? "win" : "loss") : String(v);
  };

  Viewer.prototype.show = function (k) {
    var spec = this.spec, steps = spec.steps, plays = spec.plays, self = this;
    k = Math.max(0, Math.min(this.n, k));
    this.step = k;
    this.slider.value = String(k);
    var step = k ? steps[k - 1] : null, play = k ? plays[k - 1] : null;
    var gone = {};
    for (var i = 0; i < k; i++) gone[steps[i].card] = true;
    var toMove = k < this.n ? steps[k].seat : null;
    var highlight = {};
    if (play && play.best && play.cost) play.best.forEach(function (c) { highlight[c] = true; });

    var title;
    if (!step) title = "Before the first card: " + SEATS[0] + " leads";
    else title = "Card " + k + " of " + this.n + ", trick " + step.trick + ": " + SEATS[step.seat] + " plays " + CARDS[step.card].text;
    this.root.querySelector("[data-role=title]").textContent = title;
    this.root.querySelector("[data-role=counter]").textContent = k + " / " + this.n;
    this.slider.setAttribute("aria-valuetext", step ? "card " + k + ": " + SEATS[step.seat] + " " + CARDS[step.card].label : "start");

    var hands = this.root.querySelector("[data-role=hands]");
    hands.textContent = "";
    for (var seat = 0; seat < 3; seat++) {
      var box = el("div", "seat" + (seat === spec.declarer ? " declarer" : "") + (seat === toMove ? " to-move" : ""));
      box.setAttribute("data-seat", String(seat));
      box.appendChild(el("h3", null, spec.titles[seat]));
      var hand = el("div", "hand");
      var left = spec.hands[seat].filter(function (c) { return !gone[c]; });
      left.forEach(function (c) {
        hand.appendChild(cardEl(c, step && seat === step.seat && highlight[c] ? "best" : ""));
      });
      if (!left.length) hand.appendChild(el("span", "muted", "no cards"));
      box.appendChild(hand);
      hands.appendChild(box);
    }

    var trick = this.root.querySelector("[data-role=trick]");
    trick.textContent = "";
    var winner = this.root.querySelector("[data-role=winner]");
    winner.textContent = "";
    if (step) {
      step.table.forEach(function (pair, index) {
        var li = el("li", null, SEATS[pair[0]] + " ");
        li.appendChild(cardEl(pair[1], index === step.table.length - 1 ? "played" : ""));
        trick.appendChild(li);
      });
      if (step.winner !== null) {
        var side = step.winner === spec.declarer ? "declarer" : "defenders";
        winner.textContent = SEATS[step.winner] + " (" + side + ") takes the trick" +
          (spec.null ? "" : ": " + step.points + " points");
      }
    } else {
      trick.appendChild(el("li", "muted", "no card yet"));
    }

    var numbers = this.root.querySelector("[data-role=numbers]");
    numbers.textContent = "";
    function row(term, value) {
      numbers.appendChild(el("dt", null, term));
      var dd = el("dd");
      if (typeof value === "string") dd.textContent = value; else dd.appendChild(value);
      numbers.appendChild(dd);
      return dd;
    }
    if (step) {
      if (spec.null) row("declarer's tricks", String(step.tricks[0]));
      else row("declarer so far", step.total + " card points (skat included), tricks " + step.tricks[0] + "–" + step.tricks[1]);
    }
    var live = "";
    if (play && play.value_before !== undefined) {
      row("double-dummy before", this.valueText(play.value_before));
      row("double-dummy after", this.valueText(play.value_after));
      var cost = row("cost", String(play.cost));
      if (play.cost) cost.className = "cost-bad";
      row(play.cost ? "best cards" : "also best", cardList(play.best));
      live = "Card " + k + ": " + SEATS[step.seat] + " plays " + CARDS[step.card].label + ". Double-dummy " +
        this.valueText(play.value_before) + " to " + this.valueText(play.value_after) + ", cost " + play.cost +
        (play.cost ? ". Best: " + labels(play.best) : "") + ".";
      if (play.sd_cost) {
        row("single-dummy win", pct(play.sd_win));
        if (!spec.null && play.sd_mean_value !== null) row("single-dummy mean", play.sd_mean_value.toFixed(1) + " card points");
        var sdc = row("single-dummy cost", pct(play.sd_cost.win) + " win" + (spec.null ? "" : ", " + play.sd_cost.points.toFixed(1) + " points"));
        if (play.sd_cost.win > 0 || (!spec.null && play.sd_cost.points > 0)) sdc.className = "cost-bad";
        row("single-dummy best", cardList(play.sd_best));
        live += " Single-dummy win " + pct(play.sd_win) + ", cost " + pct(play.sd_cost.win) + ".";
      }
    } else if (step) {
      live = "Card " + k + ": " + SEATS[step.seat] + " plays " + CARDS[step.card].label + ".";
    } else if (spec.start_value !== undefined) {
      row("double-dummy value", this.valueText(spec.start_value));
      live = "Start: double-dummy value " + this.valueText(spec.start_value) + ".";
    } else {
      live = "Start.";
    }
    if (spec.value !== undefined && spec.value !== null) row("double-dummy value", String(spec.value));
    if (winner.textContent) live += " " + winner.textContent + ".";
    this.root.querySelector("[data-role=live]").textContent = live;

    var cursor = document.querySelector("[data-cursor-for=" + spec.id + "]");
    if (cursor) {
      var svg = cursor.ownerSVGElement;
      var x = parseFloat(svg.getAttribute("data-x0")) + k * parseFloat(svg.getAttribute("data-dx"));
      cursor.setAttribute("x1", String(x));
      cursor.setAttribute("x2", String(x));
    }
    document.querySelectorAll("[data-rows-for=" + spec.id + "] tr[data-step]").forEach(function (tr) {
      tr.classList.toggle("current", parseInt(tr.getAttribute("data-step"), 10) === self.step);
    });
  };

  var viewers = {}, first = null;
  data.viewers.forEach(function (spec) {
    var root = document.getElementById("viewer-" + spec.id);
    if (!root) return;
    viewers[spec.id] = new Viewer(root, spec);
    if (!first) first = viewers[spec.id];
  });

  /* Chart marks and "go to card" buttons move a viewer and bring it into view. */
  function jump(target) {
    var viewer = viewers[target.getAttribute("data-viewer")];
    if (!viewer) return;
    viewer.show(parseInt(target.getAttribute("data-step"), 10));
    viewer.root.scrollIntoView({ block: "nearest" });
  }
  document.querySelectorAll("[data-step][data-viewer]").forEach(function (node) {
    node.addEventListener("click", function () { jump(node); });
    node.addEventListener("keydown", function (event) {
      if (node.tagName !== "BUTTON" && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        jump(node);
      }
    });
  });

  /* Arrow keys anywhere on the page drive the first viewer, unless a form control wants them. */
  document.addEventListener("keydown", function (event) {
    if (!first || event.defaultPrevented) return;
    var t = event.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    for (var id in viewers) { if (viewers[id].root.contains(t)) return; }  /* handled there */
    first.key(event);
  });

  var colours = document.getElementById("four-colour");
  if (colours) {
    colours.addEventListener("change", function () { document.body.classList.toggle("four-colour", colours.checked); });
  }

  /* Sortable tables: a button in each header; numbers sort as numbers, empty cells last. */
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, column) {
      var button = th.querySelector("button.sort");
      if (!button) return;
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        heads.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        function key(tr) {
          var cell = tr.cells[column];
          var text = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim();
          return text;
        }
        var numeric = rows.every(function (tr) { var v = key(tr); return v === "" || !isNaN(Number(v)); });
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          if (x === "" || y === "") return (x === "") - (y === "");
          var d = numeric ? Number(x) - Number(y) : x.localeCompare(y, undefined, { numeric: true });
          return ascending ? d : -d;
        });
        rows.forEach(function (tr) { body.appendChild(tr); });
      });
    });
  });
})();
