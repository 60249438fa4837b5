// The theme switch of both live pages, the box's and the room's (each server serves this
// same file): light or dark as the device prefers, until the reader presses the header's
// button (#theme-button); that choice is kept in this browser (localStorage) and wins
// from then on. The button says what a press does.
//
// The theme is set as soon as this script runs, not after the page's words are fetched,
// so the page is not shown in the other theme while they load. The page's own script,
// loaded after this one, then calls pageTheme.start(its translate function) to wire the
// button, and pageTheme.relabel() when its language changes.
"use strict";
const pageTheme = (() => {
  const KEY = "companion-theme";
  const light = matchMedia("(prefers-color-scheme: light)");
  const stored = () => { try { return localStorage.getItem(KEY); } catch (e) { return null; } };
  let choice = stored();  // "dark", "light", or null: the device's
  let _ = null;  // the page's translate function; no button words until it is given

  function apply(chosen) {
    choice = chosen;
    const dark = choice ? choice === "dark" : !light.matches;
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    if (!_) return;
    // Translators: the page's theme button, in the dark theme.
    const lightWord = _("Light theme");
    // Translators: the page's theme button, in the light theme.
    document.getElementById("theme-button").textContent = dark ? lightWord : _("Dark theme");
  }

  function start(translate) {
    _ = translate;
    apply(stored());
    light.addEventListener("change", () => apply(stored()));
    document.getElementById("theme-button").addEventListener("click", () => {
      const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      apply(next);
    });
  }

  apply(choice);
  return {start, relabel: () => apply(choice)};
})();
