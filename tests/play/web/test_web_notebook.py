"""The notebooks' inline replay (:mod:`boardgames.play.web.notebook`) in a real browser: self-contained HTML
whose buttons, slider and move list step through the game, each step showing that position."""

from __future__ import annotations

from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import random_record
from boardgames.play.web.notebook import InlineReplay, replay_html


def test_the_inline_replay_is_self_contained_html():
    record = random_record(make_game("barc"), seed=1, max_moves=6)
    text = InlineReplay(record)._repr_html_()
    assert text.count('class="bgrl-frame"') == len(record) + 1
    assert "http://" not in text and "https://" not in text and "<script src" not in text
    assert text.count("data:image/png;base64,") == len(record) + 1
    assert replay_html(record) != replay_html(record)  # each output has its own element id


def test_the_inline_replay_steps_forward_and_back_in_a_browser(browser):
    record = random_record(make_game("dorix", num_players=3), seed=4, max_moves=12)
    states = record.states()
    page = browser.new_page()
    page.set_content(f"<html><body>{replay_html(record, scale=0.3)}</body></html>")

    def shown() -> tuple:
        visible = page.evaluate(
            "() => [...document.querySelectorAll('img.bgrl-frame')]"
            ".map((img, i) => img.style.display !== 'none' ? i : -1).filter(i => i >= 0)"
        )
        return visible, page.text_content(".bgrl-position")

    assert shown() == ([0], states[0].to_text())
    for _ in range(3):
        page.click("button[data-step=next]")
    assert shown() == ([3], states[3].to_text())
    page.click("button[data-step=prev]")
    assert shown() == ([2], states[2].to_text())
    page.click("button[data-step=last]")
    assert shown() == ([12], states[12].to_text())
    page.click("ol li:nth-child(5)")
    assert shown() == ([5], states[5].to_text())
    assert "5. " + record.mover_labels()[4] in page.text_content(".bgrl-label")  # Dorix's sides: player_k
    page.close()


def test_the_inline_replay_names_the_sides_and_says_the_end_in_the_third_person():
    from boardgames.play.moves import result_text

    record = random_record(make_game("barc"), seed=2)
    assert record.last.is_terminal()
    text = replay_html(record)
    assert "<b>Barc duel: " in text and "South: " in text and "player_0:" not in text
    assert result_text(record.last).replace("'", "&#x27;") in text or result_text(record.last) in text
    assert not result_text(record.last).startswith("You")
