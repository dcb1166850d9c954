"""An inline replay for notebooks: a recorded game as one self-contained piece of HTML (the game's
pictures embedded as PNG, buttons, a slider and the arrow keys to step forward and back, the move list
and each position in notation), driven by a few lines of plain JavaScript in the output itself. Nothing
is fetched and no server or widget library is needed: it plays in Jupyter, JupyterLab, VS Code and in a
static render that runs a notebook's scripts (nbviewer, ``jupyter nbconvert --to html``); where scripts
do not run, the start position and the move list are still shown.

    from boardgames.play.web.notebook import InlineReplay
    InlineReplay(record)          # the last expression of a cell: displayed as the replay
    display(InlineReplay(record, scale=0.4))
"""

from __future__ import annotations

import html
import json
import secrets

from boardgames.envs.tools.replay import GameRecord
from boardgames.play.moves import result_text, side_labels
from boardgames.play.sides import title_of
from boardgames.play.web.board import board_view

SCRIPT = """
(function () {
  var root = document.getElementById(%(id)s);
  if (!root) return;
  var labels = %(labels)s, positions = %(positions)s;
  var frames = root.querySelectorAll("img.bgrl-frame"), moves = root.querySelectorAll("li");
  var slider = root.querySelector("input[type=range]"), index = 0;
  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    for (var k = 0; k < frames.length; k++) frames[k].style.display = k === index ? "block" : "none";
    for (var m = 0; m < moves.length; m++) moves[m].style.background = m === index - 1 ? "#ffe9a8" : "";
    slider.value = index;
    root.querySelector(".bgrl-label").textContent = index + " / " + (frames.length - 1) + "  " + labels[index];
    root.querySelector(".bgrl-position").textContent = positions[index];
  }
  var steps = {first: function () { return 0; }, prev: function () { return index - 1; },
               next: function () { return index + 1; }, last: function () { return frames.length - 1; }};
  root.querySelectorAll("button[data-step]").forEach(function (b) {
    b.addEventListener("click", function () { show(steps[b.dataset.step]()); });
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  moves.forEach(function (li, m) { li.addEventListener("click", function () { show(m + 1); }); });
  root.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { show(index + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { show(index - 1); e.preventDefault(); }
  });
  show(0);
})();
"""


def _js(value) -> str:
    """``value`` as a JavaScript literal safe inside a ``<script>`` element."""
    return json.dumps(value).replace("</", "<\\/")


def replay_html(record: GameRecord, scale: float = 0.5, title: str | None = None) -> str:
    """The HTML of the inline replay of ``record`` (one frame per position, pictures scaled by ``scale``)."""
    uid = "bgrl-replay-" + secrets.token_hex(6)
    states = record.states()
    moves = side_labels(record)
    labels = ["start"] + [f"{i}. {t}" for i, t in enumerate(moves, 1)]
    end = result_text(states[-1])  # in the third person: the reader watches
    if end:
        labels[-1] += f"  — {end}"
    frames = []
    for i, state in enumerate(states):
        view = board_view(state, scale, small=True)
        hidden = "" if i == 0 else ' style="display:none"'
        frames.append(
            f'<img class="bgrl-frame" alt="position {i}" width="{view["width"]}" '
            f'height="{view["height"]}" src="{view["png"]}"{hidden}>'
        )
    buttons = "".join(
        f'<button type="button" data-step="{step}">{html.escape(face)}</button> '
        for step, face in (("first", "|<"), ("prev", "<"), ("next", ">"), ("last", ">|"))
    )
    items = "".join(f'<li style="cursor:pointer">{html.escape(t)}</li>' for t in moves)
    heading = html.escape(title or f"{title_of(record.game.info)}: {len(record)} moves")
    script = SCRIPT % {"id": _js(uid), "labels": _js(labels), "positions": _js([s.to_text() for s in states])}
    return (
        f'<div id="{uid}" tabindex="0" style="display:flex;flex-wrap:wrap;gap:1em;font-family:sans-serif">'
        f"<div><b>{heading}</b><br>{''.join(frames)}"
        f'<div>{buttons}<input type="range" min="0" max="{len(states) - 1}" value="0" style="width:40%">'
        f' <span class="bgrl-label">{html.escape(labels[0])}</span></div>'
        f'<code class="bgrl-position" style="font-size:0.8em">{html.escape(states[0].to_text())}</code></div>'
        f'<ol style="max-height:{round(400 * scale * 2)}px;overflow-y:auto;font-family:monospace">{items}</ol>'
        f"</div><script>{script}</script>"
    )


class InlineReplay:
    """A recorded game shown as an inline replay by Jupyter (``_repr_html_``; see :func:`replay_html`)."""

    def __init__(self, record: GameRecord, scale: float = 0.5, title: str | None = None):
        self.record, self.scale, self.title = record, scale, title

    def _repr_html_(self) -> str:
        return replay_html(self.record, self.scale, self.title)
