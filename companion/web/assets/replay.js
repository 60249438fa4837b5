// A past game's page: a move, a step or a point of the chart shows its position
// without reloading the page (the server draws it), and the arrow keys step through
// the game. Without this script every one of them is a plain link that works too.
"use strict";

const replay = document.querySelector(".replay");
if (replay) {
  const base = "/game/" + replay.dataset.game;
  const last = Number(replay.dataset.last);
  const moves = replay.querySelector(".moves");
  // The move on show in the middle of the list, without scrolling the page itself.
  const centre = (a) => { moves.scrollTop = a.offsetTop - moves.clientHeight / 2; };
  const current = moves.querySelector("a[aria-current]");
  if (current) centre(current);
  const shown = () => Number(document.querySelector("#position h2").dataset.at);

  async function show(at, focusMove) {
    if (!(at >= 0 && at <= last)) return;
    const r = await fetch(base + "/position?at=" + at);
    if (!r.ok) { location.href = base + "?at=" + at; return; }
    document.getElementById("position").innerHTML = await r.text();  // drawn and escaped by the box
    for (const a of replay.querySelectorAll(".moves a[aria-current]")) a.removeAttribute("aria-current");
    const move = replay.querySelector('.moves a[data-at="' + at + '"]');
    if (move) {
      move.setAttribute("aria-current", "step");
      centre(move);
      if (focusMove) move.focus();
    }
    history.replaceState(null, "", base + "?at=" + at);
  }

  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[data-at]");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    show(Number(a.dataset.at), false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    const to = {ArrowLeft: shown() - 1, ArrowUp: shown() - 1, ArrowRight: shown() + 1,
      ArrowDown: shown() + 1, Home: 0, End: last}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to, replay.contains(document.activeElement));
  });
}
