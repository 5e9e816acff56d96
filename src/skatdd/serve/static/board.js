/* skatdd analysis board: a tree of lines explored card by card, every node solved by the server (/api/board/line).
   Every text that comes from a record (names, ids, messages) is put into the page with textContent, never as markup.
   The address (#g=...&moves=...&at=...) holds the game, every line explored and the card shown, so a link reproduces
   the board; with the single-dummy choices that are not the defaults (&worlds=&seed=&inference=&honest=K). */
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("page-data").textContent);
  const CARDS = DATA.cards, SEATS = DATA.seatNames, SEAT_LETTERS = ["F", "M", "R"];
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach((k) => node.setAttribute(k, attrs[k]));
    return node;
  }

  /* One card face, as the HTML report draws it: the symbol for the eye, the name ("10 of hearts") for screen readers. */
  function cardEl(code, extra, tag) {
    const info = CARDS[code];
    const node = el(tag || "span", "card s-" + info.suit + (extra ? " " + extra : ""));
    node.setAttribute("data-card", code);
    const face = el("span", "face", info.text);
    face.setAttribute("aria-hidden", "true");
    node.appendChild(face);
    node.appendChild(el("span", "sr-only", info.label));
    return node;
  }

  function backEl() {
    const node = el("span", "card back");
    node.appendChild(el("span", "sr-only", "a hidden card"));
    return node;
  }

  function cardRow(codes) {
    const span = el("span", "cards-inline");
    codes.forEach((c) => span.appendChild(cardEl(c)));
    return span;
  }

  function setStatus(text, bad) {
    const box = $("status");
    box.textContent = text || "";
    box.classList.toggle("bad", !!bad);
  }

  /* ------------------------------------------------------------------ the tree of lines */

  class Node {
    constructor(parent, card) {
      this.parent = parent;
      this.card = card;          // the card that led here (null at the start)
      this.children = [];        // children[0] continues the line; the others are variations
      this.data = null;          // the server's node: hands, trick, step, solve
      this.pending = false;
      this.sd = null;            // single-dummy advice, when asked for
      this.sdNote = null;        // why there is none: cancelled
      this.sdError = null;       // or the server's error
      this.depth = parent ? parent.depth + 1 : 0;
    }
    path() {
      const cards = [];
      for (let n = this; n.parent; n = n.parent) cards.unshift(n.card);
      return cards;
    }
    child(card) {
      let next = this.children.find((n) => n.card === card);
      if (!next) {
        next = new Node(this, card);
        this.children.push(next);
      }
      return next;
    }
  }

  const state = { game: null, root: null, cur: null, view: "open", generation: 0, sd: null };
  let lastHash = "";  // the address this page wrote last (a different one, pasted by the user, is loaded)

  function extend(node, cards) {
    cards.forEach((c) => { node = node.child(c); });
    return node;
  }

  /* The current line: the start, the cards to the node shown, then on along the first continuation to its end. */
  function currentLine() {
    const nodes = [];
    for (let n = state.cur; n; n = n.parent) nodes.unshift(n);
    for (let n = state.cur; n.children.length; ) { n = n.children[0]; nodes.push(n); }
    return nodes;
  }

  /* ------------------------------------------------------------------ the server */

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function api(path, body, signal) {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(path, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: signal,
      });
      // Busy (every worker at work): wait and ask again, a few times.
      if (response.status === 503 && response.headers.get("Retry-After") && attempt < 5) {
        await sleep(400 * (attempt + 1));
        continue;
      }
      let payload;
      try { payload = await response.json(); } catch (e) { throw new Error("the server answered " + response.status); }
      if (!response.ok) throw new Error(payload.error || "the server answered " + response.status);
      return payload;
    }
  }

  async function ensureData(nodes) {
    const first = nodes.findIndex((n) => !n.data);
    if (first < 0 || nodes.slice(first).every((n) => n.pending)) return;
    const waiting = nodes.slice(first).filter((n) => !n.data && !n.pending);
    waiting.forEach((n) => { n.pending = true; });
    const generation = state.generation;
    try {
      const answer = await api("/api/board/line", {
        position: state.game.position, line: nodes.slice(1).map((n) => n.card), from: first,
      });
      if (generation !== state.generation) return;
      answer.nodes.forEach((d, i) => { nodes[first + i].data = d; });
      setStatus("");
    } catch (e) {
      if (generation === state.generation) setStatus(e.message, true);
    } finally {
      waiting.forEach((n) => { n.pending = false; });
    }
    if (generation === state.generation) render();
  }

  /* ------------------------------------------------------------------ loading */

  /* Show *game*; *build(root)* grows the tree of lines and returns the node to show (default: the recorded line). */
  function startGame(game, build) {
    state.generation++;
    cancelSd();
    state.game = game;
    state.root = new Node(null, null);
    if (build) {
      state.cur = build(state.root);
    } else {
      extend(state.root, game.line);
      state.cur = state.root;
    }
    $("game").hidden = false;
    showFacts();
    render();
    ensureData(currentLine());
  }

  async function load(request) {
    setStatus("Loading…");
    try {
      const game = await api("/api/board/load", request);
      state.request = request;  // the decisions review reads the same text again
      clearDecisions();
      setStatus("");
      $("load-panel").open = false;  // the board takes the screen; the panel opens again with a click
      startGame(game);
    } catch (e) {
      setStatus(e.message, true);
    }
  }

  function showFacts() {
    const info = state.game.info, pos = state.game.position;
    $("title").textContent = info.title || "Game";
    const facts = $("facts");
    facts.textContent = "";
    const add = (term, value) => {
      if (value === undefined || value === null || value === "") return;
      facts.appendChild(el("dt", null, term));
      facts.appendChild(el("dd", null, String(value)));
    };
    const players = (info.players || []).map((p, s) => (p ? SEATS[s] + " " + p : "")).filter((p) => p);
    add("players", players.join(", "));
    const declarer = SEATS[pos.declarer] + (info.players && info.players[pos.declarer] ? " (" + info.players[pos.declarer] + ")" : "");
    add("contract", (info.contract || pos.game) + ", declarer " + declarer + (info.bid ? ", bid " + info.bid : ""));
    add("recorded", info.result);
    add("date", info.date);
  }

  /* ------------------------------------------------------------------ values */

  const isNull = () => state.game.position.game === "null";
  const ouvert = () => (state.game.position.announce || []).indexOf("ouvert") >= 0;

  /* What a node is worth on the chart: the declarer's final card points, or 1 / 0 for a null won / lost. */
  function nodeValue(d) {
    if (!d) return null;
    return isNull() ? (d.solve.declarer_wins ? 1 : 0) : d.solve.value;
  }

  function cardScore(cv) { return isNull() ? (cv.declarer_wins ? 1 : 0) : cv.value; }

  function valueText(v) {
    if (v === null || v === undefined) return "…";
    return isNull() ? (v ? "win" : "loss") : String(v);
  }

  /* The legal cards' values at a node and which of them are best for the side to move. */
  function cardValues(d) {
    const out = {};
    if (!d || d.over) return { values: out, best: [] };
    const cards = d.solve.cards;
    const scores = cards.map(cardScore);
    const declarerMoves = d.to_move === state.game.position.declarer;
    const best = declarerMoves ? Math.max(...scores) : Math.min(...scores);
    cards.forEach((cv, i) => { out[cv.card] = cv; });
    return { values: out, best: cards.filter((cv, i) => scores[i] === best).map((cv) => cv.card) };
  }

  /* What the card that led to *node* gave away, in the mover's eyes (0 when it kept the value). */
  function cost(node) {
    if (!node.parent || !node.data || !node.parent.data) return 0;
    const before = nodeValue(node.parent.data), after = nodeValue(node.data);
    return node.data.step.seat === state.game.position.declarer ? before - after : after - before;
  }

  function visible(seat) {
    if (state.view === "open") return true;
    const viewer = parseInt(state.view, 10);
    return seat === viewer || (ouvert() && seat === state.game.position.declarer);
  }

  function skatVisible() {
    if (state.view === "open") return true;
    return parseInt(state.view, 10) === state.game.position.declarer && !state.game.position.hand;
  }

  /* ------------------------------------------------------------------ drawing */

  function render() {
    if (!state.cur) return;
    renderStep();
    renderHands();
    renderTable();
    renderMoves();
    renderChart();
    renderSd();
    updateUrl();
  }

  function renderStep() {
    const node = state.cur, d = node.data, line = currentLine();
    $("counter").textContent = node.depth + " / " + (line.length - 1);
    let title;
    if (!node.parent) title = "Start";
    else if (d) title = "Card " + node.depth + ", trick " + d.step.trick + ": " + SEATS[d.step.seat] + " plays " + CARDS[node.card].label;
    else title = "Card " + node.depth + ": " + CARDS[node.card].label;
    if (d && d.over) title += " — the game is over";
    else if (d) title += " — " + SEATS[d.to_move] + " to play";
    else title += " — solving…";
    $("step-title").textContent = title;
  }

  function sdText(card, advice) {
    const entry = advice.cards.find((c) => c.card === card);
    if (!entry) return "";
    return Math.round(100 * entry.win) + "%" + (entry.mean_value === null ? "" : " · " + entry.mean_value.toFixed(1));
  }

  function renderHands() {
    const node = state.cur, d = node.data, box = $("hands");
    box.textContent = "";
    const declarer = state.game.position.declarer, players = state.game.info.players || [];
    const { values, best } = cardValues(d);
    const sd = d && node.sd && !d.over ? node.sd : null;
    for (let seat = 0; seat < 3; seat++) {
      const seatBox = el("div", "seat" + (seat === declarer ? " declarer" : "") + (d && !d.over && d.to_move === seat ? " to-move" : ""));
      seatBox.setAttribute("data-seat", seat);
      seatBox.appendChild(el("h3", null, SEATS[seat] + (players[seat] ? " (" + players[seat] + ")" : "") + (seat === declarer ? " — declarer" : "")));
      const hand = el("div", "hand");
      const codes = d ? d.hands[seat] : [];
      if (!visible(seat)) {
        codes.forEach(() => hand.appendChild(backEl()));
      } else {
        codes.forEach((code) => {
          const cv = seat === d.to_move ? values[code] : undefined;
          if (!cv) { hand.appendChild(cardEl(code)); return; }
          const button = cardEl(code, "legal" + (best.indexOf(code) >= 0 ? " best" : ""), "button");
          button.type = "button";
          const score = cardScore(cv);
          button.appendChild(el("span", "val", valueText(score)));
          if (sd) button.appendChild(el("span", "sdval", sdText(code, sd)));
          button.title = "play " + CARDS[code].label + ": " + (isNull() ? (score ? "the declarer wins" : "the declarer loses")
            : "the declarer ends with " + score + " card points");
          button.addEventListener("click", () => play(code));
          hand.appendChild(button);
        });
      }
      seatBox.appendChild(hand);
      box.appendChild(seatBox);
    }
    const skatBox = el("div", "seat");
    skatBox.setAttribute("data-seat", "skat");
    skatBox.appendChild(el("h3", null, state.game.position.hand ? "skat (hand game)" : "skat (the discard)"));
    const skat = el("div", "hand");
    (d ? d.skat : []).forEach((code) => skat.appendChild(skatVisible() ? cardEl(code) : backEl()));
    skatBox.appendChild(skat);
    box.appendChild(skatBox);
  }

  function trickList(pairs) {
    const list = $("trick");
    list.textContent = "";
    pairs.forEach(([seat, code]) => {
      const li = el("li", null, SEATS[seat] + " ");
      li.appendChild(cardEl(code));
      list.appendChild(li);
    });
  }

  function renderTable() {
    const node = state.cur, d = node.data;
    const numbers = $("numbers");
    numbers.textContent = "";
    $("winner").textContent = "";
    $("taken").textContent = "";
    if (!d) { trickList([]); return; }
    const closed = d.step && d.step.winner !== null && d.trick.length === 0;
    trickList(closed ? d.step.table : d.trick);
    if (closed) {
      $("winner").textContent = SEATS[d.step.winner] + " takes the trick" + (isNull() ? "" : " (" + d.step.points + " points)");
    }
    const add = (term, value, cls) => {
      numbers.appendChild(el("dt", null, term));
      numbers.appendChild(el("dd", cls || null, value));
    };
    const v = nodeValue(d);
    add(isNull() ? "double-dummy" : "double-dummy value", isNull() ? (v ? "the declarer wins" : "the declarer loses") : String(v));
    const c = cost(node);
    if (node.parent) add("cost of the last card", isNull() ? (c > 0 ? "the game" : "0") : String(c), c > 0 ? "cost-bad" : null);
    add("tricks", "declarer " + d.tricks[0] + ", defenders " + d.tricks[1]);
    if (!isNull()) add("declarer's card points", d.declarer_points + " in tricks" + (d.skat.length ? " + skat" : ""));
    if (node.sd && !d.over) add("single-dummy best", node.sd.best.map((code) => CARDS[code].text).join(" "));
    renderTaken();
  }

  /* The completed tricks of the path to the node shown, by the side that took them. */
  function renderTaken() {
    const declarer = state.game.position.declarer;
    const sides = { declarer: [], defenders: [] };
    for (let n = state.cur; n.parent; n = n.parent) {
      const step = n.data && n.data.step;
      if (step && step.winner !== null) (step.winner === declarer ? sides.declarer : sides.defenders).unshift(step);
    }
    const box = $("taken");
    ["declarer", "defenders"].forEach((side) => {
      const row = el("div", "taken-side");
      row.setAttribute("data-side", side);
      row.appendChild(el("span", "muted", side + ": " + (sides[side].length ? "" : "none")));
      sides[side].forEach((step) => {
        const trick = el("span", "taken-trick");
        trick.title = "trick " + step.trick + (isNull() ? "" : ", " + step.points + " points");
        trick.appendChild(el("span", "muted", step.trick + " "));
        trick.appendChild(cardRow(step.table.map((p) => p[1])));
        row.appendChild(trick);
      });
      box.appendChild(row);
    });
  }

  /* The move list: the main line with every variation in brackets after the card it replaces, as chess boards do. */
  function moveEl(node, numbered) {
    const d = node.data, lead = d ? d.step.table.length === 1 : false;
    const button = el("button", "move" + (node === state.cur ? " current" : "") + (cost(node) > 0 ? " costly" : ""));
    button.type = "button";
    button.setAttribute("data-path", node.path().join(" "));
    if (d && (lead || numbered)) button.appendChild(el("span", "trick-no", (lead ? "" : "…") + d.step.trick + "."));
    button.appendChild(document.createTextNode((d ? SEAT_LETTERS[d.step.seat] : "") + " "));
    button.appendChild(cardEl(node.card));
    button.addEventListener("click", () => go(node));
    return button;
  }

  function appendLine(box, from, numbered) {
    let node = from;
    while (node.children.length) {
      const children = node.children;
      box.appendChild(moveEl(children[0], numbered));
      numbered = false;
      for (let i = 1; i < children.length; i++) {
        const variation = el("span", "variation");
        variation.appendChild(document.createTextNode("("));
        variation.appendChild(moveEl(children[i], true));
        appendLine(variation, children[i], false);
        variation.appendChild(document.createTextNode(")"));
        box.appendChild(variation);
        numbered = true;
      }
      node = children[0];
    }
  }

  function renderMoves() {
    const box = $("moves");
    box.textContent = "";
    const start = el("button", "move" + (state.cur === state.root ? " current" : ""), "start");
    start.type = "button";
    start.setAttribute("data-path", "");
    start.addEventListener("click", () => go(state.root));
    box.appendChild(start);
    appendLine(box, state.root, true);
    // Keep the current move in sight inside the list (without scrolling the page).
    const current = box.querySelector(".move.current");
    if (current) {
      const top = current.offsetTop, bottom = top + current.offsetHeight;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
    }
  }

  /* The chart: the value after every card of the current line, the recorded line behind it when they differ. */
  function renderChart() {
    const svg = $("chart");
    svg.textContent = "";
    const W = 640, H = 260, L = 44, R = 12, T = 12, B = 30;
    const top = isNull() ? 1 : 120;
    const rootData = state.root.data;
    const offset = rootData ? 30 - rootData.hands.reduce((s, h) => s + h.length, 0) : 0;
    const dx = (W - L - R) / 30;
    const x = (i) => +(L + (offset + i) * dx).toFixed(1);
    const y = (v) => +(T + (H - T - B) * (1 - v / top)).toFixed(1);
    const guides = isNull() ? [[1, "win"], [0.5, "50%"], [0, "loss"]] : [[120, "120"], [90, "90"], [61, "61"], [30, "30"], [0, "0"]];
    guides.forEach(([v, label]) => {
      svg.appendChild(svgEl("line", { class: "guide" + (label === "61" ? " win" : ""), x1: L, x2: W - R, y1: y(v), y2: y(v) }));
      const text = svgEl("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" });
      text.textContent = label;
      svg.appendChild(text);
    });
    for (let t = 0; t < 10; t++) {
      svg.appendChild(svgEl("line", { class: "axis", x1: L + 3 * t * dx, x2: L + 3 * t * dx, y1: H - B, y2: H - B + 5 }));
      const text = svgEl("text", { x: L + (3 * t + 1.5) * dx, y: H - B + 16, "text-anchor": "middle" });
      text.textContent = String(t + 1);
      svg.appendChild(text);
    }
    svg.appendChild(svgEl("line", { class: "axis", x1: L, x2: W - R, y1: H - B, y2: H - B }));
    svg.appendChild(svgEl("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - B }));
    const points = (nodes) => {
      const out = [];
      nodes.forEach((n, i) => {
        const v = nodeValue(n.data);
        if (v === null) return;
        if (isNull() && out.length) out.push([x(i), out[out.length - 1][1]]);
        out.push([x(i), y(v)]);
      });
      return out.map((p) => p.join(",")).join(" ");
    };
    const line = currentLine();
    const recorded = [state.root];
    for (let n = state.root; n.children.length; ) { n = n.children[0]; recorded.push(n); }
    const differs = recorded.length !== line.length || recorded.some((n, i) => n !== line[i]);
    const legend = $("chart-legend");
    legend.textContent = "";
    const swatch = (cls, label) => {
      const item = el("span");
      item.appendChild(el("span", "swatch " + cls));
      item.appendChild(document.createTextNode(label));
      legend.appendChild(item);
    };
    if (differs) {
      svg.appendChild(svgEl("polyline", { class: "series rec", points: points(recorded) }));
      swatch("rec", "the main line");
    }
    svg.appendChild(svgEl("polyline", { class: "series dd", points: points(line) }));
    swatch("dd", "the current line");
    swatch("mark", "a costly card (click to go there)");
    const i = line.indexOf(state.cur);
    svg.appendChild(svgEl("line", { class: "cursor", x1: x(i), x2: x(i), y1: T, y2: H - B }));
    line.forEach((n, k) => {
      if (k === 0 || cost(n) <= 0) return;
      const mark = svgEl("circle", { class: "mark dd", cx: x(k), cy: y(nodeValue(n.data)), r: 6, tabindex: 0, role: "button",
                                     "data-step": k });
      const label = "card " + k + ", " + SEATS[n.data.step.seat] + " " + CARDS[n.card].label + ": cost "
        + (isNull() ? "the game" : cost(n) + " card points");
      mark.setAttribute("aria-label", label);
      const title = svgEl("title", {});
      title.textContent = label;
      mark.appendChild(title);
      mark.addEventListener("click", () => go(n));
      mark.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(n); } });
      svg.appendChild(mark);
    });
  }

  /* ------------------------------------------------------------------ moving */

  function go(node) {
    state.cur = node;
    render();
    ensureData(currentLine());
  }

  function play(code) {
    const d = state.cur.data;
    if (!d || d.over) return;
    go(state.cur.child(code));
  }

  function step(where) {
    const node = state.cur;
    if (where === "first") go(state.root);
    else if (where === "prev" && node.parent) go(node.parent);
    else if (where === "next" && node.children.length) go(node.children[0]);
    else if (where === "last") { const line = currentLine(); go(line[line.length - 1]); }
  }

  /* ------------------------------------------------------------------ single-dummy */

  /* How the worlds were weighed (advise's --inference), in the words of the CLI's report. */
  const INFERENCE_WORDS = { bids: "the bidding", play: "the cards played", all: "the bidding and the cards played" };

  const oneDecimal = (v) => (typeof v === "number" ? v.toFixed(1) : "–");

  function sdSummary(advice) {
    let text = (advice.exact ? "All " + advice.worlds.toLocaleString("en") + " worlds solved (exact)"
      : advice.evaluated.toLocaleString("en") + " of " + advice.worlds.toLocaleString("en") + " worlds, drawn with seed "
        + advice.seed) + ", " + SEATS[advice.seat] + " to play.";
    if (advice.inference && advice.inference !== "none") {
      text += " Weighed by " + INFERENCE_WORDS[advice.inference] + ": effective sample size " + oneDecimal(advice.ess) +
        " of " + advice.evaluated.toLocaleString("en") + " worlds";
      if (advice.inference !== "play") text += " (the bidding alone, over the " + (typeof advice.pool === "number" ? advice.pool.toLocaleString("en") : "–") +
        " worlds it weighed: " + oneDecimal(advice.pool_ess) + ")";
      text += ".";
    }
    return text;
  }

  /* The honest search's verdict (advise's --honest): its best cards against the single-dummy best, or why it gave up. */
  function honestSummary(advice) {
    const honest = advice.honest;
    if (!honest) return "";
    const left = "at most " + honest.tricks + " trick" + (honest.tricks === 1 ? "" : "s") + " left";
    if (!honest.best) return "Honest search (" + left + "): gave up: " + honest.gave_up;
    return "Honest best (" + left + "; the same card in all worlds the declarer cannot tell apart): " +
      honest.best.map((code) => CARDS[code].text).join(" ") + ": " +
      (honest.differs ? "differs from the single-dummy best (which fuses strategies here)" : "a single-dummy best card too") + ".";
  }

  function renderSd() {
    const node = state.cur, table = $("sd-table"), body = table.querySelector("tbody"), status = $("sd-status");
    const running = state.sd !== null;
    $("sd-start").disabled = running || !node.data || node.data.over;
    $("sd-cancel").hidden = !running;
    $("sd-progress").hidden = !running;
    if (!running) $("sd-progress-text").textContent = "";
    body.textContent = "";
    const advice = node.data && !node.data.over ? node.sd : null;
    table.hidden = !advice;
    status.classList.toggle("bad", !advice && !!node.sdError);
    if (running && state.sd.node === node) status.textContent = "Solving worlds…";
    else if (!advice) status.textContent = node.sdError || node.sdNote || "";
    else status.textContent = sdSummary(advice);
    $("sd-honest-status").textContent = advice ? honestSummary(advice) : "";
    const honest = advice && advice.honest ? advice.honest : null;
    $("sd-honest-head").hidden = !(honest && honest.best);
    if (!advice) return;
    advice.cards.forEach((c) => {
      const best = advice.best.indexOf(c.card) >= 0, honestBest = !!(honest && honest.best && honest.best.indexOf(c.card) >= 0);
      const row = el("tr", best ? "best-row" : null);
      row.setAttribute("data-card", c.card);
      const cell = el("td");
      cell.appendChild(cardEl(c.card));
      row.appendChild(cell);
      row.appendChild(el("td", "num", (100 * c.win).toFixed(1) + "%"));
      row.appendChild(el("td", "num", c.mean_value === null ? "–" : c.mean_value.toFixed(1)));
      if (honest && honest.best) row.appendChild(el("td", "num honest", c.honest_win === null ? "–" : (100 * c.honest_win).toFixed(1) + "%"));
      row.appendChild(el("td", null, [best ? "best" : "", honestBest ? "honest best" : ""].filter((t) => t).join(", ")));
      body.appendChild(row);
    });
  }

  function sdProgress(done, total) {
    const bar = $("sd-progress");
    if (total > 0) { bar.max = total; bar.value = done; } else { bar.removeAttribute("value"); }
    $("sd-progress-text").textContent = total > 0 ? done + " / " + total + " worlds" : "drawing the worlds…";
  }

  async function startSd() {
    const node = state.cur;
    if (state.sd || !node.data || node.data.over) return;
    const controller = new AbortController();
    const run = { node: node, controller: controller };
    state.sd = run;
    node.sd = null;  // the advice shown answered other choices: an error or a cancel must not leave it standing
    node.sdError = node.sdNote = null;
    sdProgress(0, 0);
    renderSd();
    const body = { position: state.game.position, played: node.path().join(" "),
                   worlds: $("sd-worlds").value, seed: $("sd-seed").value };
    // advise's --inference and --honest [--honest-tricks K]: sent only when chosen, as the options are given.
    if ($("sd-inference").value !== "none") body.inference = $("sd-inference").value;
    if ($("sd-honest").checked) {
      body.honest = true;
      body.honest_tricks = $("sd-honest-tricks").value;
    }
    try {
      const response = await fetch("/api/advise/stream", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: controller.signal,
      });
      if (!response.ok) {
        let message = "the server answered " + response.status;
        try { message = (await response.json()).error || message; } catch (e) { /* no JSON */ }
        throw new Error(message);
      }
      const reader = response.body.getReader(), decoder = new TextDecoder();
      let buffer = "", finished = false;
      while (!finished) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n")) >= 0) {
          const item = JSON.parse(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 1);
          if (item.progress) sdProgress(item.progress.done, item.progress.total);
          else if (item.result) { node.sd = item.result; finished = true; }
          else if (item.error) throw new Error(item.error);
        }
      }
      if (!finished) throw new Error("the server closed the connection before the answer");
    } catch (e) {
      if (e.name === "AbortError") node.sdNote = "Cancelled.";
      else node.sdError = e.message;
    } finally {
      if (state.sd === run) state.sd = null;
      render();
    }
  }

  function cancelSd() {
    if (state.sd) {
      state.sd.controller.abort();
      state.sd = null;
    }
  }

  /* ------------------------------------------------------------------ the address */

  function toBase64(text) {
    let binary = "";
    new TextEncoder().encode(text).forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64(text) {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  }

  const splitCards = (text) => (text ? text.match(/../g) || [] : []);

  /* The whole tree as text, as a chess game's variations are written: each card's code, and after a card its
     alternatives in brackets, each with its own continuation: "HTH9(HK...)HA...". */
  function treeText(node) {
    let out = "";
    while (node.children.length) {
      const [main, ...others] = node.children;
      out += main.card;
      others.forEach((v) => { out += "(" + v.card + treeText(v) + ")"; });
      node = main;
    }
    return out;
  }

  /* Rebuild the tree from treeText()'s text under *root*; anything that is no card code is skipped. */
  function readTree(root, text) {
    const stack = [];
    let node = root, before = root;
    for (let i = 0; i < text.length; ) {
      const ch = text[i];
      if (ch === "(") {
        stack.push([node, before]);
        node = before;
        i++;
      } else if (ch === ")") {
        if (stack.length) [node, before] = stack.pop();
        i++;
      } else if (CARDS[text.slice(i, i + 2)]) {
        before = node;
        node = node.child(text.slice(i, i + 2));
        i += 2;
      } else {
        i++;
      }
    }
  }

  function updateUrl() {
    const params = new URLSearchParams();
    params.set("g", toBase64(JSON.stringify({ position: state.game.position, info: state.game.info })));
    params.set("moves", treeText(state.root));
    params.set("at", state.cur.path().join(""));
    if (state.view !== "open") params.set("view", state.view);
    sdToParams(params);
    const hash = "#" + params.toString();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    lastHash = location.hash;
    $("share-link").href = location.href;
  }

  function fromUrl() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.get("g")) return false;
    let game;
    try {
      game = JSON.parse(fromBase64(params.get("g")));
    } catch (e) {
      game = null;
    }
    if (!game || typeof game.position !== "object" || game.position === null) {
      setStatus("This link does not hold a readable game.", true);
      return true;
    }
    game.info = game.info && typeof game.info === "object" ? game.info : {};
    sdFromParams(params);
    const view = params.get("view");
    setView(view === "0" || view === "1" || view === "2" ? view : "open");
    $("load-panel").open = false;
    startGame(game, (root) => {
      readTree(root, params.get("moves") || "");
      return extend(root, splitCards(params.get("at")));
    });
    return true;
  }

  /* The single-dummy choices in the link: each only when it is not the page's default, so a link of the defaults
     is as before.  honest=K: the honest endgame with at most K tricks left. */
  function sdToParams(params) {
    const worlds = $("sd-worlds"), seed = $("sd-seed"), inference = $("sd-inference"), tricks = $("sd-honest-tricks");
    if (worlds.value !== worlds.defaultValue) params.set("worlds", worlds.value);
    if (seed.value !== seed.defaultValue) params.set("seed", seed.value);
    if (inference.value !== "none") params.set("inference", inference.value);
    if ($("sd-honest").checked) params.set("honest", tricks.value);
  }

  /* The choices of a link, each back to the page's default when the link does not hold it or holds no such value
     (the server judges the rest, as it does what is typed). */
  function sdFromParams(params) {
    const worlds = $("sd-worlds"), seed = $("sd-seed"), inference = $("sd-inference"), tricks = $("sd-honest-tricks");
    const pick = (value, pattern, fallback) => (value !== null && pattern.test(value) ? value : fallback);
    worlds.value = pick(params.get("worlds"), /^[0-9]{1,9}$/, worlds.defaultValue);
    seed.value = pick(params.get("seed"), /^-?[0-9]{1,18}$/, seed.defaultValue);
    const kinds = Array.from(inference.options).map((o) => o.value);
    inference.value = kinds.indexOf(params.get("inference")) >= 0 ? params.get("inference") : "none";
    const k = params.get("honest");
    const honest = k !== null && /^[0-9]{1,2}$/.test(k) && +k >= +tricks.min && +k <= +tricks.max;
    $("sd-honest").checked = honest;
    tricks.value = honest ? String(+k) : tricks.defaultValue;
    tricks.disabled = !honest;
  }

  function setView(view) {
    state.view = view;
    document.querySelectorAll("input[name=view]").forEach((r) => { r.checked = r.value === view; });
  }

  /* ------------------------------------------------------------------ the decisions review */

  function clearDecisions() {
    $("review-result").textContent = "";
    $("review-status").textContent = "";
  }

  function table(id, head, rows) {
    const t = el("table"), thead = el("thead"), tr = el("tr"), tbody = el("tbody");
    t.id = id;
    head.forEach((h) => tr.appendChild(el("th", h.num ? "num" : null, h.text)));
    thead.appendChild(tr);
    rows.forEach((cells) => {
      const row = el("tr");
      cells.forEach((c, i) => {
        const td = el("td", head[i].num ? "num" : null);
        if (typeof c === "string") td.textContent = c; else td.appendChild(c);  // (Node is the tree's class here)
        row.appendChild(td);
      });
      tbody.appendChild(row);
    });
    t.appendChild(thead);
    t.appendChild(tbody);
    return t;
  }

  function seatText(seat, d, players) {
    const p = (players || [])[seat];
    return SEATS[seat] + (seat === d.declarer ? "*" : "") + (p ? " (" + p + ")" : "");
  }

  /* The review as tables: every text set as text (a record's names never become markup). */
  function renderDecisions(answer) {
    const box = $("review-result"), d = answer.decisions;
    box.textContent = "";
    const pass = (v) => (v === null ? "pass" : String(v));
    box.appendChild(el("p", "muted", "bid's --skats " + d.skats + " --worlds " + d.worlds + " --seed " + d.seed +
      "; costs in expected list points"));
    box.appendChild(table("review-bidding", [{ text: "seat" }, { text: "limit (list)", num: true },
      { text: "limit (tournament)", num: true }, { text: "said", num: true }, { text: "passed at", num: true },
      { text: "verdict" }, { text: "cost", num: true }], d.bidding.map((b) => [seatText(b.seat, d, answer.players),
      pass(b.limit.list), pass(b.limit.tournament), b.said ? String(b.said) : "–",
      b.refused === null ? "–" : String(b.refused), b.text, b.cost.toFixed(1)])));
    if (d.pickup) {
      box.appendChild(el("h4", null, "Hand or pick-up at bid " + d.pickup.bid + " (he chose: " +
        (d.pickup.choice === "pickup" ? "pick up" : "hand") + ", cost " + d.pickup.cost.toFixed(1) + ")"));
      box.appendChild(table("review-pickup", [{ text: "option" }, { text: "win", num: true }, { text: "score", num: true }],
        d.pickup.alternatives.map((a) => [a.choice === "pickup" ? "pick up" : "hand: " + a.best,
          (100 * a.win).toFixed(1) + "%", a.score.toFixed(1)])));
    }
    if (d.declaration) {
      const dc = d.declaration;
      box.appendChild(el("h4", null, "Declaration at bid " + dc.bid + " (cost " + dc.cost.toFixed(1) + "; " +
        (dc.over === "skat" ? "the skat seen, " + dc.evaluated + " worlds" : "hand game, " + dc.evaluated + " worlds") +
        (dc.inference === "bids" ? ", weighed by the auction)" : ")")));
      box.appendChild(table("review-declaration", [{ text: "" }, { text: "contract" }, { text: "discard" },
        { text: "win", num: true }, { text: "score", num: true }], dc.alternatives.map((a) => [a.chosen ? "played" : "",
        [a.game].concat(a.hand ? ["hand"] : [], a.announce).join(" "), a.discard ? cardRow(a.discard) : "–",
        (100 * a.win).toFixed(1) + "%", a.score.toFixed(1)])));
    }
    box.appendChild(table("review-summary", [{ text: "seat" }, { text: "bidding", num: true },
      { text: "declaration", num: true }, { text: "play (card points)", num: true }],
      d.summary.seats.map((s) => [seatText(s.seat, d, answer.players), s.bidding.toFixed(1),
        s.declaration === null ? "–" : s.declaration.toFixed(1), String(s.play_card_points)])));
    const verdict = el("p", "verdict");
    verdict.id = "review-verdict";
    verdict.appendChild(el("strong", null, d.summary.verdict.charAt(0).toUpperCase() + d.summary.verdict.slice(1)));
    box.appendChild(verdict);
  }

  async function reviewDecisions() {
    clearDecisions();
    const status = $("review-status");
    if (!state.request || typeof state.request.text !== "string") {
      status.textContent = "A dealt game has no auction: load an ISS record or a JSON deal with bids.";
      return;
    }
    const number = (id, fallback) => { const v = parseInt($(id).value, 10); return Number.isFinite(v) ? v : fallback; };
    status.textContent = "Reviewing the bidding of every seat and the declaration…";
    const generation = state.generation;
    try {
      const answer = await api("/api/board/review", { text: state.request.text, skats: number("review-skats", 8),
        worlds: number("review-worlds", 10), seed: number("review-seed", 0) });
      if (generation !== state.generation) return;
      if (!answer.decisions) { status.textContent = answer.reason; return; }
      status.textContent = "";
      renderDecisions(answer);
    } catch (e) {
      if (generation === state.generation) status.textContent = e.message;
    }
  }

  /* ------------------------------------------------------------------ wiring */

  $("review-form").addEventListener("submit", (e) => { e.preventDefault(); reviewDecisions(); });

  $("load-form").addEventListener("submit", (e) => {
    e.preventDefault();
    load({ text: $("load-text").value, game: $("load-game").value || null, declarer: $("load-declarer").value || null });
  });
  $("load-file").addEventListener("change", async () => {
    const file = $("load-file").files[0];
    if (!file) return;
    $("load-text").value = await file.text();
    $("load-form").requestSubmit();
  });
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const seed = parseInt($("deal-seed").value, 10);
    load({ deal: $("deal-kind").value, seed: Number.isFinite(seed) ? seed : 1, game: $("deal-game").value || null });
  });
  document.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => step(b.getAttribute("data-go"))));
  document.querySelectorAll("input[name=view]").forEach((r) => r.addEventListener("change", () => {
    state.view = r.value;
    render();
  }));
  $("sd-form").addEventListener("submit", (e) => { e.preventDefault(); startSd(); });
  $("sd-cancel").addEventListener("click", () => cancelSd());
  const honestTricks = () => { $("sd-honest-tricks").disabled = !$("sd-honest").checked; };
  $("sd-honest").addEventListener("change", honestTricks);
  honestTricks();  // a checkbox the browser restored on reload
  ["sd-worlds", "sd-seed", "sd-inference", "sd-honest", "sd-honest-tricks"].forEach((id) => ["input", "change"].forEach(
    (kind) => $(id).addEventListener(kind, () => { if (state.cur) updateUrl(); })));  // the link keeps the choices
  $("four-colour").addEventListener("change", () => document.body.classList.toggle("four-colour", $("four-colour").checked));
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      setStatus("The link is copied.");
    } catch (e) {
      setStatus("Copy the address from the address bar (the browser refused the clipboard).");
    }
  });
  document.addEventListener("keydown", (e) => {
    if (!state.cur || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const target = e.target;
    if (target.closest && target.closest("input, textarea, select")) return;
    const moves = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (!moves[e.key]) return;
    e.preventDefault();
    step(moves[e.key]);
  });
  window.addEventListener("hashchange", () => { if (location.hash !== lastHash) fromUrl(); });
  fromUrl();
})();
